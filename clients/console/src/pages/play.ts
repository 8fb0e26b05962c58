/**
 * `#/play/<id>`: one seat's page. The seat's own WatchGame stream draws its view; at every
 * version the page asks ListLegalMoves and lets the renderer make those moves clickable.
 * It never works out legality itself: what it submits is always one of the listed moves.
 *
 * A move is sent with a fresh move id and, while the answer fails for a reason that may
 * pass (the network, a restart, a deadline), sent again with the same id, so it applies at
 * most once and is never lost; a refusal is shown in words and nothing is retried. The
 * token comes from session storage (or once from a seat link) and goes out only as the
 * `authorization` header of this page's calls.
 */
import type { Move, View } from "@referee/client/web";
import { html, nothing, render, type TemplateResult } from "lit-html";

import { isAbort, problemOf, withToken, type ApiProblem } from "../api.js";
import { outcomeBlock, seatBoard } from "../board.js";
import { followGame } from "../follow.js";
import { gameTitle, rendererFor } from "../games/index.js";
import type { SeatControls } from "../games/types.js";
import { t } from "../i18n/index.js";
import { EventLog } from "../log.js";
import { Retry } from "../retry.js";
import {
  countdown,
  counting,
  redrawWhileCounting,
  seatLabel,
  seatsPanel,
  stateWord,
  tableState,
  waitingLine,
  whom,
} from "../table.js";
import { forgetToken, hideSecret, keepToken, moveId, tokenOf } from "../tokens.js";
import { links, problemBox, problemDetail, retryNote } from "../ui.js";
import { problemWords, refusalWords, seatLost } from "./refusals.js";

/** A move on its way: sent again with the same id until it is answered. */
interface Pending {
  id: string;
  move: Move;
  /** The last transient failure, shown while we send again. */
  trouble?: ApiProblem;
}

/** The legal moves, and the version they were listed at. */
interface Listed {
  version: bigint;
  moves: Move[];
}

const SUBMIT_TIMEOUT_MS = 10_000;

export function mountPlay(root: HTMLElement, signal: AbortSignal, id: string, routeToken: string): void {
  if (routeToken) {
    keepToken("seat", id, routeToken);
    hideSecret(links.play(id));
  }
  const token = tokenOf("seat", id);
  if (token === undefined) {
    render(noSeat(id), root);
    return;
  }
  new SeatPage(root, signal, id, token).start();
}

function noSeat(id: string): TemplateResult {
  return html`<div class="page-head"><h1>${t("page.play.noSeatTitle")}</h1></div>
    <p data-testid="no-seat">${t("page.play.noSeat")} <code class="dev-detail">${id}</code></p>
    <p><a href="${links.join(id)}">${t("page.play.joinThis")}</a> · <a href="${links.game(id)}">${t("page.play.watchThis")}</a></p>`;
}

class SeatPage {
  private view: View | undefined;
  private listed: Listed | undefined;
  private pending: Pending | undefined;
  private refusal: ApiProblem | undefined;
  private problem: ApiProblem | undefined;
  private retrying = false;
  /** Why this page's token no longer plays the seat (reissued, handed over): no more moves. */
  private lost: ApiProblem | undefined;
  /** The renderer's picks, kept until the version changes. */
  private picked = new Map<string, unknown>();
  private pickedAt = -1n;
  private listing: AbortController | undefined;
  private readonly clients;
  private readonly log = new EventLog(() => this.view);
  private readonly resend: Retry;
  private readonly relist: Retry;
  private readonly clock: { resume(): void };

  constructor(
    private readonly root: HTMLElement,
    private readonly signal: AbortSignal,
    private readonly id: string,
    private readonly token: string,
  ) {
    this.clients = withToken(token);
    this.resend = new Retry(() => void this.send(), signal);
    this.relist = new Retry(() => void this.list(), signal);
    this.clock = redrawWhileCounting(signal, () => this.draw(), () => this.view);
  }

  start(): void {
    this.draw();
    void followGame(this.clients.referee, this.id, this.signal, {
      message: (message) => {
        this.log.add(message.version, message.events);
        if (message.view) this.see(message.view);
        this.problem = undefined;
        this.draw();
      },
      problem: (next, again) => {
        this.retrying = again;
        if (!again && (seatLost(next) || next.code === "permission_denied")) this.loseSeat(next);
        else this.problem = next;
        this.draw();
      },
    });
  }

