/**
 * The lobby's pages. `#/` is the front page: the public tables from ListGames, open ones
 * to join and live ones to watch, by game, a page at a time (the listing's cursor), asked
 * again every 5 s while the tab is visible (two calls, well within the per-caller
 * ListGames quota); links to create a table or a tournament; and the tournaments below.
 * Creating a table, joining one and a table's admin page have modules of their own.
 */
import { TableStatus, type ListedGame } from "@referee/client/web";
import { html, nothing, render, type TemplateResult } from "lit-html";

import { isAbort, lobby, problemOf, type ApiProblem } from "../api.js";
import { gameTitle, renderers } from "../games/index.js";
import { t } from "../i18n/index.js";
import { stateWord } from "../table.js";
import { tokenOf } from "../tokens.js";
import { links, problemBox } from "../ui.js";
import { clockWords } from "./lobby_parts.js";
import { mountTournaments } from "./tournaments.js";
import "./lobby.css";

export { mountJoin } from "./join.js";
export { mountNewTable } from "./new_table.js";
export { mountTableAdmin } from "./table_admin.js";

const POLL_MS = 5000;
const PAGE_SIZE = 12;

/** One section of the front page: the tables of one status, one page at a time. */
class Listing {
  games: ListedGame[] | undefined;
  problem: ApiProblem | undefined;
  /** The page tokens of the pages before this one ("" is the first page). */
  private before: string[] = [];
  private token = "";
  next = "";

  constructor(
    readonly status: TableStatus,
    readonly name: "open" | "live",
  ) {}

  get paged(): boolean {
    return this.before.length > 0;
  }

  async load(game: string, signal: AbortSignal): Promise<void> {
    try {
      const answer = await lobby.listGames(
        { game, status: this.status, pageSize: PAGE_SIZE, pageToken: this.token },
        { signal },
      );
      this.games = answer.games;
      this.next = answer.nextPageToken;
      this.problem = undefined;
    } catch (error) {
      if (isAbort(error, signal)) return;
      this.problem = problemOf(error);
      if (this.problem.reason === "PAGE_TOKEN_INVALID") this.first();
    }
  }

  older(): void {
    this.before.push(this.token);
    this.token = this.next;
  }

  newer(): void {
    this.token = this.before.pop() ?? "";
  }

  first(): void {
    this.before = [];
    this.token = "";
  }
}

export function mountLobby(root: HTMLElement, signal: AbortSignal): void {
  const tables = document.createElement("div");
  const tournamentsRoot = document.createElement("div");
  tournamentsRoot.className = "lobby-tournaments";
  root.replaceChildren(tables, tournamentsRoot);
  mountTournaments(tournamentsRoot, signal);

  let game = "";
  const listings = [new Listing(TableStatus.OPEN, "open"), new Listing(TableStatus.LIVE, "live")];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const draw = (): void => {
    if (signal.aborted) return;
    render(front(game, listings, pickGame, page), tables);
  };
  /** Ask for every section now, then again in POLL_MS while the tab is visible. */
  let round = 0;
  const refresh = async (): Promise<void> => {
    clearTimeout(timer);
    const mine = ++round;
    await Promise.all(listings.map((listing) => listing.load(game, signal)));
    if (mine !== round) return; // a newer refresh (another game, another page) took over
    draw();
    if (!signal.aborted && document.visibilityState === "visible") timer = setTimeout(() => void refresh(), POLL_MS);
  };
  const pickGame = (chosen: string): void => {
    game = chosen;
    for (const listing of listings) listing.first();
    void refresh();
  };
  const page = (listing: Listing, move: "older" | "newer"): void => {
    listing[move]();
    void refresh();
  };
  const visible = (): void => {
    if (document.visibilityState === "visible") void refresh();
    else clearTimeout(timer);
  };
  document.addEventListener("visibilitychange", visible);
  signal.addEventListener(
    "abort",
    () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", visible);
    },
    { once: true },
  );
  draw();
  void refresh();
}

type Pager = (listing: Listing, move: "older" | "newer") => void;

