/**
 * The history page's drawing: step controls, the move and board at the current step, the
 * seed and the verification.
 */
import { MoveBy, type GetHistoryResponse, type HistoryEntry, type View } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import type { ApiProblem } from "../api.js";
import { board, eventLine, moveLine, outcomeBlock } from "../board.js";
import { gameTitle } from "../games/index.js";
import { revealPanel } from "../games/reveal.js";
import { seatNames } from "../table.js";
import { gameProblemNote, hex, links, problemBox, retryNote, seatName } from "../ui.js";
import { verifyResult, type VerifyState } from "../verify.js";

export interface HistoryModel {
  id: string;
  history: GetHistoryResponse | undefined;
  /** The view at each version, from WatchGame: the spectator's, or (`revealed`) the reveal. */
  views: Map<bigint, View>;
  /** The views are (being replaced by) the post-game reveal: the game is over. */
  revealed: boolean;
  /** The version shown: 0 is the deal, before the first move. */
  step: number;
  problem: ApiProblem | undefined;
  streamProblem: { problem: ApiProblem; retrying: boolean } | undefined;
  verifying: VerifyState;
  /** The seed against its commitment, checked here: undefined until the seed is known. */
  seedCheck: "match" | "mismatch" | "unavailable" | undefined;
  /** The view stream is over: every view we will record is in `views`. */
  streamDone: boolean;
  actions: { go(step: number): void; verify(): void };
}

function controls(model: HistoryModel, total: number): TemplateResult {
  const { step, actions } = model;
  return html`<div class="steps" role="group" aria-label="history steps">
    <button data-testid="step-first" title="the deal (Home)" ?disabled=${step === 0} @click=${() => actions.go(0)}>⇤ first</button>
    <button data-testid="step-prev" title="previous move (←)" ?disabled=${step === 0} @click=${() => actions.go(step - 1)}>◀ prev</button>
    <input
      type="range"
      data-testid="step-slider"
      aria-label="move"
      min="0"
      max="${total}"
      .value=${String(step)}
      @input=${(event: InputEvent) => actions.go(Number((event.target as HTMLInputElement).value))}
    />
    <button data-testid="step-next" title="next move (→)" ?disabled=${step === total} @click=${() => actions.go(step + 1)}>next ▶</button>
    <button data-testid="step-last" title="the end (End)" ?disabled=${step === total} @click=${() => actions.go(total)}>last ⇥</button>
    <span class="position" data-testid="step-position">${step} / ${total}</span>
  </div>`;
}

/** Who made a logged move when its seat's player did not: the clock or the referee's bot. */
function byMark(by: MoveBy): TemplateResult | typeof nothing {
  if (by === MoveBy.CLOCK) return html` <span class="tag" data-testid="step-move-by" title="the seat's time ran out">by the clock</span>`;
  if (by === MoveBy.BOT) return html` <span class="tag" data-testid="step-move-by" title="the referee's bot holds the seat">by the bot</span>`;
  return nothing;
}

function moveBlock(game: string, entry: HistoryEntry, view: View | undefined): TemplateResult {
  const events = entry.events.map((event) => eventLine(game, event, view)).filter(Boolean);
  return html`<div class="step-move" data-testid="step-move" data-version="${String(entry.version)}">
    <p class="move-line">
      <span class="v">move ${String(entry.version)}</span>
      <strong>${seatName(entry.seat, seatNames(view))}</strong>${byMark(entry.by)}: <span data-testid="step-move-text">${moveLine(game, entry.move, view)}</span>
    </p>
    ${events.length
      ? html`<ul class="step-events" data-testid="step-events">
          ${events.map((line) => html`<li>${line}</li>`)}
        </ul>`
      : nothing}
  </div>`;
}

