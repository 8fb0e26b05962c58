/**
 * What the lobby's pages share: refusals in words, a table's join code kept in this tab,
 * absolute links to share, a clock in words, and the busy/refused state of one call.
 */
import { NoShow, type Clock } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import { problemOf, type ApiProblem } from "../api.js";
import { keepToken } from "../tokens.js";

/** The lobby's refusals, said so a person knows what to do next. */
const WORDS: Record<string, string> = {
  JOIN_CODE_INVALID: "That join code is not good: it is wrong, expired, or the table has started or filled up.",
  JOIN_CODE_ATTEMPTS_EXCEEDED: "Too many wrong join codes from here: wait a minute and try again.",
  SEAT_CODE_ATTEMPTS_EXCEEDED: "Too many wrong codes from here: wait a minute and try again.",
  JOIN_RATE_EXCEEDED: "Too many joins from here in a minute: wait a little and try again.",
  JOIN_TARGET_INVALID: "Give the table's join code (or open a listed table's link).",
  TABLE_FULL: "Every seat of this table is taken.",
  TABLE_NOT_LISTED: "This table is not listed: join it with its join code.",
  NAME_INVALID: "Names are 1 to 64 printable characters.",
  PLAYER_ID_INVALID: "The player id is at most 128 printable characters.",
  GAME_ALREADY_STARTED: "The game has already started.",
  GAME_NOT_STARTED: "The game has not started yet: start it first.",
  GAME_NOT_FOUND: "There is no such table (or it expired).",
  GAME_ABORTED: "The game was aborted: nothing more happens at this table.",
  GAME_OVER: "The game is over.",
  OPEN_SEATS_INVALID: "Leave between none and all of the seats open.",
  CLOCK_INVALID: "That clock does not work: a limit of 1 s to 24 h, an increment up to 1 h and only with a bank.",
  MOVE_LIMIT_INVALID: "The move limit is 1 to 16000 moves.",
  SETUP_NOT_FOR_PLAYERS: "That setup is for another number of players.",
  CREATE_RATE_EXCEEDED: "Too many tables created from here in a minute: wait a little.",
  LIVE_GAMES_EXCEEDED: "Too many running tables from here: finish or abort one first.",
  OPERATOR_KEY_REQUIRED: "This referee lets only its operators create tables.",
  SEAT_ALREADY_BOT: "A bot already plays that seat.",
  SEAT_NOT_HELD: "Nobody holds that seat as a player, so it has no token to reissue.",
  SEAT_FORFEITED: "That seat has already forfeited.",
  SEAT_NOT_AT_TABLE: "This table has no such seat.",
  FORFEIT_NOT_IN_GAME: "The Gang is cooperative: nobody forfeits alone; hand the seat to a bot or abort.",
  ADMIN_TOKEN_REQUIRED: "Only the table admin may do that.",
  TOKEN_REVOKED: "That token was replaced: it no longer works.",
  TABLE_ACTIONS_EXCEEDED: "This table has had too many changes.",
  LIST_RATE_EXCEEDED: "The list was asked for too often: it comes back in a moment.",
  LIVE_BOTS_EXCEEDED: "The referee runs too many bots right now.",
};

/** A refusal of a lobby call in words: ours for the reason, then the referee's message. */
export function lobbyWords(problem: ApiProblem): string {
  const known = WORDS[problem.reason];
  const said = problem.message.trim();
  if (known === undefined) return said || `Refused (${problem.code}).`;
  return said ? `${known} (${said})` : known;
}

/** A refused call, in words, with its reason for tests and the curious. */
export function refusalBox(problem: ApiProblem | undefined): TemplateResult | typeof nothing {
  if (problem === undefined) return nothing;
  return html`<div class="problem lobby-refusal" data-testid="lobby-refusal" data-reason="${problem.reason}" role="alert">
    <strong>${lobbyWords(problem)}</strong>
    <code>${problem.reason || problem.code}</code>
  </div>`;
}

