/**
 * The tournaments (on the front page and at `#/tournaments`): every tournament the referee
 * holds, running ones first, polled every 2 s.
 */
import { TournamentStatus, type Tournament } from "@referee/client/web";
import { html, nothing, render } from "lit-html";

import { isAbort, problemOf, tournaments as api, type ApiProblem } from "../api.js";
import { gameTitle } from "../games/index.js";
import { standingsSummary } from "../standings.js";
import { t } from "../i18n/index.js";
import { formatName, links, problemBox, statusLine, statusName } from "../ui.js";

const POLL_MS = 2000;

/** Running first, then created, then finished; newest first within each (the API order). */
const ORDER: Record<number, number> = {
  [TournamentStatus.RUNNING]: 0,
  [TournamentStatus.CREATED]: 1,
  [TournamentStatus.FINISHED]: 2,
};

function ordered(list: Tournament[]): Tournament[] {
  return list
    .map((tournament, position) => ({ tournament, position }))
    .sort((a, b) => (ORDER[a.tournament.status] ?? 3) - (ORDER[b.tournament.status] ?? 3) || a.position - b.position)
    .map(({ tournament }) => tournament);
}

function row(tournament: Tournament) {
  const id = tournament.tournamentId;
  const status = statusName(tournament.status);
  return html`<li class="tournament-card status-${status}" data-testid="tournament-row" data-tournament-id="${id}">
    <a class="card-link" href="${links.tournament(id)}">
      <div class="headline">
        <h3>${gameTitle(tournament.game)}</h3>
        <span class="badge ${status}" data-testid="tournament-row-status"
          >${statusLine(tournament.status, tournament.currentRound, tournament.rounds)}</span
        >
      </div>
      <p class="facts muted">
        ${formatName(tournament.format)} · ${t("page.tournament.participants", { count: tournament.participants.length })} ·
        ${t("page.tournament.perTable", { count: tournament.seatsPerTable })} <code class="dev-detail">${id}</code>
      </p>
      ${standingsSummary(tournament)}
    </a>
  </li>`;
}

export function mountTournaments(root: HTMLElement, signal: AbortSignal): void {
  let list: Tournament[] | undefined;
  let problem: ApiProblem | undefined;

  const draw = () =>
    render(
      html`<div class="page-head">
          <h1>${t("common.tournaments")}</h1>
        </div>
        ${problemBox(problem, problem && !problem.permanent ? t("error.retrying") : "")}
        <ul class="tournament-list" data-testid="tournament-list">
          ${list === undefined
            ? html`<li class="muted">${problem ? nothing : t("page.loading")}</li>`
            : list.length === 0
              ? html`<li class="muted empty">${t("page.tournament.none")}</li>`
              : ordered(list).map(row)}
        </ul>`,
      root,
    );

  const poll = async () => {
    while (!signal.aborted) {
      try {
        list = (await api.listTournaments({ limit: 50 }, { signal })).tournaments;
        problem = undefined;
      } catch (error) {
        if (isAbort(error, signal)) return;
        problem = problemOf(error);
      }
      draw();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };
  draw();
  void poll();
}
