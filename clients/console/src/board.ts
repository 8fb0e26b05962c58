/**
 * One view drawn on the felt: the `data-testid="game-view"` section every page that shows
 * a table uses, with the game's renderer inside.
 */
import type { Event, Move, View } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import { rendererFor } from "./games/index.js";
import { revealPanel } from "./games/reveal.js";
import type { SeatControls } from "./games/types.js";
import { seatNames } from "./table.js";
import { seatName } from "./ui.js";

/**
 * The renderer's drawing of `view`. A renderer that throws (a view it did not expect)
 * costs the board, not the page.
 */
function table(view: View): TemplateResult {
  const renderer = rendererFor(view.game);
  if (renderer === undefined) return html`<p class="muted">No drawing for the game “${view.game}”.</p>`;
  try {
    return renderer.table(view);
  } catch (error) {
    console.error("renderer failed", error);
    return html`<p class="problem">The ${renderer.title} drawing failed: ${String(error)}</p>`;
  }
}

/** The table at `view`, on the felt. */
export function board(view: View): TemplateResult {
  return html`<section
    class="game-view felt"
    data-testid="game-view"
    data-game="${view.game}"
    data-version="${String(view.version)}"
  >
    ${table(view)}
  </section>`;
}

/**
 * A seat's own table with its moves: the renderer's `seat` drawing, else its `table` with
 * one button per legal move. The same `game-view` section as `board`, with the seat on it;
 * once the game is over, the post-game reveal inside it (the seat drawings draw none), so
 * the section draws every card of the seat's view, each where the view puts it.
 */
export function seatBoard(view: View, controls: SeatControls): TemplateResult {
  const renderer = rendererFor(view.game);
  let drawn: TemplateResult;
  let own = renderer?.seat !== undefined;
  try {
    drawn = renderer?.seat ? renderer.seat(view, controls) : table(view);
  } catch (error) {
    console.error("renderer failed", error);
    drawn = html`<p class="problem">The drawing failed: ${String(error)}</p>`;
    own = false;
  }
  return html`<section
      class="game-view felt seat-view"
      data-testid="game-view"
      data-game="${view.game}"
      data-seat="${controls.seat}"
      data-version="${String(view.version)}"
    >
      ${drawn} ${view.outcome ? revealPanel(view) : nothing}
    </section>
    ${own ? allMoves(view, controls) : moveButtons(view, controls)}`;
}

/** Whether the list of every legal move is unfolded: kept from version to version. */
let allMovesOpen = false;

/**
 * Every legal move in a list, folded away under the game's own controls: a debug panel
 * for frontend authors (what ListLegalMoves said, word for word) and a way to make any
 * move when the drawing offers no better one. Once unfolded it stays so, move after move.
 */
function allMoves(view: View, controls: SeatControls): TemplateResult {
  const toggled = (event: globalThis.Event) => {
    allMovesOpen = (event.target as HTMLDetailsElement).open;
  };
  return html`<details class="all-moves" data-testid="all-moves" ?open=${allMovesOpen} @toggle=${toggled}>
    <summary>All legal moves (${controls.legal.length})</summary>
    ${moveButtons(view, controls)}
  </details>`;
}

/** Every legal move as a button labelled as the log would say it: the plainest controls. */
export function moveButtons(view: View, controls: SeatControls): TemplateResult | typeof nothing {
  if (controls.legal.length === 0) return nothing;
  return html`<div class="move-buttons" data-testid="legal-moves">
    ${controls.legal.map(
      (move) => html`<button
        type="button"
        data-testid="move"
        ?disabled=${controls.busy}
        @click=${() => controls.submit(move)}
      >
        ${moveLine(view.game, move, view)}
      </button>`,
    )}
  </div>`;
}

/**
 * The renderer's line for `event`, "" when it leaves it out or has none; `view` is any view
 * of the game, for what events name by id only.
 */
export function eventLine(game: string, event: Event, view?: View): string {
  try {
    return rendererFor(game)?.event(event, view) ?? "";
  } catch (error) {
    console.error("renderer failed", error);
    return `(unreadable event: ${String(error)})`;
  }
}

/** The renderer's line for `move` (undefined while it is secret); `view` as for events. */
export function moveLine(game: string, move: Move | undefined, view?: View): string {
  try {
    const renderer = rendererFor(game);
    if (renderer !== undefined) return renderer.move(move, view);
  } catch (error) {
    console.error("renderer failed", error);
    return `(unreadable move: ${String(error)})`;
  }
  return move === undefined ? "a secret move" : (move.game.case ?? "a move");
}

/** The outcome block: summary and winners. */
export function outcomeBlock(view: View, extra: TemplateResult | typeof nothing = nothing): TemplateResult | typeof nothing {
  const outcome = view.outcome;
  if (outcome === undefined) return nothing;
  const winners = outcome.winners.length
    ? `won by ${outcome.winners.map((seat) => seatName(seat, seatNames(view))).join(", ")}`
    : "no winner";
  return html`<div class="outcome" data-testid="outcome">
    <h3>Game over</h3>
    <p class="summary">${outcome.summary}</p>
    <p class="winners" data-testid="winners">${winners}</p>
    ${extra}
  </div>`;
}