  /** The token no longer plays the seat: it is spent, and the page offers no more moves. */
  private loseSeat(problem: ApiProblem): void {
    this.lost = problem;
    this.pending = undefined;
    this.listing?.abort();
    this.listed = this.view ? { version: this.view.version, moves: [] } : undefined;
    forgetToken("seat", this.id);
  }

  /** A view from the stream or a move's answer: kept when it is not older than ours. */
  private see(view: View): void {
    if (this.view !== undefined && view.version < this.view.version) return;
    const moved = this.view === undefined || view.version > this.view.version;
    this.view = view;
    if (moved) void this.list();
    if (counting(view)) this.clock.resume();
  }

  /** The seat's legal moves at the latest version (one call at a time; a newer one wins). */
  private async list(): Promise<void> {
    const view = this.view;
    if (view === undefined || this.signal.aborted) return;
    if (this.lost !== undefined || view.outcome !== undefined || tableState(view) !== "live" || !view.toAct.includes(view.seat ?? -1)) {
      this.listed = { version: view.version, moves: [] };
      this.draw();
      return;
    }
    this.listing?.abort();
    const listing = new AbortController();
    this.listing = listing;
    this.signal.addEventListener("abort", () => listing.abort(), { once: true });
    const both = listing.signal;
    try {
      const answer = await this.clients.referee.listLegalMoves({ gameId: this.id }, { signal: both });
      if (this.listed === undefined || answer.version >= this.listed.version) {
        this.listed = { version: answer.version, moves: answer.moves };
      }
      this.relist.succeeded();
      this.draw();
    } catch (error) {
      if (isAbort(error, both)) return;
      this.relist.later();
    }
  }

  private submit(move: Move): void {
    if (this.pending !== undefined) return;
    this.pending = { id: moveId(), move };
    this.refusal = undefined;
    this.draw();
    void this.send();
  }

  private async send(): Promise<void> {
    const pending = this.pending;
    if (pending === undefined || this.signal.aborted) return;
    try {
      const answer = await this.clients.referee.submitMove(
        { gameId: this.id, move: pending.move, clientMoveId: pending.id },
        { signal: this.signal, timeoutMs: SUBMIT_TIMEOUT_MS },
      );
      this.pending = undefined;
      this.resend.succeeded();
      this.log.add(answer.version, answer.events);
      if (answer.view) this.see(answer.view);
    } catch (error) {
      if (isAbort(error, this.signal)) return;
      const problem = problemOf(error);
      if (seatLost(problem)) {
        this.loseSeat(problem);
      } else if (problem.permanent) {
        this.pending = undefined;
        this.refusal = problem;
        void this.list();
      } else {
        pending.trouble = problem;
        this.resend.later();
      }
    }
    this.draw();
  }

  private controls(view: View): SeatControls {
    if (this.pickedAt !== view.version) {
      this.picked = new Map();
      this.pickedAt = view.version;
    }
    const current = this.lost === undefined && this.listed !== undefined && this.listed.version === view.version;
    return {
      seat: view.seat ?? -1,
      version: view.version,
      legal: current ? (this.listed?.moves ?? []) : [],
      busy: this.pending !== undefined,
      submit: (move) => this.submit(move),
      picked: this.picked,
      redraw: () => this.draw(),
    };
  }

  private draw(): void {
    if (this.signal.aborted) return;
    const view = this.view;
    const now = Date.now();
    render(
      html`${this.head(view)} ${this.lostBox()} ${problemBox(this.problem, retryNote(this.retrying))}
        ${view
          ? html`${outcomeBlock(view, html`<a href="${links.history(this.id)}">${t("page.play.history")}</a>`)}
              <div class="game-layout">
                <div class="seat-main">${this.seatArea(view, now)}</div>
                <aside class="side">
                  ${seatsPanel(view, now)}
                  <h3>${t("page.log.title")}</h3>
                  ${this.log.render()} ${this.seatLink()}
                </aside>
              </div>`
          : this.problem || this.lost
            ? nothing
            : html`<p class="muted">${t("page.loading")}</p>`}`,
      this.root,
    );
  }

  /** The seat's own area: whose move, the prompt and the seat's clock, then its board. */
  private seatArea(view: View, now: number): TemplateResult {
    const controls = this.controls(view);
    return html`${this.status(view, now)}
      <div class="prompt-row">
        <p class="prompt" data-testid="prompt" aria-live="polite">${this.prompt(view, controls)}</p>
        ${this.myClock(view, now)}
      </div>
      ${seatBoard(view, controls)}`;
  }

