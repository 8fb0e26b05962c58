/**
 * What the lobby's pages share: refusals in words, a table's join code kept in this tab,
 * absolute links to share, a clock in words, and the busy/refused state of one call.
 */
import { NoShow, type Clock } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import { problemOf, type ApiProblem } from "../api.js";
import { t } from "../i18n/index.js";
import { keepToken } from "../tokens.js";
import { problemDetail } from "../ui.js";
import { problemWords } from "./refusals.js";

/** A refusal of a lobby call in words (the one table of sentences, refusals.ts). */
export function lobbyWords(problem: ApiProblem): string {
  return problemWords(problem);
}

/** A refused call, in words; its code and reason for developers, behind the details toggle. */
export function refusalBox(problem: ApiProblem | undefined): TemplateResult | typeof nothing {
  if (problem === undefined) return nothing;
  return html`<div class="problem lobby-refusal" data-testid="lobby-refusal" data-reason="${problem.reason}" role="alert">
    <strong>${lobbyWords(problem)}</strong> ${problemDetail(problem)}
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
      button.textContent = t("page.copy.done");
    } catch {
      (button.previousElementSibling as HTMLInputElement | null)?.select();
    }
  };
  return html`<label class="copy-field">
    <span>${label}</span>
    <span class="copy-row">
      <input readonly data-testid="${testid}" .value=${value} @focus=${select} />
      <button type="button" aria-label="${t("page.copy.what", { what: label })}" @click=${copy}>${t("page.copy.button")}</button>
    </span>
  </label>`;
}

const seconds = (value: number): string =>
  value % 3600 === 0 ? `${value / 3600} h` : value % 60 === 0 ? `${value / 60} min` : `${value} s`;

/** "2 min a move · bank 10 min + 5 s" or "no clock". */
export function clockWords(clock: Clock | undefined): string {
  if (clock === undefined || (clock.moveSeconds === 0 && clock.bankSeconds === 0)) return t("page.clock.none");
  const parts: string[] = [];
  if (clock.moveSeconds) parts.push(t("page.clock.perMove", { time: seconds(clock.moveSeconds) }));
  if (clock.bankSeconds) {
    const bank = `${seconds(clock.bankSeconds)}${clock.incrementSeconds ? ` + ${seconds(clock.incrementSeconds)}` : ""}`;
    parts.push(t("page.clock.bank", { time: bank }));
  }
  if (clock.noShowAfter && clock.noShow !== NoShow.UNSPECIFIED) {
    const then = t(clock.noShow === NoShow.BOT ? "page.clock.thenBot" : "page.clock.thenForfeit");
    parts.push(t("page.clock.noShow", { count: clock.noShowAfter, then }));
  }
  return parts.join(" · ");
}
