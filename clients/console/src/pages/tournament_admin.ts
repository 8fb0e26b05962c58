/**
 * `#/tournament/<id>/admin`: a tournament's admin page, with the admin token this tab kept
 * when it created the tournament. It starts the tournament (StartTournament), follows it
 * (WatchTournament with the admin token: whether and when each participant claimed its
 * seat), and at a live table forfeits an external participant's seat or hands it to the
 * referee's bot (ForfeitTableSeat, ReplaceTableSeatByBot). The page judges none of it: it
 * offers the actions and shows the referee's refusal in words.
 *
 * Creating a tournament and redeeming a seat code are their own modules, re-exported here.
 */
import {
  SeatHolder,
  TournamentStatus,
  type Table,
  type Tournament,
  type TournamentParticipant,
  type TournamentTable,
} from "@referee/client/web";
import { html, nothing, render, type TemplateResult } from "lit-html";

import { isAbort, problemOf, referee, withToken, type ApiProblem, type TokenClients } from "../api.js";
import { followTournament } from "../follow.js";
import { tokenOf } from "../tokens.js";
import { lang, t } from "../i18n/index.js";
import { botName, links, problemBox, problemDetail } from "../ui.js";
import { problemWords } from "./refusals.js";
import { tournamentFrame } from "./tournament_frame.js";

export { mountNewTournament } from "./tournament_new.js";
export { mountClaim } from "./tournament_claim.js";

type Action = "forfeit" | "bot";

interface Refusal {
  where: string;
  problem: ApiProblem;
}

export function mountTournamentAdmin(root: HTMLElement, signal: AbortSignal, id: string): void {
  const token = tokenOf("tournament-admin", id);
  if (token === undefined) {
    render(
      html`<div class="tadmin">
        <div class="page-head"><h1>${t("page.tadmin.noTokenTitle")}</h1></div>
        <p data-testid="no-admin-token">${t("page.tadmin.noToken")} <code class="dev-detail">${id}</code></p>
        <p><a href=${links.tournament(id)}>${t("page.tadmin.watch")}</a></p>
      </div>`,
      root,
    );
    return;
  }
  new AdminPage(root, signal, id, withToken(token)).start();
}

