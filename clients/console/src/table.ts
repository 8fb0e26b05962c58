/**
 * The hosting side of a table, drawn from the view's `table` alone: who sits where, who is
 * there, whose clock runs and for how long the table has waited. The referee decides all of
 * it; the page only counts down to the deadlines it was given (between two views, once a
 * second), and never works out a clock, a legal move or a turn itself.
 */
import { SeatHolder, TableStatus, type Table, type TableSeat, type View } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import { t } from "./i18n/index.js";

/** The seat's row of the table, when the view has one. */
function seatOf(table: Table | undefined, seat: number): TableSeat | undefined {
  return table?.seats.find((entry) => entry.seat === seat);
}

/**
 * The name of who holds `seat` ("Ann", a bot's name); without one, words a person reads:
 * "Bot" for a seat a bot holds, else "Player 2" (players count from 1 in words).
 */
export function seatLabel(view: View | undefined, seat: number): string {
  const held = seatOf(view?.table, seat);
  if (held?.name) return held.name;
  if (held?.holder === SeatHolder.BOT) return t("page.seat.bot", { number: seat + 1 });
  return t("page.seat.player", { number: seat + 1 });
}

/** Whose turn it is, as a line (a view without a table). */
function toActLine(view: View): string {
  if (view.outcome !== undefined) return t("page.wait.over");
  if (view.toAct.length === 0) return t("page.wait.nobody");
  if (view.toAct.length === view.seats) return t("page.wait.everyone");
  return t("page.wait.on", { names: whom(view, view.toAct) });
}

const two = (value: number) => String(value).padStart(2, "0");

/** Time left on a clock: "04:37", "1:04:37" past an hour, "00:00" once it ran out. */
export function countdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = `${two(minutes)}:${two(seconds % 60)}`;
  return hours ? `${hours}:${rest}` : rest;
}

