/**
 * `#/tournament/<id>`: one tournament, live from WatchTournament: status, standings with
 * ratings, and every round's tables with links to watch them.
 */
import type { Tournament, TournamentRound, TournamentTable } from "@referee/client/web";
import { html, nothing, render } from "lit-html";

import { tournaments as api, type ApiProblem } from "../api.js";
import { followTournament } from "../follow.js";
import { gameTitle } from "../games/index.js";
import { standingsTable } from "../standings.js";
import { tokenOf } from "../tokens.js";
import { t } from "../i18n/index.js";
import { formatName, links, points, problemBox, retryNote, statusLine, statusName } from "../ui.js";

function names(tournament: Tournament): Map<number, string> {
  return new Map(tournament.participants.map((participant) => [participant.index, participant.name]));
}

function tableCard(tournament: Tournament, table: TournamentTable) {
  const who = names(tournament);
  const results = new Map(table.results.map((result) => [result.participant, result]));
  const state = table.finished ? "finished" : table.gameId ? "live" : "waiting";
  return html`<li class="table-card ${state}" data-testid="round-table" data-state="${state}">
    <div class="headline">
      <strong>${t("page.tournament.table", { number: table.number })}</strong>
      <span class="badge ${state}">${t(`page.state.${state}`)}</span>
    </div>
    <ol class="seats">
      ${table.participants.map((participant) => {
        const result = results.get(participant);
        return html`<li>
          ${who.get(participant) ?? t("page.tournament.participant", { number: participant + 1 })}
          ${result
            ? html`<span class="result" title="${t("page.tournament.resultHint", { place: result.place, score: result.score })}"
                >${result.place === 1 ? html`<span class="first">★ ${t("page.tournament.firstPlace")}</span> ` : nothing}${t(
                  "page.tournament.points",
                  { points: points(result.points) },
                )}</span
              >`
            : nothing}
        </li>`;
      })}
    </ol>
    ${table.summary ? html`<p class="summary muted">${table.summary}</p>` : nothing}
    ${table.gameId
      ? html`<div class="table-links">
          <a data-testid="table-link" data-game-id="${table.gameId}" href="${links.game(table.gameId)}"
            >${t(table.finished ? "page.tournament.viewTable" : "page.tournament.watchLive")}</a
          >
          ${table.finished ? html`<a href="${links.history(table.gameId)}">${t("page.game.historyShort")}</a>` : nothing}
        </div>`
      : nothing}
  </li>`;
}

function round(tournament: Tournament, entry: TournamentRound) {
  const who = names(tournament);
  return html`<section class="round" data-testid="round" data-round="${entry.number}">
    <h3>
      ${t("page.tournament.round", { number: entry.number })}
      <span class="badge ${entry.complete ? "finished" : "live"}">${t(entry.complete ? "page.tournament.complete" : "page.tournament.playing")}</span>
    </h3>
    <ul class="tables">
      ${entry.tables.map((table) => tableCard(tournament, table))}
    </ul>
    ${entry.byes.length
      ? html`<p class="muted byes">
          ${t("page.tournament.bye", {
            names: entry.byes.map((index) => who.get(index) ?? t("page.tournament.participant", { number: index + 1 })).join(", "),
          })}
        </p>`
      : nothing}
  </section>`;
}

function view(tournament: Tournament) {
  const status = statusName(tournament.status);
  const rounds = [...tournament.roundResults].reverse();
  return html`<div class="page-head">
      <h1>${t("page.tournament.title", { game: gameTitle(tournament.game) })}</h1>
      <span class="badge ${status}" data-testid="tournament-status"
        >${statusLine(tournament.status, tournament.currentRound, tournament.rounds)}</span
      >
      <span class="muted dev-detail"
        >${t("common.version", { version: "" })}<span data-testid="tournament-version">${String(tournament.version)}</span></span
      >
      ${tokenOf("tournament-admin", tournament.tournamentId) !== undefined
        ? html`<a data-testid="tournament-admin-link" href="${links.tournamentAdmin(tournament.tournamentId)}"
            >${t("page.tournament.adminLink")}</a
          >`
        : nothing}
    </div>
    <p class="facts muted">
      ${formatName(tournament.format)} · ${t("page.tournament.participants", { count: tournament.participants.length })} ·
      ${t("page.tournament.upTo", { count: tournament.seatsPerTable })}${tournament.botMoveDelayMs
        ? ` · ${t("page.tournament.botPause", { ms: tournament.botMoveDelayMs })}`
        : ""}
      <span class="dev-detail"
        >· id <code>${tournament.tournamentId}</code> · seed sha256
        <code class="hash" title="${tournament.seedSha256}">${tournament.seedSha256.slice(0, 16)}…</code></span
      >
    </p>
    <div class="tournament-body">
      <div class="standings-pane" tabindex="0" role="region" aria-label="${t("page.standings.title")}">
        ${standingsTable(tournament)}
      </div>
      <div class="rounds-pane">
        ${rounds.length ? rounds.map((entry) => round(tournament, entry)) : html`<p class="muted">${t("page.tournament.notStarted")}</p>`}
      </div>
    </div>`;
}

export function mountTournament(root: HTMLElement, signal: AbortSignal, id: string): void {
  let tournament: Tournament | undefined;
  let problem: ApiProblem | undefined;
  let retrying = false;

  const draw = () =>
    render(
      html`${problemBox(problem, retryNote(retrying))}
      ${tournament ? view(tournament) : problem ? nothing : html`<p class="muted">${t("page.loading")}</p>`}`,
      root,
    );

  draw();
  void followTournament(api, id, signal, {
    message: (message) => {
      if (message.tournament) tournament = message.tournament;
      problem = undefined;
      draw();
    },
    problem: (next, again) => {
      problem = next;
      retrying = again;
      draw();
    },
  });
}
