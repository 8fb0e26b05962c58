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
import { t } from "../i18n/index.js";
import { seatLabel } from "../table.js";
import { gameProblemNote, hex, links, problemBox, retryNote } from "../ui.js";
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
  return html`<div class="steps" role="group" aria-label="${t("page.history.steps")}">
    <button data-testid="step-first" title="${t("page.history.firstHint")}" ?disabled=${step === 0} @click=${() => actions.go(0)}>
      ⇤ ${t("page.history.first")}
    </button>
    <button data-testid="step-prev" title="${t("page.history.prevHint")}" ?disabled=${step === 0} @click=${() => actions.go(step - 1)}>
      ◀ ${t("page.history.prev")}
    </button>
    <input
      type="range"
      data-testid="step-slider"
      aria-label="${t("page.history.slider")}"
      min="0"
      max="${total}"
      .value=${String(step)}
      @input=${(event: InputEvent) => actions.go(Number((event.target as HTMLInputElement).value))}
    />
    <button data-testid="step-next" title="${t("page.history.nextHint")}" ?disabled=${step === total} @click=${() => actions.go(step + 1)}>
      ${t("page.history.next")} ▶
    </button>
    <button data-testid="step-last" title="${t("page.history.lastHint")}" ?disabled=${step === total} @click=${() => actions.go(total)}>
      ${t("page.history.last")} ⇥
    </button>
    <span class="position" data-testid="step-position">${step} / ${total}</span>
  </div>`;
}

/** Who made a logged move when its seat's player did not: the clock or the referee's bot. */
function byMark(by: MoveBy): TemplateResult | typeof nothing {
  if (by === MoveBy.CLOCK) {
    return html` <span class="tag" data-testid="step-move-by" title="${t("page.history.byClockHint")}">${t("page.history.byClock")}</span>`;
  }
  if (by === MoveBy.BOT) {
    return html` <span class="tag" data-testid="step-move-by" title="${t("page.history.byBotHint")}">${t("page.history.byBot")}</span>`;
  }
  return nothing;
}

function moveBlock(game: string, entry: HistoryEntry, view: View | undefined): TemplateResult {
  const events = entry.events.map((event) => eventLine(game, event, view)).filter(Boolean);
  return html`<div class="step-move" data-testid="step-move" data-version="${String(entry.version)}">
    <p class="move-line">
      <span class="v">${t("page.history.move", { number: String(entry.version) })}</span>
      <strong>${seatLabel(view, entry.seat)}</strong>${byMark(entry.by)}: <span data-testid="step-move-text">${moveLine(game, entry.move, view)}</span>
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
        <p class="move-line">${t("page.history.deal", { seats: history.setup?.seats ?? "?" })}</p>
      </div>
      <section class="game-view felt deal-felt"><p class="deal-note">${t("page.history.dealNote")}</p></section>`;
  }
  const entry = history.entries[model.step - 1];
  const view = entry ? model.views.get(entry.version) : undefined;
  return html`${entry ? moveBlock(game, entry, view ?? model.views.values().next().value) : nothing}
    ${view
      ? board(view)
      : html`<section class="game-view felt missing" data-testid="game-view-missing">
          <p class="deal-note">${t("page.history.noView", { number: model.step })}</p>
        </section>`}`;
}

function verifyNote(model: HistoryModel, over: boolean): string {
  if (!over) return t("page.history.verifyLater");
  if (!model.streamDone) return t("page.history.receiving", { count: model.views.size });
  return t("page.history.compared", { count: model.views.size });
}

function seedBlock(model: HistoryModel, history: GetHistoryResponse): TemplateResult {
  const over = history.outcome !== undefined;
  const check = {
    match: html`<span class="ok" data-testid="seed-check">✔ ${t("page.history.seedMatch")}</span>`,
    mismatch: html`<span class="bad" data-testid="seed-check">✘ ${t("page.history.seedMismatch")}</span>`,
    unavailable: nothing,
  };
  return html`<div class="seed-block">
    <h3>${t("page.history.fairness")}</h3>
    <p class="muted">${t("page.history.fairnessHint")}</p>
    <dl>
      <dt>${t("page.history.commitment")}</dt>
      <dd><code class="hash" data-testid="seed-sha256">${history.seedSha256}</code></dd>
      <dt>${t("page.history.seed")}</dt>
      <dd>
        ${history.seed.length
          ? html`<code class="hash" data-testid="seed">${hex(history.seed)}</code>
              ${model.seedCheck ? check[model.seedCheck] : nothing}`
          : html`<span class="muted" data-testid="seed-hidden"
              >${t(over ? "page.history.seedHidden" : "page.history.seedLater")}</span
            >`}
      </dd>
    </dl>
    <button
      class="verify"
      data-testid="verify"
      ?disabled=${!over || !model.streamDone || model.verifying.state === "running"}
      title="${t(over ? "page.history.verifyHint" : "page.history.verifyLater")}"
      @click=${model.actions.verify}
    >
      ${t("page.history.verify")}
    </button>
    <span class="muted">${verifyNote(model, over)}</span>
    ${verifyResult(model.verifying)}
  </div>`;
}

export function historyPage(model: HistoryModel): TemplateResult {
  const { history, id } = model;
  const head = html`<div class="page-head">
    <h1>${t("page.history.title", { game: history?.setup ? gameTitle(history.setup.game) : t("page.game.fallback") })}</h1>
    <code class="muted dev-detail">${id}</code>
    ${history
      ? html`<span class="badge ${history.outcome ? "finished" : "live"}"
          >${t(history.outcome ? "page.state.finished" : "page.history.inPlay")}</span
        >`
      : nothing}
    <a href="${links.game(id)}">${t("page.history.table")}</a>
  </div>`;
  if (history === undefined) {
    return html`${head} ${problemBox(model.problem, gameProblemNote(model.problem))} ${model.problem ? nothing : html`<p class="muted">${t("page.loading")}</p>`}`;
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
          ? html`<div class="outcome" data-testid="outcome"><h2>${t("page.outcome.title")}</h2><p>${history.outcome.summary}</p></div>`
          : nothing}
        ${seedBlock(model, history)}
      </aside>
    </div>`;
}
