/**
 * The hosting side of a table, drawn from the view's `table` alone: who sits where, who is
 * there, whose clock runs and for how long the table has waited. The referee decides all of
 * it; the page only counts down to the deadlines it was given (between two views, once a
 * second), and never works out a clock, a legal move or a turn itself.
 */
import { SeatHolder, TableStatus, type Table, type TableSeat, type View } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import { seatName } from "./ui.js";

/** The seat's row of the table, when the view has one. */
function seatOf(table: Table | undefined, seat: number): TableSeat | undefined {
  return table?.seats.find((entry) => entry.seat === seat);
}

/** The name of who holds `seat` ("Ann", a bot's name), or "Seat N" without one. */
export function seatLabel(view: View | undefined, seat: number): string {
  return seatOf(view?.table, seat)?.name || `Seat ${seat}`;
}

/** Every seat's name, in seat order ("" where none), for `seatName` in ui.ts. */
export function seatNames(view: View | undefined): string[] {
  return Array.from({ length: view?.seats ?? 0 }, (_, seat) => seatOf(view?.table, seat)?.name ?? "");
}

/** Whose turn it is, as a line (a view without a table). */
function toActLine(view: View): string {
  if (view.outcome !== undefined) return "game over";
  if (view.toAct.length === 0) return "nobody to act";
  if (view.toAct.length === view.seats) return "all seats to act";
  return `to act: ${view.toAct.map((seat) => seatName(seat)).join(", ")}`;
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
  return `${days} d${hours % 24 ? ` ${hours % 24} h` : ""}`;
}

/** "Ann", "Ann and Bo", "Ann, Bo and Cy"; "4 seats" past three. */
function whom(view: View, seats: readonly number[]): string {
  const names = seats.map((seat) => seatLabel(view, seat));
  if (names.length > 3) return `${names.length} seats`;
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
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

/**
 * The status line: on whom the table waits and for how long ("waiting on Ann for 3 min"),
 * or why it waits on nobody. A view without a table (a referee from before tables) gets
 * the plain "to act" line.
 */
export function waitingLine(view: View, now: number): string {
  const table = view.table;
  if (table === undefined) return toActLine(view);
  const state = tableState(view);
  if (state === "finished") return "game over";
  if (state === "aborted") return "aborted by the table admin: no more moves";
  if (state === "open") {
    const taken = table.seats.filter((seat) => seat.holder !== SeatHolder.UNSPECIFIED).length;
    return `waiting for players: ${taken} of ${view.seats} seats taken`;
  }
  if (view.toAct.length === 0) return "nobody to act";
  const since = Number(table.waitingSinceUnixMs);
  const names = whom(view, view.toAct);
  return since > 0 ? `waiting on ${names} for ${duration(now - since)}` : `waiting on ${names}`;
}

/** True while something on the page counts: a live table waiting on a seat. */
export function counting(view: View | undefined): boolean {
  return view?.table !== undefined && tableState(view) === "live" && view.toAct.length > 0;
}

/** The seat's presence dot, with words for screen readers (bots and open seats have none). */
function presence(seat: TableSeat): TemplateResult | typeof nothing {
  if (seat.holder !== SeatHolder.PLAYER) return nothing;
  const word = seat.present ? "present" : "away";
  const title = seat.present ? "present: a Play or Watch stream of this seat is open" : "away: no stream of this seat is open";
  return html`<span class="presence ${word}" data-testid="seat-presence" title="${title}"
    ><span class="sr-only">${word}</span></span
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
      title="time left for this move; the referee moves for the seat when it runs out"
      >${countdown(left)}</span
    >`);
  }
  if ((table.clock?.bankSeconds ?? 0) > 0) {
    shown.push(html`<span class="bank muted" data-testid="seat-bank" title="time bank left"
      >bank ${countdown(bankLeft(table, seat, acting, now))}</span
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
    <span class="seat-no">${seat.seat}</span>
    <span class="name" data-testid="seat-name">${holder === "open" ? html`<em class="muted">open seat</em>` : seatLabel(view, seat.seat)}</span>
    ${holder === "bot" ? html`<span class="tag" data-testid="seat-bot" title="played by the referee's bot">bot</span>` : nothing}
    ${seat.forfeited
      ? html`<span class="tag forfeited" data-testid="seat-forfeited" title="forfeited: placed last, played by the clock">forfeited</span>`
      : nothing}
    ${seat.clockMoves > 0
      ? html`<span class="tag" data-testid="seat-clock-moves" title="moves in a row the clock made for this seat"
          >${seat.clockMoves} by clock</span
        >`
      : nothing}
    <span class="clocks">${clocks(table, seat, acting, now)}</span>
  </li>`;
}

/** The seats panel: every seat with its name, presence, marks and running clock. */
export function seatsPanel(view: View, now: number): TemplateResult | typeof nothing {
  const table = view.table;
  if (table === undefined || table.seats.length === 0) return nothing;
  return html`<section class="seats-panel" data-testid="table-seats" aria-label="seats">
    <h3>Seats</h3>
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