class AdminPage {
  private tournament: Tournament | undefined;
  private problem: ApiProblem | undefined;
  private retrying = false;
  private starting = false;
  private startProblem: ApiProblem | undefined;
  /** The table as last seen (a spectator view, or an action's answer), by game id. */
  private readonly tables = new Map<string, Table>();
  private readonly asked = new Set<string>();
  private busy = "";
  private refusal: Refusal | undefined;
  private done: string | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly signal: AbortSignal,
    private readonly id: string,
    private readonly clients: TokenClients,
  ) {}

  start(): void {
    this.draw();
    void followTournament(this.clients.tournaments, this.id, this.signal, {
      message: (message) => {
        if (message.tournament) this.tournament = message.tournament;
        this.problem = undefined;
        this.lookAtTables();
        this.draw();
      },
      problem: (next, again) => {
        this.problem = next;
        this.retrying = again;
        this.draw();
      },
    });
  }

  /** The seats of each live table we have not seen yet, from its public view. */
  private lookAtTables(): void {
    for (const table of liveTables(this.tournament)) {
      if (this.asked.has(table.gameId)) continue;
      this.asked.add(table.gameId);
      void this.look(table.gameId);
    }
  }

  private async look(gameId: string): Promise<void> {
    try {
      const answer = await referee.getView({ gameId }, { signal: this.signal });
      if (answer.view?.table && !this.tables.has(gameId)) this.tables.set(gameId, answer.view.table);
      this.draw();
    } catch (error) {
      if (!isAbort(error, this.signal)) this.asked.delete(gameId); // looked at again next time
    }
  }

  private async startTournament(): Promise<void> {
    this.starting = true;
    this.startProblem = undefined;
    this.draw();
    try {
      const answer = await this.clients.tournaments.startTournament({ tournamentId: this.id }, { signal: this.signal });
      if (answer.tournament && (this.tournament === undefined || answer.tournament.version > this.tournament.version)) {
        this.tournament = answer.tournament;
      }
    } catch (error) {
      if (isAbort(error, this.signal)) return;
      this.startProblem = problemOf(error);
    }
    this.starting = false;
    this.lookAtTables();
    this.draw();
  }

  private async act(action: Action, gameId: string, seat: number, who: string): Promise<void> {
    if (this.busy) return;
    this.busy = `${gameId}/${seat}`;
    this.refusal = undefined;
    this.done = undefined;
    this.draw();
    const request = { tournamentId: this.id, gameId, seat };
    try {
      const answer =
        action === "forfeit"
          ? await this.clients.tournaments.forfeitTableSeat(request, { signal: this.signal })
          : await this.clients.tournaments.replaceTableSeatByBot(request, { signal: this.signal });
      if (answer.table) this.tables.set(gameId, answer.table);
      this.done = t(action === "forfeit" ? "page.tadmin.forfeited" : "page.tadmin.botPlays", { name: who });
    } catch (error) {
      if (isAbort(error, this.signal)) return;
      this.refusal = { where: `${gameId}/${seat}`, problem: problemOf(error) };
    }
    this.busy = "";
    this.draw();
  }

  private draw(): void {
    if (this.signal.aborted) return;
    const { id, tournament, problem, retrying } = this;
    const frame = { id, tournament, problem, retrying, heading: t("page.tadmin.heading"), statusId: "admin-status" };
    render(tournamentFrame(frame, (tour) => this.body(tour)), this.root);
  }

  private body(tour: Tournament): TemplateResult {
    return html`${tour.status === TournamentStatus.CREATED
        ? html`<div class="tadmin-actions">
            <button
              type="button"
              class="primary"
              data-testid="start-tournament"
              ?disabled=${this.starting}
              @click=${() => void this.startTournament()}
            >
              ${t(this.starting ? "page.tadmin.starting" : "page.tadmin.start")}
            </button>
          </div>`
        : nothing}
      ${problemBox(this.startProblem)}
      <div class="tadmin-body">
        <section class="tadmin-panel">
          <h2>${t("page.tadmin.participants")}</h2>
          <ul class="tadmin-people" data-testid="admin-participants">
            ${tour.participants.map((p) => participantRow(p))}
          </ul>
        </section>
        <section class="tadmin-panel">
          <h2>${t("page.tadmin.liveTables")}</h2>
          ${this.outcomeLine()}
          ${liveTables(tour).length
            ? html`<ul class="tadmin-tables">
                ${liveTables(tour).map((table) => this.tableCard(tour, table))}
              </ul>`
            : html`<p class="muted" data-testid="no-live-tables">${t("page.tadmin.noLiveTables")}</p>`}
        </section>
      </div>`;
  }

  private outcomeLine(): TemplateResult | typeof nothing {
    if (this.refusal) {
      const problem = this.refusal.problem;
      return html`<div class="refusal problem" data-testid="admin-refusal" data-reason=${problem.reason} role="alert">
        <strong>${problemWords(problem)}</strong> ${problemDetail(problem)}
      </div>`;
    }
    return this.done ? html`<p class="tadmin-done" data-testid="admin-done" role="status">${this.done}</p>` : nothing;
  }

  private tableCard(tour: Tournament, table: TournamentTable): TemplateResult {
    const seen = this.tables.get(table.gameId);
    return html`<li class="table-card live" data-testid="admin-table" data-game-id=${table.gameId}>
      <div class="headline">
        <strong>${t("page.claim.tableOnly", { round: tour.currentRound, number: table.number })}</strong>
        <a href=${links.game(table.gameId)}>${t("page.tadmin.watchTable")}</a>
      </div>
      <ol class="tadmin-seats">
        ${table.participants.map((index, seat) => {
          const who = tour.participants[index];
          const name = who?.name ?? t("page.tournament.participant", { number: index + 1 });
          const shown = seen?.seats[seat];
          const marks = [
            shown?.forfeited ? t("page.seats.forfeited") : "",
            shown?.holder === SeatHolder.BOT && who && !who.bot ? t("page.tadmin.botPlaysIt") : "",
          ].filter(Boolean);
          const key = `${table.gameId}/${seat}`;
          return html`<li data-testid="admin-seat" data-seat=${seat} data-participant=${index}>
            <span class="tadmin-name">${name}</span>
            ${who?.bot ? html`<span class="tag">${botName(who.bot)}</span>` : nothing}
            ${marks.map((mark) => html`<span class="tag" data-testid="admin-seat-mark">${mark}</span>`)}
            ${who && !who.bot
              ? html`<span class="tadmin-seat-actions">
                  <button
                    type="button"
                    data-testid="forfeit-seat"
                    ?disabled=${this.busy === key}
                    aria-label="${t("page.tadmin.forfeitWho", { name })}"
                    @click=${() => void this.act("forfeit", table.gameId, seat, name)}
                  >
                    ${t("page.admin.forfeit")}
                  </button>
                  <button
                    type="button"
                    data-testid="bot-seat"
                    ?disabled=${this.busy === key}
                    aria-label="${t("page.tadmin.botWho", { name })}"
                    @click=${() => void this.act("bot", table.gameId, seat, name)}
                  >
                    ${t("page.tadmin.handToBot")}
                  </button>
                </span>`
              : nothing}
          </li>`;
        })}
      </ol>
    </li>`;
  }
}

function liveTables(tour: Tournament | undefined): TournamentTable[] {
  const current = tour?.roundResults[tour.roundResults.length - 1];
  return current ? current.tables.filter((table) => table.gameId && !table.finished) : [];
}

function participantRow(p: TournamentParticipant): TemplateResult {
  const when = p.claimedAtUnixMs ? new Date(Number(p.claimedAtUnixMs)).toLocaleTimeString(lang()) : "";
  return html`<li data-testid="admin-participant" data-participant=${p.index} data-claimed=${p.bot ? "bot" : String(p.claimed)}>
    <span class="tadmin-name">${p.name}</span>
    ${p.bot
      ? html`<span class="tag">${botName(p.bot)}</span>`
      : p.claimed
        ? html`<span class="badge finished" data-testid="claimed">${t("page.tadmin.claimed", { time: when })}</span>`
        : html`<span class="badge waiting" data-testid="unclaimed">${t("page.tadmin.unclaimed")}</span>`}
  </li>`;
}
