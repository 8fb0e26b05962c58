/**
 * Small pieces shared by the pages: problems, formatting, links.
 */
import { BotStrategy, TournamentFormat, TournamentStatus, type Rating } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import type { ApiProblem } from "./api.js";
import { num, t } from "./i18n/index.js";
import { problemWords } from "./pages/refusals.js";

/**
 * An API failure as a readable block: what happened and what to do next, in words (one
 * table of sentences, pages/refusals.ts); the status code, the reason and the referee's
 * own message only behind the details toggle. `note` says what the page does about it
 * ("Retrying…").
 */
export function problemBox(problem: ApiProblem | undefined, note = ""): TemplateResult | typeof nothing {
  if (problem === undefined) return nothing;
  return html`<div class="problem" data-testid="problem" data-reason="${problem.reason}" data-code="${problem.code}" role="alert">
    <strong>${problemWords(problem)}</strong>
    ${note ? html`<em>${note}</em>` : nothing} ${problemDetail(problem)}
  </div>`;
}

/** The code, reason and message of `problem`, for developers (hidden unless Details is on). */
export function problemDetail(problem: ApiProblem): TemplateResult {
  return html`<small class="dev-detail muted"
    ><code>${problem.code}${problem.reason ? ` · ${problem.reason}` : ""}</code> ${problem.message}</small
  >`;
}

/** The note under a stream problem: whether we are trying again. */
export function retryNote(retrying: boolean): string {
  return retrying ? t("error.retrying") : "";
}

/** The note under a game call's problem (the sentence already says what there is to say). */
export function gameProblemNote(_problem: ApiProblem | undefined, retrying = false): string {
  return retryNote(retrying);
}

/** `#/game/<id>` and friends, with the id escaped. */
const at = (...parts: string[]): string => `#/${parts.map(encodeURIComponent).join("/")}`;

/** The console's routes (router.ts), built. */
export const links = {
  home: () => "#/",
  newTable: () => "#/new",
  join: (id: string, code?: string) => (code ? at("join", id, code) : at("join", id)),
  play: (id: string) => at("play", id),
  /** A seat link: opening it (on another device, say) plays the seat. Keep it secret. */
  seatLink: (id: string, token: string) => at("play", id, token),
  tableAdmin: (id: string) => at("table", id, "admin"),
  tournaments: () => "#/tournaments",
  newTournament: () => "#/tournaments/new",
  tournament: (id: string) => at("tournament", id),
  tournamentAdmin: (id: string) => at("tournament", id, "admin"),
  claim: (id: string, code?: string) => (code ? at("claim", id, code) : at("claim", id)),
  game: (id: string) => at("game", id),
  history: (id: string) => at("game", id, "history"),
};

/** Points as standings show them: whole numbers plain, halves with one decimal. */
export function points(value: number): string {
  return Number.isInteger(value) ? num(value) : num(Number(value.toFixed(1)));
}

/** A rating's ordinal, with mu and sigma beside it. */
export function rating(value: Rating | undefined): TemplateResult {
  if (value === undefined) return html`<span class="muted">–</span>`;
  return html`<span class="rating" title="${t("page.rating.hint")}"
    ><strong>${value.ordinal.toFixed(2)}</strong>
    <span class="muted">μ ${value.mu.toFixed(2)} · σ ${value.sigma.toFixed(2)}</span></span
  >`;
}

/** A tournament status as a word; the badge's class uses `statusName`. */
export function statusName(status: TournamentStatus): "created" | "running" | "finished" | "unknown" {
  switch (status) {
    case TournamentStatus.CREATED:
      return "created";
    case TournamentStatus.RUNNING:
      return "running";
    case TournamentStatus.FINISHED:
      return "finished";
    default:
      return "unknown";
  }
}

export function formatName(format: TournamentFormat): string {
  switch (format) {
    case TournamentFormat.ROUND_ROBIN:
      return t("page.format.roundRobin");
    case TournamentFormat.SWISS:
      return t("page.format.swiss");
    default:
      return t("page.format.unspecified");
  }
}

/** "running, round 2 of 3", "created, 3 rounds", "finished, 3 rounds". */
export function statusLine(status: TournamentStatus, currentRound: number, rounds: number): string {
  const name = t(`page.status.${statusName(status)}`);
  if (status === TournamentStatus.RUNNING) return t("page.status.roundOf", { status: name, round: currentRound, rounds });
  return t(rounds === 1 ? "page.status.oneRound" : "page.status.rounds", { status: name, rounds });
}

/** Bytes as lowercase hex. */
export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** "random bot", "heuristic bot", "search bot", or "" for an external participant. */
export function botName(bot: BotStrategy): string {
  switch (bot) {
    case BotStrategy.RANDOM:
      return t("page.bot.random");
    case BotStrategy.HEURISTIC:
      return t("page.bot.heuristic");
    case BotStrategy.SEARCH:
      return t("page.bot.search");
    default:
      return "";
  }
}
