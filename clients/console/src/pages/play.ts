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
import { gameTitle } from "../games/index.js";
import type { SeatControls } from "../games/types.js";
import { EventLog } from "../log.js";
import { Retry } from "../retry.js";
import { counting, redrawWhileCounting, seatLabel, seatsPanel, tableState, waitingLine } from "../table.js";
import { forgetToken, hideSecret, keepToken, moveId, tokenOf } from "../tokens.js";
import { links, problemBox, retryNote } from "../ui.js";
import { refusalWords } from "./refusals.js";

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
  return html`<div class="page-head"><h1>No seat here</h1></div>
    <p data-testid="no-seat">
      This tab holds no seat at table <code>${id}</code>. Join it with a code or a join link, or
      open your seat link again.
    </p>
    <p><a href="${links.join(id)}">Join this table</a> · <a href="${links.game(id)}">Watch it</a></p>`;
}

class SeatPage {
  private view: View | undefined;
  private listed: Listed | undefined;
  private pending: Pending | undefined;
  private refusal: ApiProblem | undefined;
  private problem: ApiProblem | undefined;
  private retrying = false;
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
        this.problem = next;
        this.retrying = again;
        if (!again && (next.code === "permission_denied" || next.code === "unauthenticated")) {
          forgetToken("seat", this.id); // replaced or reissued: this token is spent
        }
        this.draw();
      },
    });
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
    if (view.outcome !== undefined || tableState(view) !== "live" || !view.toAct.includes(view.seat ?? -1)) {
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
      if (problem.permanent) {
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
    const current = this.listed !== undefined && this.listed.version === view.version;
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
    render(
      html`${this.head(view)} ${problemBox(this.problem, retryNote(this.retrying))}
        ${view
          ? html`<div class="game-layout">
              <div class="seat-main">
                ${this.status(view)} ${seatBoard(view, this.controls(view))}
              </div>
              <aside class="side">
                ${outcomeBlock(view, html`<a href="${links.history(this.id)}">Step through the history →</a>`)}
                ${seatsPanel(view, Date.now())}
                <h3>Events</h3>
                ${this.log.render()} ${this.seatLink()}
              </aside>
            </div>`
          : this.problem
            ? nothing
            : html`<p class="muted">Loading…</p>`}`,
      this.root,
    );
  }

  private head(view: View | undefined): TemplateResult {
    return html`<div class="page-head">
      <h1>${view ? gameTitle(view.game) : "Game"}</h1>
      ${view
        ? html`<span class="you" data-testid="you">You: ${seatLabel(view, view.seat ?? -1)} (seat ${view.seat})</span>
            <span class="badge ${tableState(view)}" data-testid="table-status">${tableState(view)}</span>
            <span class="muted">version <span data-testid="game-version">${String(view.version)}</span></span>`
        : nothing}
      <a class="history-nav" href="${links.game(this.id)}">watch as a spectator</a>
    </div>`;
  }

  /** Whose move it is, what is on its way, and the last refusal in words. */
  private status(view: View): TemplateResult {
    const mine = tableState(view) === "live" && view.toAct.includes(view.seat ?? -1);
    const pending = this.pending;
    return html`<div class="seat-status" data-testid="seat-status" aria-live="polite">
      <span class="turn ${mine ? "mine" : ""}" data-testid="turn"
        >${mine ? "Your move" : waitingLine(view, Date.now())}</span
      >
      ${pending
        ? html`<span class="sending" data-testid="sending"
            >Sending your move…${pending.trouble ? ` (${pending.trouble.message}; trying again)` : ""}</span
          >`
        : nothing}
      ${this.refusal
        ? html`<div class="refusal problem" data-testid="refusal" data-reason="${this.refusal.reason}" role="alert">
            <strong>${refusalWords(this.refusal)}</strong>
            <code>${this.refusal.reason || this.refusal.code}</code>
          </div>`
        : nothing}
    </div>`;
  }

  /** The seat link, to play this seat from another device; secret, so behind a click. */
  private seatLink(): TemplateResult {
    const link = `${location.origin}${location.pathname}${location.search}${links.seatLink(this.id, this.token)}`;
    return html`<details class="seat-link">
      <summary>Your seat link</summary>
      <p class="muted">Opens this seat anywhere. Whoever has it plays for you: keep it to yourself.</p>
      <input readonly .value=${link} aria-label="seat link" @focus=${(e: Event) => (e.target as HTMLInputElement).select()} />
    </details>`;
  }
}
