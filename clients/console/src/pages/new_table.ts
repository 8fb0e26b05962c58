/**
 * `#/new`: create a table. CreateGame with the game, its seats and options, a clock, who
 * may watch, whether it is listed, your name, and how many seats stay open for others.
 * The answer's secrets stay in this tab: your seat's token and the admin token in session
 * storage (tokens.ts), the join code beside them; the page shows the join link and the
 * code to share, then goes on to the table's admin page.
 */
import type { CreateGameResponse } from "@referee/client/web";
import { html, nothing, render, type TemplateResult } from "lit-html";

import { referee } from "../api.js";
import { gameTitle, renderers } from "../games/index.js";
import { t } from "../i18n/index.js";
import { keepToken } from "../tokens.js";
import { links } from "../ui.js";
import { absolute, Action, copyField, keepJoinCode, keepSeat, refusalBox, submitted } from "./lobby_parts.js";
import { clockFields, gameFields, optionsOf, SEAT_RANGE } from "./table_options.js";
import "./lobby.css";

interface Choice {
  game: string;
  seats: number;
  custom: boolean;
}

const GAMES = Object.keys(SEAT_RANGE).filter((game) => Object.hasOwn(renderers, game));

function range(game: string): number[] {
  const [low, high] = SEAT_RANGE[game] ?? [2, 2];
  return Array.from({ length: high - low + 1 }, (_, index) => low + index);
}

export function mountNewTable(root: HTMLElement, signal: AbortSignal): void {
  const choice: Choice = { game: GAMES[0] ?? "the_gang", seats: range(GAMES[0] ?? "the_gang")[0] ?? 3, custom: false };
  let created: CreateGameResponse | undefined;
  const draw = (): void => {
    if (signal.aborted) return;
    render(
      html`<div class="lobby-page">
        <div class="page-head"><h1>${t("page.lobby.newTable")}</h1><a href="${links.home()}">← ${t("common.tables")}</a></div>
        ${created ? createdPanel(created) : form(choice, action, draw, submit)}
      </div>`,
      root,
    );
  };
  const action = new Action(draw);
  const submit = submitted(action, (data) => referee.createGame(requestOf(choice, data), { signal }), (answer) => {
    const id = answer.gameId;
    const own = answer.seatTokens[0];
    if (own) keepSeat(id, own.seat, own.token);
    keepToken("table-admin", id, answer.adminToken);
    keepJoinCode(id, answer.joinCode);
    created = answer;
    draw();
  });
  draw();
}

function requestOf(choice: Choice, data: FormData) {
  const text = (name: string) => String(data.get(name) ?? "").trim();
  const open = Number.parseInt(text("open_seats"), 10) || 0;
  const name = text("name");
  return {
    game: choice.game,
    seats: choice.seats,
    openSeats: open,
    names: name && open < choice.seats ? [name] : [],
    listed: data.get("listed") === "on",
    allowSpectators: data.get("spectators") === "on",
    options: optionsOf(choice.game, data),
  };
}

function form(
  choice: Choice,
  action: Action,
  redraw: () => void,
  submit: (event: SubmitEvent) => Promise<void>,
): TemplateResult {
  const pickGame = (event: Event) => {
    choice.game = (event.target as HTMLSelectElement).value;
    choice.seats = range(choice.game)[0] ?? 2;
    choice.custom = false;
    redraw();
  };
  const pickSeats = (event: Event) => {
    choice.seats = Number((event.target as HTMLSelectElement).value);
    redraw();
  };
  const pickSetup = (event: Event) => {
    choice.custom = (event.target as HTMLSelectElement).value === "custom";
    redraw();
  };
  return html`<form class="lobby-form" data-testid="new-table" @submit=${(e: SubmitEvent) => void submit(e)}>
    ${tableFields(choice, pickGame, pickSeats)}
    <fieldset>
      <legend>${t("page.new.options", { game: gameTitle(choice.game) })}</legend>
      ${gameFields(choice.game, choice.seats, choice.custom, pickSetup)}
      <label class="field"
        ><span>${t("page.new.moveLimit")} <small class="muted">${t("page.new.moveLimitHint")}</small></span>
        <input type="number" name="move_limit" data-testid="new-move-limit" min="1" max="16000" inputmode="numeric"
      /></label>
    </fieldset>
    ${clockFields()}
    <div class="form-actions">
      <button class="primary" type="submit" data-testid="create-table" ?disabled=${action.busy}>
        ${t(action.busy ? "page.new.creating" : "page.new.create")}
      </button>
    </div>
    ${refusalBox(action.refused)}
  </form>`;
}

