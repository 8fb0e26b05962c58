/**
 * A refused call in words. The referee's message already says what was wrong in the
 * game's terms ("that chip is already held"); for the refusals of the table rather than
 * the rules, a sentence says what the player can do about it.
 */
import type { ApiProblem } from "../api.js";

const WORDS: Record<string, string> = {
  NOT_YOUR_TURN: "It is not your turn.",
  NOT_TO_ACT: "The table is not waiting on you.",
  GAME_OVER: "The game is over.",
  GAME_ABORTED: "The table admin aborted this game: no more moves.",
  GAME_NOT_STARTED: "The game has not started yet: it starts when every seat is taken and the admin starts it.",
  SEAT_FORFEITED: "This seat was forfeited: the clock plays it now.",
  SEAT_NOT_YOURS: "This seat is not yours any more.",
  TOKEN_REVOKED: "This seat's token was reissued or handed to a bot: this page no longer plays it.",
  MOVE_LIMIT_REACHED: "The table reached its move limit.",
  VERSION_CONFLICT: "The table moved on before your move arrived: look again.",
};

function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return "";
  const first = trimmed[0]?.toUpperCase() ?? "";
  const rest = trimmed.slice(1);
  return /[.!?]$/.test(trimmed) ? first + rest : `${first}${rest}.`;
}

/** What to tell the player about `problem`. */
export function refusalWords(problem: ApiProblem): string {
  const known = WORDS[problem.reason];
  const said = sentence(problem.message);
  if (known === undefined) return said || `Refused (${problem.code}).`;
  return said && !said.toLowerCase().startsWith(known.toLowerCase().slice(0, 12)) ? `${known} ${said}` : known;
}
