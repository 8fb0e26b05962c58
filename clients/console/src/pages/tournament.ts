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
      <strong>Table ${table.number}</strong>
      <span class="badge ${state}">${state}</span>
    </div>
    <ol class="seats" start="0">
      ${table.participants.map((participant, seat) => {
        const result = results.get(participant);
        return html`<li>
          <span class="seat-no">${seat}</span> ${who.get(participant) ?? `#${participant}`}
          ${result
            ? html`<span class="result" title="place ${result.place}, game score ${result.score}"
                >${result.place === 1 ? html`<span class="first" title="first place">★</span> ` : nothing}${points(
                  result.points,
                )} pt</span
              >`
            : nothing}
        </li>`;
      })}
    </ol>
    ${table.summary ? html`<p class="summary muted">${table.summary}</p>` : nothing}
    ${table.gameId
      ? html`<div class="table-links">
          <a data-testid="table-link" data-game-id="${table.gameId}" href="${links.game(table.gameId)}"
            >${table.finished ? "view table" : "watch live"}</a
          >
          ${table.finished ? html`<a href="${links.history(table.gameId)}">history</a>` : nothing}
        </div>`
      : nothing}
  </li>`;
}

function round(tournament: Tournament, entry: TournamentRound) {
  const who = names(tournament);
  return html`<section class="round" data-testid="round" data-round="${entry.number}">
    <h3>
      Round ${entry.number}
      <span class="badge ${entry.complete ? "finished" : "live"}">${entry.complete ? "complete" : "playing"}</span>
    </h3>
    <ul class="tables">
      ${entry.tables.map((table) => tableCard(tournament, table))}
    </ul>
    ${entry.byes.length
      ? html`<p class="muted byes">Bye: ${entry.byes.map((index) => who.get(index) ?? `#${index}`).join(", ")}</p>`
      : nothing}
  </section>`;
}

function view(tournament: Tournament) {
  const status = statusName(tournament.status);
  const rounds = [...tournament.roundResults].reverse();
  return html`<div class="page-head">
      <h1>${gameTitle(tournament.game)} tournament</h1>
      <span class="badge ${status}" data-testid="tournament-status"
        >${statusLine(tournament.status, tournament.currentRound, tournament.rounds)}</span
      >
      <span class="muted">version <span data-testid="tournament-version">${String(tournament.version)}</span></span>
      ${tokenOf("tournament-admin", tournament.tournamentId) !== undefined
        ? html`<a data-testid="tournament-admin-link" href="${links.tournamentAdmin(tournament.tournamentId)}">admin</a>`
        : nothing}
    </div>
    <p class="facts muted">
      ${formatName(tournament.format)} · ${tournament.participants.length} participants · up to
      ${tournament.seatsPerTable} per table${tournament.botMoveDelayMs
        ? ` · bots pause ${tournament.botMoveDelayMs} ms`
        : ""}
      · id <code>${tournament.tournamentId}</code> · seed sha256
      <code class="hash" title="${tournament.seedSha256}">${tournament.seedSha256.slice(0, 16)}…</code>
    </p>
    <div class="tournament-body">
      <div class="standings-pane">${standingsTable(tournament)}</div>
      <div class="rounds-pane">
        ${rounds.length ? rounds.map((entry) => round(tournament, entry)) : html`<p class="muted">Not started yet.</p>`}
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
      ${tournament ? view(tournament) : problem ? nothing : html`<p class="muted">Loading…</p>`}`,
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