/** The table itself: game, seats, how many stay open, your name, listing and spectators. */
function tableFields(choice: Choice, pickGame: (event: Event) => void, pickSeats: (event: Event) => void): TemplateResult {
  const opens = Array.from({ length: choice.seats + 1 }, (_, open) => open);
  return html`<fieldset>
    <legend>${t("page.new.table")}</legend>
    <label class="field"
      ><span>${t("page.new.game")}</span>
      <select name="game" data-testid="new-game" @change=${pickGame}>
        ${GAMES.map((game) => html`<option value="${game}" ?selected=${game === choice.game}>${gameTitle(game)}</option>`)}
      </select></label
    >
    <label class="field"
      ><span>${t("page.new.seats")}</span>
      <select name="seats" data-testid="new-seats" @change=${pickSeats}>
        ${range(choice.game).map((seats) => html`<option value="${seats}" ?selected=${seats === choice.seats}>${seats}</option>`)}
      </select></label
    >
    <label class="field"
      ><span>${t("page.new.openSeats")} <small class="muted">${t("page.new.openSeatsHint")}</small></span>
      <select name="open_seats" data-testid="new-open-seats">
        ${opens.map(
          (open) => html`<option value="${open}" ?selected=${open === choice.seats - 1}>
            ${open === choice.seats ? t("page.new.openAll", { count: open }) : open === 0 ? t("page.new.openNone") : open}
          </option>`,
        )}
      </select></label
    >
    <label class="field"
      ><span>${t("page.new.name")}</span>
      <input name="name" data-testid="new-name" maxlength="64" autocomplete="nickname" placeholder="${t("page.new.namePlaceholder")}"
    /></label>
    <label class="check"><input type="checkbox" name="listed" data-testid="new-listed" checked /><span>${t("page.new.listed")}</span></label>
    <label class="check"
      ><input type="checkbox" name="spectators" data-testid="new-spectators" checked /><span>${t("page.new.spectators")}</span></label
    >
  </fieldset>`;
}

function createdPanel(created: CreateGameResponse): TemplateResult {
  const id = created.gameId;
  const others = created.seatTokens.slice(1);
  return html`<section class="lobby-card created" data-testid="table-created" data-game-id="${id}">
    <h2>${t("page.new.ready")}</h2>
    ${created.joinCode
      ? html`<p>${t("page.new.share")}</p>
          ${copyField(t("page.new.joinLink"), absolute(links.join(id, created.joinCode)), "join-link")}
          ${copyField(t("page.new.joinCode"), created.joinCode, "join-code")}`
      : html`<p class="muted">${t("page.new.noneOpen")}</p>`}
    ${others.length
      ? html`<details class="seat-links">
          <summary>${t("page.new.otherSeats")}</summary>
          <p class="muted">${t("page.new.otherSeatsHint")}</p>
          ${others.map((seat) =>
            copyField(t("page.new.seatLinkOf", { number: seat.seat + 1 }), absolute(links.seatLink(id, seat.token)), "seat-link"),
          )}
        </details>`
      : nothing}
    <p class="next">
      <a class="button primary" data-testid="go-admin" href="${links.tableAdmin(id)}">${t("page.new.goAdmin")} →</a>
    </p>
  </section>`;
}
