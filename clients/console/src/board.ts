/**
 * One view drawn on the felt: the `data-testid="game-view"` section every page that shows
 * a table uses, with the game's renderer inside.
 */
import type { Event, Move, View } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import { rendererFor } from "./games/index.js";
import { revealPanel } from "./games/reveal.js";
import type { SeatControls } from "./games/types.js";
import { lang, num, t } from "./i18n/index.js";
import { seatLabel, whom } from "./table.js";

/**
 * The renderer's drawing of `view`. A renderer that throws (a view it did not expect)
 * costs the board, not the page.
 */
function table(view: View): TemplateResult {
  const renderer = rendererFor(view.game);
  if (renderer === undefined) return html`<p class="muted">${t("page.board.unknownGame", { game: view.game })}</p>`;
  try {
    return renderer.table(view);
  } catch (error) {
    console.error("renderer failed", error);
    return drawingFailed(error);
  }
}

/** A drawing that threw: said in words, the error behind the details toggle. */
function drawingFailed(error: unknown): TemplateResult {
  return html`<p class="problem">${t("page.board.failed")} <small class="dev-detail">${String(error)}</small></p>`;
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
    drawn = drawingFailed(error);
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
    <summary>${t("page.board.allMoves", { count: controls.legal.length })}</summary>
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
    return t("page.board.unreadableEvent");
  }
}

/** The renderer's line for `move` (undefined while it is secret); `view` as for events. */
export function moveLine(game: string, move: Move | undefined, view?: View): string {
  try {
    const renderer = rendererFor(game);
    if (renderer !== undefined) return renderer.move(move, view);
  } catch (error) {
    console.error("renderer failed", error);
    return t("page.board.unreadableMove");
  }
  return move === undefined ? t("page.board.secretMove") : t("page.board.aMove");
}

/** Who won, in words: the winners by name, the team's result, or nobody. */
function winnersLine(view: View): string {
  const outcome = view.outcome;
  if (outcome === undefined) return "";
  if (outcome.team) return t(outcome.winners.length ? "page.outcome.teamWon" : "page.outcome.teamLost");
  if (outcome.winners.length === 0) return t("page.outcome.noWinner");
  return t("page.outcome.won", { names: whom(view, outcome.winners) });
}

/** Every seat's place and score, best place first (a table for a team: the shared score). */
function scoresTable(view: View): TemplateResult | typeof nothing {
  const outcome = view.outcome;
  if (outcome === undefined || outcome.scores.length === 0) return nothing;
  const seats = outcome.scores.map((_, seat) => seat);
  const place = (seat: number) => outcome.placings[seat] ?? 0;
  seats.sort((a, b) => place(a) - place(b) || a - b);
  return html`<table class="scores" data-testid="outcome-scores">
    <thead>
      <tr>
        <th class="num" scope="col">${t("page.outcome.place")}</th>
        <th scope="col">${t("page.outcome.player")}</th>
        <th class="num" scope="col">${t("page.outcome.score")}</th>
      </tr>
    </thead>
    <tbody>
      ${seats.map(
        (seat) => html`<tr data-testid="outcome-row" data-seat="${seat}">
          <td class="num">${place(seat) || "–"}</td>
          <th scope="row">${seatLabel(view, seat)}</th>
          <td class="num">${num(outcome.scores[seat] ?? 0)}</td>
        </tr>`,
      )}
    </tbody>
  </table>`;
}

/**
 * The outcome block: who won and every seat's score, then the referee's own sentence (in
 * English, so behind the details toggle in the other languages).
 */
export function outcomeBlock(view: View, extra: TemplateResult | typeof nothing = nothing): TemplateResult | typeof nothing {
  const outcome = view.outcome;
  if (outcome === undefined) return nothing;
  return html`<section class="outcome" data-testid="outcome" aria-label="${t("page.outcome.title")}">
    <h2>${t("page.outcome.title")}</h2>
    <p class="winners" data-testid="winners">${winnersLine(view)}</p>
    ${scoresTable(view)}
    <p class="summary ${lang() === "en" ? "" : "dev-detail"}">${outcome.summary}</p>
    ${extra}
  </section>`;
}
