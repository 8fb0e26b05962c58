/**
 * `#/table/<id>/admin`: the table admin's page, with the admin token from this tab's
 * session storage. The table live (WatchGame with the admin token, which watches as a
 * spectator), its seats and join link, and the admin's controls: Start (bots in the open
 * seats), Abort, and per seat Forfeit, Replace by a bot and Reissue its token (the new
 * seat link is shown once). The page offers every control whatever the table's state:
 * the referee decides, and a refusal is shown in words.
 */
import { BotStrategy, SeatHolder, type Table, type TableSeat, type View } from "@referee/client/web";
import { html, nothing, render, type TemplateResult } from "lit-html";

import { withToken, type ApiProblem, type TokenClients } from "../api.js";
import { board, outcomeBlock } from "../board.js";
import { followGame } from "../follow.js";
import { gameTitle } from "../games/index.js";
import { EventLog } from "../log.js";
import { t } from "../i18n/index.js";
import { counting, redrawWhileCounting, seatLabel, seatsPanel, stateWord, tableState, waitingLine } from "../table.js";
import { forgetToken, keepToken, tokenOf } from "../tokens.js";
import { links, problemBox, retryNote } from "../ui.js";
import { absolute, Action, clockWords, copyField, joinCodeOf, mySeatOf, refusalBox } from "./lobby_parts.js";
import "./lobby.css";

export function mountTableAdmin(root: HTMLElement, signal: AbortSignal, id: string): void {
  const token = tokenOf("table-admin", id);
  if (token === undefined) {
    render(
      html`<div class="lobby-page">
        <div class="page-head"><h1>${t("page.admin.noTokenTitle")}</h1></div>
        <p data-testid="no-admin">${t("page.admin.noToken")} <code class="dev-detail">${id}</code></p>
        <p><a href="${links.game(id)}">${t("page.admin.watch")}</a> · <a href="${links.join(id)}">${t("page.admin.join")}</a></p>
      </div>`,
      root,
    );
    return;
  }
  new AdminPage(root, signal, id, withToken(token)).start();
}

/** A reissued seat's new link, shown until the next action. */
interface Reissued {
  seat: number;
  link: string;
}

class AdminPage {
  private view: View | undefined;
  private problem: ApiProblem | undefined;
  private retrying = false;
  private reissued: Reissued | undefined;
  private done = "";
  private bot = BotStrategy.SEARCH;
  private readonly action = new Action(() => this.draw());
  private readonly log = new EventLog(() => this.view);
  private readonly clock: { resume(): void };

  constructor(
    private readonly root: HTMLElement,
    private readonly signal: AbortSignal,
    private readonly id: string,
    private readonly clients: TokenClients,
  ) {
    this.clock = redrawWhileCounting(signal, () => this.draw(), () => this.view);
  }

  start(): void {
    this.draw();
    void followGame(this.clients.referee, this.id, this.signal, {
      message: (message) => {
        this.log.add(message.version, message.events);
        if (message.view && (this.view === undefined || message.view.version >= this.view.version)) {
          this.view = message.view;
        }
        this.problem = undefined;
        this.draw();
        if (counting(this.view)) this.clock.resume();
      },
      problem: (next, again) => {
        this.problem = next;
        this.retrying = again;
        this.draw();
      },
    });
  }

  /** Run one admin call; on success say `what` and draw the table it answered with. */
  private async act(what: string, call: () => Promise<{ table?: Table } | undefined>): Promise<void> {
    this.reissued = undefined;
    this.done = "";
    const answer = await this.action.run(call);
    if (answer === undefined) return;
    this.done = what;
    if (answer.table && this.view) this.view = { ...this.view, table: answer.table };
    this.draw();
  }

  private startGame(): void {
    void this.act(t("page.admin.started"), () =>
      this.clients.lobby.startGame({ gameId: this.id, bot: this.bot }, { signal: this.signal }),
    );
  }

  private abort(): void {
    void this.act(t("page.admin.aborted"), () => this.clients.lobby.abortGame({ gameId: this.id }, { signal: this.signal }));
  }

  private forfeit(seat: number): void {
    void this.act(t("page.admin.seatForfeited", { name: seatLabel(this.view, seat) }), () =>
      this.clients.lobby.forfeitSeat({ gameId: this.id, seat }, { signal: this.signal }),
    );
  }

  private replace(seat: number): void {
    void this.act(t("page.admin.botNow", { name: seatLabel(this.view, seat) }), async () => {
      const answer = await this.clients.lobby.replaceSeatByBot(
        { gameId: this.id, seat, bot: this.bot },
        { signal: this.signal },
      );
      if (seat === mySeatOf(this.id)) forgetToken("seat", this.id); // revoked with the seat
      return answer;
    });
  }

  private reissue(seat: number): void {
    void this.act(t("page.admin.reissuedDone", { name: seatLabel(this.view, seat) }), async () => {
      const answer = await this.clients.lobby.reissueSeatToken({ gameId: this.id, seat }, { signal: this.signal });
      if (seat === mySeatOf(this.id)) keepToken("seat", this.id, answer.seatToken);
      this.reissued = { seat, link: absolute(links.seatLink(this.id, answer.seatToken)) };
      return {};
    });
  }