function front(game: string, listings: Listing[], pick: (game: string) => void, page: Pager): TemplateResult {
  const games = ["", ...Object.keys(renderers)];
  return html`<div class="lobby-page" data-testid="lobby">
    <div class="page-head">
      <h1>${t("common.tables")}</h1>
      <span class="lobby-links">
        <a class="button primary" data-testid="new-table-link" href="${links.newTable()}">${t("page.lobby.newTable")}</a>
        <a class="button" data-testid="new-tournament-link" href="${links.newTournament()}">${t("page.lobby.newTournament")}</a>
      </span>
    </div>
    <div class="game-filter" role="group" aria-label="${t("page.lobby.filter")}" data-testid="game-filter">
      ${games.map(
        (name) => html`<button
          type="button"
          class="chip ${name === game ? "on" : ""}"
          aria-pressed="${name === game ? "true" : "false"}"
          data-game="${name}"
          @click=${() => pick(name)}
        >
          ${name ? gameTitle(name) : t("page.lobby.allGames")}
        </button>`,
      )}
    </div>
    <div class="lobby-sections">${listings.map((listing) => section(listing, page))}</div>
    ${openGameForm()}
  </div>`;
}

/** Open any table by its id (one seen elsewhere: a tournament's, a shared id). */
function openGameForm(): TemplateResult {
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const id = new FormData(form).get("game-id")?.toString().trim();
    if (id) location.hash = links.game(id);
  };
  return html`<form class="open-game" data-testid="open-game" @submit=${submit}>
    <label for="game-id">${t("page.lobby.openById")}</label>
    <input id="game-id" name="game-id" data-testid="open-game-id" placeholder="${t("page.lobby.gameId")}" autocomplete="off" />
    <button type="submit">${t("page.lobby.open")}</button>
  </form>`;
}

function section(listing: Listing, page: Pager): TemplateResult {
  const open = listing.name === "open";
  const list = listing.games;
  return html`<section class="lobby-section" data-testid="lobby-${listing.name}">
    <h2>${t(open ? "page.lobby.openTables" : "page.lobby.liveTables")}</h2>
    ${problemBox(listing.problem, listing.problem && !listing.problem.permanent ? t("error.retrying") : "")}
    <ul class="lobby-tables">
      ${list === undefined
        ? html`<li class="muted">${listing.problem ? nothing : t("page.loading")}</li>`
        : list.length === 0
          ? html`<li class="muted empty">
              ${open
                ? html`${t("page.lobby.noOpen")} <a href="${links.newTable()}">${t("page.lobby.createOne")}</a>`
                : t("page.lobby.noLive")}
            </li>`
          : list.map(row)}
    </ul>
    ${listing.paged || listing.next
      ? html`<div class="pager">
          <button type="button" ?disabled=${!listing.paged} @click=${() => page(listing, "newer")}>← ${t("page.lobby.newer")}</button>
          <button type="button" data-testid="older" ?disabled=${!listing.next} @click=${() => page(listing, "older")}>
            ${t("page.lobby.older")} →
          </button>
        </div>`
      : nothing}
  </section>`;
}

function row(table: ListedGame): TemplateResult {
  const id = table.gameId;
  const state = table.status === TableStatus.OPEN ? "open" : "live";
  const names = table.names.filter(Boolean);
  const seated = tokenOf("seat", id) !== undefined;
  const admin = tokenOf("table-admin", id) !== undefined;
  return html`<li class="lobby-table ${state}" data-testid="lobby-table" data-game-id="${id}" data-state="${state}">
    <div class="headline">
      <h3>${gameTitle(table.game)}</h3>
      <span class="badge ${state}">${stateWord(state)}</span>
    </div>
    <p class="facts">
      <span data-testid="lobby-taken">${t("page.seats.taken", { taken: table.seatsTaken, seats: table.seats })}</span> ·
      ${clockWords(table.clock)} ${table.allowSpectators ? nothing : html` · ${t("page.lobby.noSpectators")}`}
    </p>
    <p class="names">${names.length ? names.join(", ") : html`<span class="muted">${t("page.lobby.nobody")}</span>`}</p>
    <p class="table-links">
      ${state === "open" && !seated
        ? html`<a class="button primary" data-testid="lobby-join" href="${links.join(id)}">${t("page.lobby.join")}</a>`
        : nothing}
      ${seated ? html`<a class="button primary" href="${links.play(id)}">${t("page.lobby.playMySeat")}</a>` : nothing}
      ${table.allowSpectators
        ? html`<a class="button" data-testid="lobby-watch" href="${links.game(id)}">${t("page.lobby.watch")}</a>`
        : nothing}
      ${admin ? html`<a class="button" href="${links.tableAdmin(id)}">${t("page.lobby.admin")}</a>` : nothing}
    </p>
  </li>`;
}
