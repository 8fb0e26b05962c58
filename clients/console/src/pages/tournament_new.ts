/**
 * `#/tournaments/new`: create a tournament (CreateTournament, no token). The answer's admin
 * token goes to this tab's session storage (`tournament-admin`), never into the page or a
 * URL; each external participant's one-time seat code is shown here once, with its claim
 * link (the code in the fragment), to hand to that person.
 */
import { BotStrategy, NoShow, TournamentFormat, type CreateTournamentResponse } from "@referee/client/web";
import { html, nothing, render, type TemplateResult } from "lit-html";

import { problemOf, tournaments as api, type ApiProblem } from "../api.js";
import { gameTitle, renderers } from "../games/index.js";
import { t, type Key } from "../i18n/index.js";
import { keepToken } from "../tokens.js";
import { links, problemBox } from "../ui.js";
import "./tournament_admin.css";

interface Entry {
  name: string;
  bot: BotStrategy;
}

interface Form {
  game: string;
  format: TournamentFormat;
  rounds: number;
  seats: number;
  delayMs: number;
  participants: Entry[];
  clock: boolean;
  moveSeconds: number;
  bankSeconds: number;
  noShowAfter: number;
  noShow: NoShow;
  /** Gang of Four: the referee announces a last card. */
  autoAnnounce: boolean;
  /** The Gang: a round ends when every seat confirms. */
  confirmRoundEnd: boolean;
  /** Pinched!: a setup name ("" the basic one). */
  setup: string;
}

const KINDS: [BotStrategy, Key][] = [
  [BotStrategy.UNSPECIFIED, "page.tnew.person"],
  [BotStrategy.RANDOM, "page.bot.random"],
  [BotStrategy.HEURISTIC, "page.bot.heuristic"],
  [BotStrategy.SEARCH, "page.bot.search"],
];
const NO_SHOWS: [NoShow, Key][] = [
  [NoShow.UNSPECIFIED, "page.clock.noShowClock"],
  [NoShow.BOT, "page.clock.noShowBot"],
  [NoShow.FORFEIT, "page.clock.noShowForfeit"],
];
/** Pinched!'s setups ("" the basic one), named in table_options.ts's words. */
const SETUPS: [string, Key][] = [
  ["", "page.setup.basic"],
  ["paranoid_owner", "page.setup.paranoid_owner"],
  ["search_for_lisa_mona", "page.setup.search_for_lisa_mona"],
  ["cursed_secrets", "page.setup.cursed_secrets"],
  ["the_whole_package", "page.setup.the_whole_package"],
];

function fresh(): Form {
  return {
    game: "pinched",
    format: TournamentFormat.ROUND_ROBIN,
    rounds: 1,
    seats: 2,
    delayMs: 0,
    participants: [
      { name: "Ann", bot: BotStrategy.UNSPECIFIED },
      { name: "Bot Bea", bot: BotStrategy.RANDOM },
    ],
    clock: false,
    moveSeconds: 60,
    bankSeconds: 0,
    noShowAfter: 3,
    noShow: NoShow.FORFEIT,
    autoAnnounce: false,
    confirmRoundEnd: false,
    setup: "",
  };
}

/** The request the form stands for; the referee checks every field. */
function request(form: Form) {
  const options =
    form.game === "gang_of_four"
      ? { game: { case: "gangOfFour" as const, value: { autoAnnounceLastCard: form.autoAnnounce } } }
      : form.game === "the_gang"
        ? { game: { case: "theGang" as const, value: { confirmRoundEnd: form.confirmRoundEnd } } }
        : { game: { case: "pinched" as const, value: { setup: form.setup } } };
  return {
    game: form.game,
    seatsPerTable: form.seats,
    format: form.format,
    rounds: form.rounds,
    botMoveDelayMs: form.delayMs,
    options,
    participants: form.participants.map((entry) => ({ name: entry.name.trim(), bot: entry.bot })),
    clock: form.clock
      ? {
          moveSeconds: form.moveSeconds,
          bankSeconds: form.bankSeconds,
          noShowAfter: form.noShowAfter,
          noShow: form.noShow,
        }
      : undefined,
  };
}

/** An absolute link to this console at `route` (for another person, another device). */
export function absolute(route: string): string {
  return `${location.origin}${location.pathname}${location.search}${route}`;
}