/** How long something has lasted, coarsely: "12 s", "3 min", "2 h 5 min", "3 d 4 h". */
export function duration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ""}`;
  const days = Math.floor(hours / 24);
  return `${days} ${t("page.unit.days")}${hours % 24 ? ` ${hours % 24} h` : ""}`;
}

/** "Ann", "Ann and Bo", "Ann, Bo and Cy"; "4 players" past three. */
export function whom(view: View | undefined, seats: readonly number[]): string {
  const names = seats.map((seat) => seatLabel(view, seat));
  if (names.length > 3) return t("page.wait.many", { count: names.length });
  if (names.length < 2) return names.join("");
  return t("page.wait.and", { first: names.slice(0, -1).join(", "), last: names[names.length - 1] ?? "" });
}

/** A table state's word, as its badge shows it. */
export function stateWord(state: "open" | "live" | "finished" | "aborted"): string {
  return t(`page.state.${state}`);
}

/** The table's state as its badge says it: open, live, finished or aborted. */
export function tableState(view: View): "open" | "live" | "finished" | "aborted" {
  if (view.outcome !== undefined) return "finished";
  switch (view.table?.status) {
    case TableStatus.OPEN:
      return "open";
    case TableStatus.ABORTED:
      return "aborted";
    case TableStatus.FINISHED:
      return "finished";
    default:
      return "live";
  }
}

/** The earliest deadline of the seats to act (Unix ms), 0 when none runs. */
export function nextDeadline(view: View): number {
  const deadlines = view.toAct
    .map((seat) => Number(seatOf(view.table, seat)?.deadlineUnixMs ?? 0))
    .filter((deadline) => deadline > 0);
  return deadlines.length ? Math.min(...deadlines) : 0;
}

/**
 * The status line: on whom the table waits, with the time they have left counting down
 * ("Waiting for Ann · 04:37 left"), or, without a clock, how long they have kept it
 * ("Waiting for Ann (3 min so far)"); or why it waits on nobody. A view without a table
 * (a referee from before tables) gets the plain "to act" line.
 */
export function waitingLine(view: View, now: number): string {
  const table = view.table;
  if (table === undefined) return toActLine(view);
  const state = tableState(view);
  if (state === "finished") return t("page.wait.over");
  if (state === "aborted") return t("page.wait.aborted");
  if (state === "open") {
    const taken = table.seats.filter((seat) => seat.holder !== SeatHolder.UNSPECIFIED).length;
    return t("page.wait.players", { taken, seats: view.seats });
  }
  if (view.toAct.length === 0) return t("page.wait.nobody");
  const names = whom(view, view.toAct);
  const deadline = nextDeadline(view);
  if (deadline > 0) return t("page.wait.left", { names, left: countdown(deadline - now) });
  const since = Number(table.waitingSinceUnixMs);
  return since > 0 ? t("page.wait.since", { names, time: duration(now - since) }) : t("page.wait.on", { names });
}

/** True while something on the page counts: a live table waiting on a seat. */
export function counting(view: View | undefined): boolean {
  return view?.table !== undefined && tableState(view) === "live" && view.toAct.length > 0;
}

/** The seat's presence dot, with words for screen readers (bots and open seats have none). */
function presence(seat: TableSeat): TemplateResult | typeof nothing {
  if (seat.holder !== SeatHolder.PLAYER) return nothing;
  const word = seat.present ? "present" : "away";
  const title = seat.present ? t("page.seats.presentHint") : t("page.seats.awayHint");
  return html`<span class="presence ${word}" data-testid="seat-presence" data-present="${word}" title="${title}"
    ><span class="sr-only">${t(`page.seats.${word}`)}</span></span
  >`;
}

/** The seat's bank left now: while the seat is to act it runs on from when the wait began. */
function bankLeft(table: Table, seat: TableSeat, acting: boolean, now: number): number {
  const bank = Number(seat.bankMs);
  const since = Number(table.waitingSinceUnixMs);
  return acting && since > 0 ? bank - Math.max(0, now - since) : bank;
}

function clocks(table: Table, seat: TableSeat, acting: boolean, now: number): TemplateResult[] {
  const shown: TemplateResult[] = [];
  const deadline = Number(seat.deadlineUnixMs);
  if (deadline > 0) {
    const left = deadline - now;
    shown.push(html`<span
      class="clock ${left < 30_000 ? "low" : ""}"
      data-testid="seat-clock"
      data-deadline="${String(deadline)}"
      role="timer"
      title="${t("page.seats.clockHint")}"
      aria-label="${t("page.seats.clockLabel", { left: countdown(left) })}"
      >${countdown(left)}</span
    >`);
  }
  if ((table.clock?.bankSeconds ?? 0) > 0) {
    shown.push(html`<span class="bank muted" data-testid="seat-bank" title="${t("page.seats.bankHint")}"
      >${t("page.seats.bank", { left: countdown(bankLeft(table, seat, acting, now)) })}</span
    >`);
  }
  return shown;
}

function seatRow(view: View, table: Table, seat: TableSeat, now: number): TemplateResult {
  // A seat's clock runs only while a live table waits on it.
  const acting = tableState(view) === "live" && view.toAct.includes(seat.seat);
  const holder = seat.holder === SeatHolder.BOT ? "bot" : seat.holder === SeatHolder.PLAYER ? "player" : "open";
  return html`<li
    class="table-seat ${acting ? "acting" : ""} ${holder}"
    data-testid="table-seat"
    data-seat="${seat.seat}"
    data-holder="${holder}"
    data-present="${seat.present ? "true" : "false"}"
  >
    ${presence(seat)}
    <span class="name" data-testid="seat-name">${holder === "open" ? html`<em class="muted">${t("page.seats.open")}</em>` : seatLabel(view, seat.seat)}</span>
    ${acting ? html`<span class="tag acting-tag" data-testid="seat-acting">${t("page.seats.toAct")}</span>` : nothing}
    ${holder === "bot" ? html`<span class="tag" data-testid="seat-bot" title="${t("page.seats.botHint")}">${t("page.seats.botTag")}</span>` : nothing}
    ${seat.forfeited
      ? html`<span class="tag forfeited" data-testid="seat-forfeited" title="${t("page.seats.forfeitedHint")}">${t("page.seats.forfeited")}</span>`
      : nothing}
    ${seat.clockMoves > 0
      ? html`<span class="tag" data-testid="seat-clock-moves" title="${t("page.seats.clockMovesHint")}"
          >${t("page.seats.clockMoves", { count: seat.clockMoves })}</span
        >`
      : nothing}
    <span class="clocks">${clocks(table, seat, acting, now)}</span>
  </li>`;
}

/** The seats panel: every seat with its name, presence, marks and running clock. */
export function seatsPanel(view: View, now: number): TemplateResult | typeof nothing {
  const table = view.table;
  if (table === undefined || table.seats.length === 0) return nothing;
  return html`<section class="seats-panel" data-testid="table-seats" aria-label="${t("page.seats.title")}">
    <h3>${t("page.seats.title")}</h3>
    <ol>
      ${table.seats.map((seat) => seatRow(view, table, seat, now))}
    </ol>
  </section>`;
}

/**
 * Calls `tick` once a second until `signal` aborts (the page is left). `tick` says whether
 * to go on; once it says no (nothing counts any more), the timer stops until `resume`.
 */
export function everySecond(signal: AbortSignal, tick: () => boolean): { resume(): void } {
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  signal.addEventListener("abort", stop, { once: true });
  return {
    resume: () => {
      if (timer !== undefined || signal.aborted) return;
      timer = setInterval(() => {
        if (signal.aborted || !tick()) stop();
      }, 1000);
    },
  };
}

/**
 * Redraws a table's page once a second while `view()` counts something down (a turn
 * clock, a wait); `resume` after a view that may count again.
 */
export function redrawWhileCounting(
  signal: AbortSignal,
  draw: () => void,
  view: () => View | undefined,
): { resume(): void } {
  return everySecond(signal, () => {
    draw();
    return counting(view());
  });
}