  /** What this seat may do now: the renderer's line, else a plain one. */
  private prompt(view: View, controls: SeatControls): string {
    if (this.lost) return t("page.play.promptLost");
    const renderer = rendererFor(view.game);
    try {
      const line = renderer?.prompt?.(view, controls);
      if (line) return line;
    } catch (error) {
      console.error("renderer failed", error);
    }
    const state = tableState(view);
    if (state === "finished") return t("page.play.promptOver");
    if (state === "aborted") return t("page.wait.aborted");
    if (state === "open") return waitingLine(view, Date.now());
    if (this.mine(view)) return controls.legal.length ? t("page.play.promptChoose") : t("page.play.promptYours");
    const others = view.toAct.filter((seat) => seat !== view.seat);
    return others.length ? t("page.play.promptWaiting", { names: whom(view, others) }) : t("page.wait.nobody");
  }

  /** The seat's own countdown, beside its area, while its clock runs. */
  private myClock(view: View, now: number): TemplateResult | typeof nothing {
    if (this.lost || !this.mine(view)) return nothing;
    const deadline = Number(view.table?.seats.find((seat) => seat.seat === view.seat)?.deadlineUnixMs ?? 0);
    if (deadline <= 0) return nothing;
    const left = deadline - now;
    return html`<span class="my-clock clock ${left < 30_000 ? "low" : ""}" data-testid="my-clock" role="timer"
      >${t("page.play.timeLeft", { left: countdown(left) })}</span
    >`;
  }

  private mine(view: View): boolean {
    return this.lost === undefined && tableState(view) === "live" && view.toAct.includes(view.seat ?? -1);
  }

  /** The seat is no longer this page's: the sentence with the next step, and no moves. */
  private lostBox(): TemplateResult | typeof nothing {
    const lost = this.lost;
    if (lost === undefined) return nothing;
    return html`<div class="problem seat-lost" data-testid="seat-lost" data-reason="${lost.reason}" role="alert">
      <strong>${problemWords(lost)}</strong>
      <a href="${links.game(this.id)}">${t("page.play.watchThis")}</a> ${problemDetail(lost)}
    </div>`;
  }

  private head(view: View | undefined): TemplateResult {
    return html`<div class="page-head">
      <h1>${view ? gameTitle(view.game) : t("page.game.fallback")}</h1>
      ${view
        ? html`<span class="you" data-testid="you">${t("page.play.you", { name: seatLabel(view, view.seat ?? -1) })}</span>
            <span class="badge ${tableState(view)}" data-testid="table-status">${stateWord(tableState(view))}</span>
            <span class="muted dev-detail"
              >${t("common.version", { version: "" })}<span data-testid="game-version">${String(view.version)}</span></span
            >`
        : nothing}
      <a class="history-nav" href="${links.game(this.id)}">${t("page.play.spectate")}</a>
    </div>`;
  }

  /** Whose move it is, what is on its way, and the last refusal in words. */
  private status(view: View, now: number): TemplateResult {
    const mine = this.mine(view);
    const pending = this.pending;
    return html`<div class="seat-status" data-testid="seat-status" aria-live="polite">
      <span class="turn ${mine ? "mine" : ""}" data-testid="turn">${mine ? t("page.play.yourMove") : waitingLine(view, now)}</span>
      ${pending
        ? html`<span class="sending" data-testid="sending"
            >${pending.trouble ? t("page.play.sendingAgain") : t("page.play.sending")}${pending.trouble
              ? problemDetail(pending.trouble)
              : nothing}</span
          >`
        : nothing}
      ${this.refusal
        ? html`<div class="refusal problem" data-testid="refusal" data-reason="${this.refusal.reason}" role="alert">
            <strong>${refusalWords(this.refusal)}</strong> ${problemDetail(this.refusal)}
          </div>`
        : nothing}
    </div>`;
  }

  /** The seat link, to play this seat from another device; secret, so behind a click. */
  private seatLink(): TemplateResult | typeof nothing {
    if (this.lost) return nothing;
    const link = `${location.origin}${location.pathname}${location.search}${links.seatLink(this.id, this.token)}`;
    return html`<details class="seat-link">
      <summary>${t("page.play.seatLink")}</summary>
      <p class="muted">${t("page.play.seatLinkHint")}</p>
      <input readonly .value=${link} aria-label="${t("page.play.seatLink")}" @focus=${(e: Event) => (e.target as HTMLInputElement).select()} />
    </details>`;
  }
}