  private draw(): void {
    if (this.signal.aborted) return;
    const view = this.view;
    render(
      html`<div class="lobby-page admin-page">
        ${this.head(view)} ${problemBox(this.problem, retryNote(this.retrying))}
        <div class="admin-layout">
          <div class="admin-main">
            ${view ? outcomeBlock(view, html`<a href="${links.history(this.id)}">${t("page.play.history")}</a>`) : nothing}
            ${this.share()} ${this.controls(view)} ${this.table(view)}
          </div>
          ${view
            ? html`<aside class="side">
                ${seatsPanel(view, Date.now())}
                <h3>${t("page.log.title")}</h3>
                ${this.log.render()}
              </aside>`
            : nothing}
        </div>
      </div>`,
      this.root,
    );
  }

  /** The board once the game is on; before the start the deal is nobody's business yet. */
  private table(view: View | undefined): TemplateResult | typeof nothing {
    if (view === undefined) return this.problem ? nothing : html`<p class="muted">${t("page.loading")}</p>`;
    if (tableState(view) === "open") return html`<p class="muted" data-testid="admin-no-board">${t("page.admin.notDealt")}</p>`;
    return board(view);
  }

  private head(view: View | undefined): TemplateResult {
    const mine = tokenOf("seat", this.id) !== undefined;
    return html`<div class="page-head">
      <h1>${t("page.admin.title", { game: view ? gameTitle(view.game) : t("page.admin.table") })}</h1>
      ${view
        ? html`<span class="badge ${tableState(view)}" data-testid="table-status">${stateWord(tableState(view))}</span>
            <span class="to-act" data-testid="to-act">${waitingLine(view, Date.now())}</span>
            <span class="muted">${clockWords(view.table?.clock)}</span>`
        : nothing}
      ${mine
        ? html`<a class="button primary" data-testid="play-my-seat" href="${links.play(this.id)}">${t("page.lobby.playMySeat")}</a>`
        : nothing}
    </div>`;
  }

  private share(): TemplateResult {
    const code = joinCodeOf(this.id);
    const listed = this.view?.table?.listed ?? false;
    if (!code && !listed) return html``;
    return html`<section class="lobby-card share" data-testid="share">
      <h2>${t("page.admin.invite")}</h2>
      ${copyField(t("page.new.joinLink"), absolute(links.join(this.id, code || undefined)), "admin-join-link")}
      ${code ? copyField(t("page.new.joinCode"), code, "admin-join-code") : nothing}
    </section>`;
  }

  private controls(view: View | undefined): TemplateResult {
    const pick = (event: Event) => {
      this.bot = Number((event.target as HTMLSelectElement).value) as BotStrategy;
    };
    const busy = this.action.busy;
    return html`<section class="lobby-card admin-controls" data-testid="admin-controls">
      <div class="admin-row">
        <label class="field inline"
          ><span>${t("page.admin.bots")}</span>
          <select data-testid="admin-bot" @change=${pick}>
            <option value="${BotStrategy.SEARCH}">${t("page.bot.search")}</option>
            <option value="${BotStrategy.HEURISTIC}">${t("page.bot.heuristic")}</option>
            <option value="${BotStrategy.RANDOM}">${t("page.bot.random")}</option>
          </select></label
        >
        <button class="primary" data-testid="admin-start" ?disabled=${busy} @click=${() => this.startGame()}>
          ${t("page.admin.start")}
        </button>
        <button class="danger" data-testid="admin-abort" ?disabled=${busy} @click=${() => this.abort()}>
          ${t("page.admin.abort")}
        </button>
      </div>
      <ol class="admin-seats">
        ${(view?.table?.seats ?? []).map((seat) => this.seatRow(view, seat, busy))}
      </ol>
      ${this.done ? html`<p class="ok" data-testid="admin-done" role="status">${this.done}</p>` : nothing}
      ${this.reissued
        ? html`<div class="reissued" data-testid="reissued">
            <p>${t("page.admin.reissued", { name: seatLabel(view, this.reissued.seat) })}</p>
            ${copyField(t("page.admin.newLink"), this.reissued.link, "reissued-link")}
          </div>`
        : nothing}
      ${refusalBox(this.action.refused)}
    </section>`;
  }

  private seatRow(view: View | undefined, seat: TableSeat, busy: boolean): TemplateResult {
    const holder = seat.holder === SeatHolder.BOT ? "bot" : seat.holder === SeatHolder.PLAYER ? "player" : "open";
    const n = seat.seat;
    const name = holder === "open" ? t("page.seats.openNumbered", { number: n + 1 }) : seatLabel(view, n);
    return html`<li class="admin-seat" data-testid="admin-seat" data-seat="${n}" data-holder="${holder}">
      <span class="name" data-testid="admin-seat-name">${holder === "open" ? html`<em class="muted">${name}</em>` : name}</span>
      ${holder === "bot" ? html`<span class="tag">${t("page.seats.botTag")}</span>` : nothing}
      ${seat.forfeited ? html`<span class="tag forfeited">${t("page.seats.forfeited")}</span>` : nothing}
      ${n === mySeatOf(this.id) ? html`<span class="tag">${t("page.admin.you")}</span>` : nothing}
      <span class="seat-actions">
        <button data-testid="seat-forfeit" aria-label="${t("page.admin.forfeitWho", { name })}" ?disabled=${busy} @click=${() => this.forfeit(n)}>
          ${t("page.admin.forfeit")}
        </button>
        <button data-testid="seat-replace" aria-label="${t("page.admin.botWho", { name })}" ?disabled=${busy} @click=${() => this.replace(n)}>
          ${t("page.admin.botPlays")}
        </button>
        <button data-testid="seat-reissue" aria-label="${t("page.admin.reissueWho", { name })}" ?disabled=${busy} @click=${() => this.reissue(n)}>
          ${t("page.admin.reissue")}
        </button>
      </span>
    </li>`;
  }
}
