/**
 * `#/`: every tournament the referee holds, running ones first, polled every 2 s, and a
 * form to open any game by its id.
 */
import { TournamentStatus, type Tournament } from "@referee/client/web";
import { html, nothing, render } from "lit-html";

import { isAbort, problemOf, tournaments as api, type ApiProblem } from "../api.js";
import { gameTitle } from "../games/index.js";
import { standingsSummary } from "../standings.js";
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
        ${formatName(tournament.format)} · ${tournament.participants.length} participants ·
        ${tournament.seatsPerTable} per table · <code>${id}</code>
      </p>
      ${standingsSummary(tournament)}
    </a>
  </li>`;
}

function openGameForm() {
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const id = new FormData(form).get("game-id")?.toString().trim();
    if (id) location.hash = links.game(id);
  };
  return html`<form class="open-game" data-testid="open-game" @submit=${submit}>
    <label for="game-id">Open a game by id</label>
    <input id="game-id" name="game-id" data-testid="open-game-id" placeholder="game id" autocomplete="off" />
    <button type="submit">Open</button>
  </form>`;
}

export function mountTournaments(root: HTMLElement, signal: AbortSignal): void {
  let list: Tournament[] | undefined;
  let problem: ApiProblem | undefined;

  const draw = () =>
    render(
      html`<div class="page-head">
          <h1>Tournaments</h1>
          ${openGameForm()}
        </div>
        ${problemBox(problem, problem && !problem.permanent ? "retrying…" : "")}
        <ul class="tournament-list" data-testid="tournament-list">
          ${list === undefined
            ? html`<li class="muted">${problem ? nothing : "Loading…"}</li>`
            : list.length === 0
              ? html`<li class="muted empty">No tournaments yet.</li>`
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
