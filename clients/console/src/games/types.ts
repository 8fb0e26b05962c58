/**
 * What the console needs of a game to draw it: its table from one view, and one line per
 * move and per event for the history. Every game module exports one `GameRenderer`; the
 * registry in `index.ts` picks it by the view's game name.
 */
import type { Event, Move, View } from "@referee/client/web";
import type { TemplateResult } from "lit-html";

/**
 * What the seat page hands a renderer to draw a seat's own table with its moves on it.
 * The page never works out a legal move: `legal` is what ListLegalMoves answered at
 * `version`, and `submit` takes one of those moves (the renderer may let the player pick
 * it in steps, e.g. cards one by one, but what it submits is always an entry of `legal`).
 */
export interface SeatControls {
  /** The seat this page plays. */
  readonly seat: number;
  /** The version `legal` was listed at; the drawing is of the view at this version. */
  readonly version: bigint;
  /** The seat's legal moves now; empty while it cannot act (or while they load). */
  readonly legal: readonly Move[];
  /** True while a move is on its way: controls are drawn disabled. */
  readonly busy: boolean;
  /** Submit `move` (an entry of `legal`) with a fresh, stable move id. */
  submit(move: Move): void;
  /**
   * The renderer's own state between redraws (cards picked so far, an open dialog), kept
   * by the page until the version changes; `redraw` draws again after a change.
   */
  readonly picked: Map<string, unknown>;
  redraw(): void;
}

/** One seat's hidden cards in a post-game reveal; `notes` are what is not a card (curses, a sealed choice). */
export interface SeatReveal {
  seat: number;
  cards: TemplateResult[];
  notes: string[];
}

/** Something else the game hid: a labelled row of cards, or a line of text. */
export interface MoreReveal {
  label: string;
  cards: TemplateResult[];
  text?: string;
  /** The row's `data-testid`, when a test or a frontend looks for it. */
  testid?: string;
}

/** What a finished game's view shows of everything it kept face down (`revealed_*`). */
export interface Reveal {
  seats: SeatReveal[];
  more: MoreReveal[];
}

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
  /**
   * The seat's own table with its legal moves made clickable, in the game's own terms
   * (take a chip, pick cards that form a combination, choose a location). Optional: the
   * seat page falls back to `table` plus one button per legal move, labelled by `move`.
   * Every card it draws carries `data-testid="card"` and `data-card` as `table` does, and
   * it draws exactly what `view` shows.
   */
  seat?(view: View, controls: SeatControls): TemplateResult;
  /**
   * One line saying what this seat may do now, in the game's own terms and the page's
   * language ("Take a chip from the middle, or swap yours"; "Waiting for Ada to play"),
   * for every phase of the game; the seat page shows it above the seat's own area.
   */
  prompt?(view: View, controls: SeatControls): string;
  /**
   * The view's post-game reveal (its `revealed_*` fields), its cards drawn by the game's
   * own card drawing; undefined for a view of another game. `reveal.ts` lays it out.
   */
  revealed?(view: View): Reveal | undefined;
}
