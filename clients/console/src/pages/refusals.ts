/**
 * Every error a page can meet, in words, with what to do next: ONE table of sentences
 * (the catalogue's errors part, i18n/parts/errors.ts), keyed by the referee's stable reason
 * and else by the status code. Pages show the sentence; the code, the reason and the
 * referee's own message go behind the details toggle (ui.ts, problemDetail).
 *
 * A move the rules refuse has a reason of its game's own ("that chip is already held"):
 * its referee's message says it in the game's terms, so the seat page shows that message.
 */
import type { ApiProblem } from "../api.js";
import { t, type Key } from "../i18n/index.js";
import { CATALOGUE } from "../i18n/catalogue.js";

/** The catalogue's sentence for `key`, when it has one. */
function known(key: string): string | undefined {
  return Object.hasOwn(CATALOGUE.en, key) ? t(key as Key) : undefined;
}

/** What to tell a person about `problem`: the reason's sentence, else the code's. */
export function problemWords(problem: ApiProblem): string {
  return (
    (problem.reason ? known(`error.reason.${problem.reason}`) : undefined) ??
    known(`error.code.${problem.code}`) ??
    t("error.code.unknown")
  );
}

/** True when the table has a sentence of its own for the reason (not the code's). */
function reasonKnown(problem: ApiProblem): boolean {
  return problem.reason !== "" && known(`error.reason.${problem.reason}`) !== undefined;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return "";
  const first = trimmed[0]?.toUpperCase() ?? "";
  const rest = trimmed.slice(1);
  return /[.!?]$/.test(trimmed) ? first + rest : `${first}${rest}.`;
}

/**
 * A refused move in words: the table's sentence for the reason, else (a rule of the game)
 * the referee's own message, which says what was wrong in the game's terms.
 */
export function refusalWords(problem: ApiProblem): string {
  if (reasonKnown(problem)) return problemWords(problem);
  const said = sentence(problem.message);
  return said ? t("error.refusedMove", { said }) : problemWords(problem);
}

/**
 * True when `problem` means this page's token no longer plays its seat (reissued, the
 * seat handed to a bot or left, a token of another game): the page stops offering moves.
 */
export function seatLost(problem: ApiProblem): boolean {
  return (
    problem.code === "unauthenticated" ||
    problem.reason === "TOKEN_REVOKED" ||
    problem.reason === "SEAT_NOT_YOURS" ||
    problem.reason === "TOKEN_FOR_OTHER_GAME"
  );
}
