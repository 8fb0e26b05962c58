/**
 * Small pieces shared by the pages: problems, formatting, links.
 */
import { BotStrategy, TournamentFormat, TournamentStatus, type Rating } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import type { ApiProblem } from "./api.js";

/** An API failure as a readable block: code, reason, message. */
export function problemBox(problem: ApiProblem | undefined, note = ""): TemplateResult | typeof nothing {
  if (problem === undefined) return nothing;
  return html`<div class="problem" data-testid="problem" role="alert">
    <strong>${problem.code}${problem.reason ? html` · <code>${problem.reason}</code>` : nothing}</strong>
    <span>${problem.message}</span>
    ${note ? html`<em>${note}</em>` : nothing}
  </div>`;
}

/** The note under a stream problem: whether we are reconnecting. */
export function retryNote(retrying: boolean): string {
  return retrying ? "reconnecting…" : "";
}

/**
 * The note under a game call's problem: a game without spectators refuses a caller with
 * no token, and the console never has one.
 */
export function gameProblemNote(problem: ApiProblem | undefined, retrying = false): string {
  if (problem?.code === "permission_denied" || problem?.code === "unauthenticated") {
    return "This game does not admit spectators, and the console only ever watches as one.";
  }
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
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** A rating's ordinal, with mu and sigma beside it. */
export function rating(value: Rating | undefined): TemplateResult {
  if (value === undefined) return html`<span class="muted">–</span>`;
  return html`<span class="rating" title="ordinal = mu − 3·sigma"
    ><strong>${value.ordinal.toFixed(2)}</strong>
    <span class="muted">μ ${value.mu.toFixed(2)} · σ ${value.sigma.toFixed(2)}</span></span
  >`;
}

export function statusName(status: TournamentStatus): string {
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
      return "round robin";
    case TournamentFormat.SWISS:
      return "Swiss";
    default:
      return "unspecified format";
  }
}

/** "running, round 2 of 3", "created, 3 rounds", "finished, 3 rounds". */
export function statusLine(status: TournamentStatus, currentRound: number, rounds: number): string {
  const name = statusName(status);
  if (status === TournamentStatus.RUNNING) return `${name}, round ${currentRound} of ${rounds}`;
  return `${name}, ${rounds} round${rounds === 1 ? "" : "s"}`;
}

/** Bytes as lowercase hex. */
export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** "seat 2", or the name of who sits there when we know it. */
export function seatName(seat: number, names?: readonly string[]): string {
  const name = names?.[seat];
  return name ? `${name} (seat ${seat})` : `seat ${seat}`;
}

/** "random bot", "heuristic bot", or "" for an external participant. */
export function botName(bot: BotStrategy): string {
  switch (bot) {
    case BotStrategy.RANDOM:
      return "random bot";
    case BotStrategy.HEURISTIC:
      return "heuristic bot";
    default:
      return "";
  }
}
