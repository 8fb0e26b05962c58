/**
 * What the console needs of a game to draw it: its table from one view, and one line per
 * move and per event for the history. Every game module exports one `GameRenderer`; the
 * registry in `index.ts` picks it by the view's game name.
 */
import type { Event, Move, View } from "@referee/client/web";
import type { TemplateResult } from "lit-html";

export interface GameRenderer {
  /** The game's published name: "the_gang", "gang_of_four" or "pinched". */
  readonly game: string;
  /** The game's display name, e.g. "The Gang". */
  readonly title: string;
  /**
   * The table as `view` shows it. The console only ever holds spectator views, so hidden
   * cards are what the view says of them (counts, backs), never faces.
   */
  table(view: View): TemplateResult;
  /**
   * One readable line for a logged move; `move` is undefined while it is secret. `view` is
   * a view of the same game, when the page has one, for what moves name by id only (the
   * kinds of Pinched!'s cards come from the component table of its views).
   */
  move(move: Move | undefined, view?: View): string;
  /** One readable line for an event, or "" to leave it out of the log; `view` as for `move`. */
  event(event: Event, view?: View): string;
}