const num = (event: Event): number => Number((event.target as HTMLInputElement).value) || 0;
const text = (event: Event): string => (event.target as HTMLInputElement).value;

export function mountNewTournament(root: HTMLElement, signal: AbortSignal): void {
  const form = fresh();
  let problem: ApiProblem | undefined;
  let sending = false;
  let created: CreateTournamentResponse | undefined;

  const draw = (): void => {
    if (signal.aborted) return;
    render(
      html`<div class="tadmin">
        <div class="page-head"><h1>${t("page.tnew.title")}</h1></div>
        ${created ? createdPanel(created) : editor(form, sending, draw, submit)} ${problemBox(problem)}
      </div>`,
      root,
    );
  };
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (sending) return;
    sending = true;
    problem = undefined;
    draw();
    try {
      created = await api.createTournament(request(form), { signal });
      keepToken("tournament-admin", created.tournamentId, created.adminToken);
    } catch (error) {
      if (signal.aborted) return;
      problem = problemOf(error);
    }
    sending = false;
    draw();
  };
  draw();
}

function editor(form: Form, sending: boolean, draw: () => void, submit: (event: Event) => void): TemplateResult {
  const set = (change: () => void) => () => (change(), draw());
  return html`<form class="tadmin-form" data-testid="new-tournament-form" @submit=${submit}>
    <fieldset>
      <legend>${t("page.new.game")}</legend>
      <label
        >${t("page.new.game")}
        <select data-testid="nt-game" @change=${(e: Event) => set(() => (form.game = text(e)))()}>
          ${Object.keys(renderers).map(
            (game) => html`<option value=${game} ?selected=${game === form.game}>${gameTitle(game)}</option>`,
          )}
        </select></label
      >
      <label
        >${t("page.tnew.format")}
        <select data-testid="nt-format" @change=${(e: Event) => set(() => (form.format = num(e)))()}>
          <option value=${TournamentFormat.ROUND_ROBIN} ?selected=${form.format === TournamentFormat.ROUND_ROBIN}>
            ${t("page.format.roundRobin")}
          </option>
          <option value=${TournamentFormat.SWISS} ?selected=${form.format === TournamentFormat.SWISS}>${t("page.format.swiss")}</option>
        </select></label
      >
      ${numberField(t("page.tnew.rounds"), "nt-rounds", form.rounds, (v) => (form.rounds = v))}
      ${numberField(t("page.tnew.seats"), "nt-seats", form.seats, (v) => (form.seats = v))}
      ${numberField(t("page.tnew.delay"), "nt-delay", form.delayMs, (v) => (form.delayMs = v))}
      ${gameOptions(form, draw)}
    </fieldset>
    ${participantsField(form, draw)} ${clockField(form, draw)}
    <div class="tadmin-actions">
      <button type="submit" class="primary" data-testid="nt-create" ?disabled=${sending}>
        ${t(sending ? "page.new.creating" : "page.tnew.create")}
      </button>
    </div>
  </form>`;
}

function numberField(label: string, testid: string, value: number, set: (value: number) => void): TemplateResult {
  return html`<label
    >${label}
    <input type="number" min="0" data-testid=${testid} .value=${String(value)} @input=${(e: Event) => set(num(e))}
  /></label>`;
}

function check(label: string, testid: string, value: boolean, set: (value: boolean) => void): TemplateResult {
  return html`<label class="check"
    ><input
      type="checkbox"
      data-testid=${testid}
      .checked=${value}
      @change=${(e: Event) => set((e.target as HTMLInputElement).checked)}
    />
    ${label}</label
  >`;
}

function gameOptions(form: Form, draw: () => void): TemplateResult {
  if (form.game === "gang_of_four") {
    return check(t("page.opt.autoAnnounce"), "nt-auto-announce", form.autoAnnounce, (v) => {
      form.autoAnnounce = v;
    });
  }
  if (form.game === "the_gang") {
    return check(t("page.tnew.confirmRoundEnd"), "nt-confirm-round-end", form.confirmRoundEnd, (v) => {
      form.confirmRoundEnd = v;
    });
  }
  return html`<label
    >${t("page.opt.setup")}
    <select data-testid="nt-setup" @change=${(e: Event) => ((form.setup = text(e)), draw())}>
      ${SETUPS.map(([setup, label]) => html`<option value=${setup} ?selected=${setup === form.setup}>${t(label)}</option>`)}
    </select></label
  >`;
}

