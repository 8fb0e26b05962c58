/**
 * `#/claim/<id>[/<code>]`: a participant redeems its one-time seat code (ClaimSeat, no
 * token) and keeps the participant token in this tab's session storage; the code leaves
 * the address bar at once. Then "your games": the tournament followed with that token
 * (WatchTournament gives the participant's seat tokens for its tables), each live table
 * with a Play button that keeps the seat token (`seat`) and opens `#/play/<game>`. When the
 * next round's table appears while this view is open, it opens by itself.
 */
import { TournamentStatus, type Tournament, type TournamentTable } from "@referee/client/web";
import { html, nothing, render, type TemplateResult } from "lit-html";

import { problemOf, tournaments as api, withToken, type ApiProblem, type TokenClients } from "../api.js";
import { followTournament } from "../follow.js";
import { hideSecret, keepToken, tokenOf } from "../tokens.js";
import { t } from "../i18n/index.js";
import { links, points, problemDetail } from "../ui.js";
import { problemWords } from "./refusals.js";
import { tournamentFrame } from "./tournament_frame.js";

/** What the claim form holds while the participant fills it in. */
interface Claiming {
  code: string;
  name: string;
  sending: boolean;
  problem?: ApiProblem;
}

export function mountClaim(root: HTMLElement, signal: AbortSignal, id: string, routeCode: string): void {
  if (routeCode) hideSecret(links.claim(id));
  const token = tokenOf("participant", id);
  if (token !== undefined) {
    new GamesView(root, signal, id, withToken(token)).start();
    return;
  }
  const state: Claiming = { code: routeCode, name: "", sending: false };
  const draw = (): void => {
    if (!signal.aborted) render(claimForm(state, submit), root);
  };
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (state.sending) return;
    state.sending = true;
    state.problem = undefined;
    draw();
    try {
      const claimed = await api.claimSeat({ code: state.code, displayName: state.name.trim() }, { signal });
      keepToken("participant", claimed.tournamentId, claimed.participantToken);
      if (claimed.tournamentId !== id) {
        location.hash = links.claim(claimed.tournamentId);
        return;
      }
      new GamesView(root, signal, id, withToken(claimed.participantToken)).start();
      return;
    } catch (error) {
      if (signal.aborted) return;
      state.problem = problemOf(error);
    }
    state.sending = false;
    draw();
  };
  draw();
}

function claimForm(state: Claiming, submit: (event: Event) => void): TemplateResult {
  const problem = state.problem;
  return html`<div class="tadmin">
    <div class="page-head"><h1>${t("page.claim.title")}</h1></div>
    <form class="tadmin-form" data-testid="claim-form" @submit=${submit}>
      <fieldset>
        <legend>${t("page.claim.legend")}</legend>
        <label
          >${t("page.claim.code")}
          <input
            data-testid="claim-code"
            autocomplete="off"
            required
            .value=${state.code}
            @input=${(e: Event) => (state.code = (e.target as HTMLInputElement).value)}
        /></label>
        <label
          >${t("page.claim.name")}
          <input
            data-testid="claim-name"
            maxlength="64"
            .value=${state.name}
            @input=${(e: Event) => (state.name = (e.target as HTMLInputElement).value)}
        /></label>
      </fieldset>
      <div class="tadmin-actions">
        <button type="submit" class="primary" data-testid="claim-submit" ?disabled=${state.sending}>
          ${t(state.sending ? "page.claim.claiming" : "page.claim.claim")}
        </button>
      </div>
    </form>
    ${problem
      ? html`<div class="refusal problem" data-testid="claim-refusal" data-reason=${problem.reason} role="alert">
          <strong>${problemWords(problem)}</strong> ${problemDetail(problem)}
        </div>`
      : nothing}
  </div>`;
}

/** One of the participant's tables, with its seat token. */
interface Mine {
  round: number;
  table: TournamentTable;
  seat: number;
  token: string;
}

function mine(tour: Tournament): Mine[] {
  return tour.roundResults.flatMap((entry) =>
    entry.tables.flatMap((table) =>
      table.seatTokens.map((seat) => ({ round: entry.number, table, seat: seat.seat, token: seat.token })),
    ),
  );
}

class GamesView {
  private tournament: Tournament | undefined;
  private problem: ApiProblem | undefined;
  private retrying = false;
  /** Live tables seen at the last snapshot: one that is new there opens by itself. */
  private live: Set<string> | undefined;

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
        if (message.tournament) this.see(message.tournament);
        this.problem = undefined;
        this.draw();
      },
      problem: (next, again) => {
        this.problem = next;
        this.retrying = again;
        this.draw();
      },
    });
  }

  private see(tour: Tournament): void {
    this.tournament = tour;
    const live = mine(tour).filter((entry) => !entry.table.finished);
    const before = this.live;
    this.live = new Set(live.map((entry) => entry.table.gameId));
    const next = before === undefined ? undefined : live.find((entry) => !before.has(entry.table.gameId));
    if (next !== undefined) this.play(next); // the next round's table, while we were here
  }

  private play(entry: Mine): void {
    keepToken("seat", entry.table.gameId, entry.token);
    location.hash = links.play(entry.table.gameId);
  }

  private draw(): void {
    if (this.signal.aborted) return;
    const { id, tournament, problem, retrying } = this;
    const frame = { id, tournament, problem, retrying, heading: t("page.claim.heading"), statusId: "claim-status" };
    render(tournamentFrame(frame, (tour) => this.body(tour)), this.root);
  }

  private body(tour: Tournament): TemplateResult {
    const entries = mine(tour);
    const me = tour.participants.find((p) => p.claimed);
    return html`<p data-testid="claim-you">${t("page.claim.you", { name: me?.name ?? t("page.claim.someone") })}</p>
      ${entries.length
        ? html`<ul class="tadmin-tables" data-testid="my-tables">
            ${[...entries].reverse().map((entry) => this.card(entry))}
          </ul>`
        : html`<p class="muted" data-testid="no-tables">
            ${tour.status === TournamentStatus.CREATED
              ? t("page.claim.notStarted")
              : t("page.claim.noTable")}
          </p>`}`;
  }

  private card(entry: Mine): TemplateResult {
    const { table } = entry;
    const state = table.finished ? "finished" : "live";
    const result = table.results.find((r) => r.seat === entry.seat);
    return html`<li class="table-card ${state}" data-testid="my-table" data-game-id=${table.gameId} data-state=${state}>
      <div class="headline">
        <strong>${t("page.claim.table", { round: entry.round, number: table.number })}</strong>
        <span class="badge ${state}">${t(`page.state.${state}`)}</span>
      </div>
      ${result
        ? html`<p class="muted">${t("page.claim.result", { place: result.place, points: points(result.points) })}</p>`
        : nothing}
      <div class="tadmin-actions">
        ${table.finished
          ? html`<a class="button" href=${links.history(table.gameId)}>${t("page.game.historyShort")}</a>`
          : html`<button type="button" class="primary" data-testid="play-table" @click=${() => this.play(entry)}>
              ${t("page.claim.play")}
            </button>`}
      </div>
    </li>`;
  }
}