function stepView(model: HistoryModel, history: GetHistoryResponse): TemplateResult {
  const game = history.setup?.game ?? "";
  if (model.step === 0) {
    return html`<div class="step-move deal" data-testid="step-deal">
        <p class="move-line"><strong>The deal</strong>: ${history.setup?.seats ?? "?"} seats, cards dealt from the seed.</p>
      </div>
      <section class="game-view felt deal-felt"><p class="deal-note">The deal: step forward to see the first move.</p></section>`;
  }
  const entry = history.entries[model.step - 1];
  const view = entry ? model.views.get(entry.version) : undefined;
  return html`${entry ? moveBlock(game, entry, view ?? model.views.values().next().value) : nothing}
    ${view
      ? board(view)
      : html`<section class="game-view felt missing" data-testid="game-view-missing">
          <p class="deal-note">No view of version ${model.step} received (yet).</p>
        </section>`}`;
}

function verifyNote(model: HistoryModel, over: boolean): string {
  if (!over) return "available once the game is over";
  if (!model.streamDone) return `receiving the views: ${model.views.size} so far…`;
  return `the ${model.views.size} views received will be compared too`;
}

function seedBlock(model: HistoryModel, history: GetHistoryResponse): TemplateResult {
  const over = history.outcome !== undefined;
  const check = {
    match: html`<span class="ok" data-testid="seed-check">✔ sha256(seed) matches the commitment</span>`,
    mismatch: html`<span class="bad" data-testid="seed-check">✘ sha256(seed) does not match the commitment</span>`,
    unavailable: nothing,
  };
  return html`<div class="seed-block">
    <h3>Seed</h3>
    <dl>
      <dt>commitment (sha256, published at creation)</dt>
      <dd><code class="hash" data-testid="seed-sha256">${history.seedSha256}</code></dd>
      <dt>seed</dt>
      <dd>
        ${history.seed.length
          ? html`<code class="hash" data-testid="seed">${hex(history.seed)}</code>
              ${model.seedCheck ? check[model.seedCheck] : nothing}`
          : html`<span class="muted" data-testid="seed-hidden"
              >${over ? "not revealed" : "not revealed yet: the game is not over"}</span
            >`}
      </dd>
    </dl>
    <button
      class="verify"
      data-testid="verify"
      ?disabled=${!over || !model.streamDone || model.verifying.state === "running"}
      title="${over ? "ask the referee to re-deal from the seed and replay every move" : "once the game is over"}"
      @click=${model.actions.verify}
    >
      Verify
    </button>
    <span class="muted">${verifyNote(model, over)}</span>
    ${verifyResult(model.verifying)}
  </div>`;
}

export function historyPage(model: HistoryModel): TemplateResult {
  const { history, id } = model;
  const head = html`<div class="page-head">
    <h1>${history?.setup ? gameTitle(history.setup.game) : "Game"} history</h1>
    <code class="muted">${id}</code>
    ${history
      ? html`<span class="badge ${history.outcome ? "finished" : "live"}">${history.outcome ? "finished" : "in play"}</span>`
      : nothing}
    <a href="${links.game(id)}">table</a>
  </div>`;
  if (history === undefined) {
    return html`${head} ${problemBox(model.problem, gameProblemNote(model.problem))} ${model.problem ? nothing : html`<p class="muted">Loading…</p>`}`;
  }
  const total = history.entries.length;
  const final = model.views.get(history.version);
  return html`${head} ${problemBox(model.problem)}
    ${model.streamProblem ? problemBox(model.streamProblem.problem, retryNote(model.streamProblem.retrying)) : nothing}
    ${controls(model, total)}
    <div class="game-layout">
      <div class="main-col">${stepView(model, history)}</div>
      <aside class="side">
        ${model.step > 0 ? revealPanel(model.views.get(BigInt(model.step))) : nothing}
        ${history.outcome && final ? outcomeBlock(final) : nothing}
        ${history.outcome && !final
          ? html`<div class="outcome" data-testid="outcome"><h3>Game over</h3><p>${history.outcome.summary}</p></div>`
          : nothing}
        ${seedBlock(model, history)}
      </aside>
    </div>`;
}