/**
 * One call at a time from a form or a button: `busy` while it runs, `refused` after a
 * failure. `redraw` is called at each change.
 */
export class Action {
  busy = false;
  refused: ApiProblem | undefined;

  constructor(private readonly redraw: () => void) {}

  async run<T>(call: () => Promise<T>): Promise<T | undefined> {
    if (this.busy) return undefined;
    this.busy = true;
    this.refused = undefined;
    this.redraw();
    try {
      return await call();
    } catch (error) {
      this.refused = problemOf(error);
      return undefined;
    } finally {
      this.busy = false;
      this.redraw();
    }
  }
}

/**
 * A form's submit handler: the form's fields go to `call` through `action` (one call at a
 * time, a refusal shown), and `done` takes its answer.
 */
export function submitted<T>(
  action: Action,
  call: (data: FormData) => Promise<T>,
  done: (answer: T) => void,
): (event: SubmitEvent) => Promise<void> {
  return async (event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const answer = await action.run(() => call(data));
    if (answer !== undefined) done(answer);
  };
}

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

const codeKey = (id: string): string => `referee:join-code:${id}`;

/** Keep the table's join code in this tab (the admin page shows it again). */
export function keepJoinCode(id: string, code: string): void {
  if (code) storage()?.setItem(codeKey(id), code);
}

export function joinCodeOf(id: string): string {
  return storage()?.getItem(codeKey(id)) ?? "";
}

const seatKey = (id: string): string => `referee:my-seat:${id}`;

/**
 * Keep seat `seat`'s token at table `id` in this tab, and which seat it plays (beside the
 * token, which says no more).
 */
export function keepSeat(id: string, seat: number, token: string): void {
  keepToken("seat", id, token);
  storage()?.setItem(seatKey(id), String(seat));
}

/** The seat this tab plays at `id`, or -1. */
export function mySeatOf(id: string): number {
  const kept = storage()?.getItem(seatKey(id));
  return kept ? Number(kept) : -1;
}

/** `route` (a `#/...` link) as an absolute URL to share. */
export function absolute(route: string): string {
  return `${location.origin}${location.pathname}${location.search}${route}`;
}

/** A read-only field holding something to copy (a link, a code), selected on focus. */
export function copyField(label: string, value: string, testid: string): TemplateResult {
  const select = (event: Event) => (event.target as HTMLInputElement).select();
  const copy = async (event: Event) => {
    const button = event.currentTarget as HTMLButtonElement;
    try {
      await navigator.clipboard.writeText(value);
      button.textContent = "Copied";
    } catch {
      (button.previousElementSibling as HTMLInputElement | null)?.select();
    }
  };
  return html`<label class="copy-field">
    <span>${label}</span>
    <span class="copy-row">
      <input readonly data-testid="${testid}" .value=${value} @focus=${select} />
      <button type="button" @click=${copy}>Copy</button>
    </span>
  </label>`;
}

const seconds = (value: number): string =>
  value % 3600 === 0 ? `${value / 3600} h` : value % 60 === 0 ? `${value / 60} min` : `${value} s`;

/** "2 min a move · bank 10 min + 5 s" or "no clock". */
export function clockWords(clock: Clock | undefined): string {
  if (clock === undefined || (clock.moveSeconds === 0 && clock.bankSeconds === 0)) return "no clock";
  const parts: string[] = [];
  if (clock.moveSeconds) parts.push(`${seconds(clock.moveSeconds)} a move`);
  if (clock.bankSeconds) {
    parts.push(`bank ${seconds(clock.bankSeconds)}${clock.incrementSeconds ? ` + ${seconds(clock.incrementSeconds)}` : ""}`);
  }
  if (clock.noShowAfter && clock.noShow !== NoShow.UNSPECIFIED) {
    const then = clock.noShow === NoShow.BOT ? "a bot takes over" : "the seat forfeits";
    parts.push(`after ${clock.noShowAfter} missed, ${then}`);
  }
  return parts.join(" · ");
}