function participantsField(form: Form, draw: () => void): TemplateResult {
  const rows = form.participants;
  return html`<fieldset>
    <legend>${t("page.tnew.participants")}</legend>
    <ol class="tadmin-participants">
      ${rows.map(
        (entry, index) => html`<li data-testid="participant-row">
          <input
            aria-label="${t("page.tnew.nameOf", { number: index + 1 })}"
            data-testid="participant-name"
            maxlength="64"
            required
            .value=${entry.name}
            @input=${(e: Event) => (entry.name = text(e))}
          />
          <select
            aria-label="${t("page.tnew.kindOf", { number: index + 1 })}"
            data-testid="participant-kind"
            @change=${(e: Event) => ((entry.bot = num(e)), draw())}
          >
            ${KINDS.map(([bot, label]) => html`<option value=${bot} ?selected=${bot === entry.bot}>${t(label)}</option>`)}
          </select>
          <button
            type="button"
            data-testid="remove-participant"
            aria-label="${t("page.tnew.removeOf", { number: index + 1 })}"
            @click=${() => (rows.splice(index, 1), draw())}
          >
            ✕
          </button>
        </li>`,
      )}
    </ol>
    <button
      type="button"
      data-testid="add-participant"
      @click=${() => (rows.push({ name: t("page.seat.player", { number: rows.length + 1 }), bot: BotStrategy.UNSPECIFIED }), draw())}
    >
      ${t("page.tnew.add")}
    </button>
  </fieldset>`;
}

function clockField(form: Form, draw: () => void): TemplateResult {
  return html`<fieldset>
    <legend>${t("page.clock.legend")}</legend>
    ${check(t("page.tnew.clock"), "nt-clock", form.clock, (v) => ((form.clock = v), draw()))}
    ${form.clock
      ? html`${numberField(t("page.tnew.moveSeconds"), "clock-move-seconds", form.moveSeconds, (v) => (form.moveSeconds = v))}
          ${numberField(t("page.tnew.bankSeconds"), "clock-bank-seconds", form.bankSeconds, (v) => (form.bankSeconds = v))}
          ${numberField(t("page.tnew.noShowAfter"), "clock-no-show-after", form.noShowAfter, (v) => (form.noShowAfter = v))}
          <label
            >${t("page.clock.then")}
            <select data-testid="clock-no-show" @change=${(e: Event) => (form.noShow = num(e))}>
              ${NO_SHOWS.map(([value, label]) => html`<option value=${value} ?selected=${value === form.noShow}>${t(label)}</option>`)}
            </select></label
          >`
      : nothing}
  </fieldset>`;
}

function createdPanel(created: CreateTournamentResponse): TemplateResult {
  const id = created.tournamentId;
  const names = new Map(created.tournament?.participants.map((p) => [p.index, p.name]) ?? []);
  return html`<section class="tadmin-created" data-testid="created" data-tournament-id=${id}>
    <p>${t("page.tnew.created")} <code class="dev-detail" data-testid="created-tournament-id">${id}</code></p>
    <p class="tadmin-links">
      <a class="button primary" data-testid="admin-link" href=${links.tournamentAdmin(id)}>${t("page.tnew.adminPage")}</a>
      <a class="button" href=${links.tournament(id)}>${t("page.tournament.pageLink")}</a>
    </p>
    ${created.seatCodes.length
      ? html`<h2>${t("page.tnew.codes")}</h2>
          <p class="muted">${t("page.tnew.codesHint")}</p>
          <ul class="tadmin-codes">
            ${created.seatCodes.map(
              (seat) => html`<li data-testid="seat-code" data-participant=${seat.participant}>
                <strong>${names.get(seat.participant) ?? t("page.tournament.participant", { number: seat.participant + 1 })}</strong>
                <code data-testid="seat-code-value">${seat.code}</code>
                <input
                  readonly
                  data-testid="claim-link"
                  aria-label="${t("page.tnew.claimLinkOf", { name: names.get(seat.participant) ?? seat.participant + 1 })}"
                  .value=${absolute(links.claim(id, seat.code))}
                  @focus=${(e: Event) => (e.target as HTMLInputElement).select()}
                />
              </li>`,
            )}
          </ul>`
      : html`<p class="muted">${t("page.tnew.onlyBots")}</p>`}
  </section>`;
}
