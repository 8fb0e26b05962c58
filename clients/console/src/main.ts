/**
 * The console's entry: a header, and one page at a time below it, chosen by the hash.
 * Every page gets an AbortSignal that fires when we leave it, which ends its polling and
 * its streams (the signal is passed to every call).
 */
import "./style.css";

import { html, render, type TemplateResult } from "lit-html";

import { apiBase } from "./api.js";
import { detailsShown, showDetails } from "./details.js";
import { LANGS, lang, setLang, t, type Lang } from "./i18n/index.js";
import { mountGame } from "./pages/game.js";
import { mountHistory } from "./pages/history.js";
import { mountJoin, mountLobby, mountNewTable, mountTableAdmin } from "./pages/lobby.js";
import { mountPlay } from "./pages/play.js";
import { mountLeaderboard, mountPlayer } from "./pages/ratings.js";
import { ratingLinks } from "./pages/ratings_parts.js";
import { mountTournament } from "./pages/tournament.js";
import { mountClaim, mountNewTournament, mountTournamentAdmin } from "./pages/tournament_admin.js";
import { mountTournaments } from "./pages/tournaments.js";
import { parseRoute, type Route } from "./router.js";
import { links } from "./ui.js";

const app = document.getElementById("app") ?? document.body;

/** The header: sections, the language switch and the details toggle (both on every page). */
function header(): TemplateResult {
  return html`<header class="top">
      <a class="brand" href="${links.home()}"><span class="logo" aria-hidden="true">♠</span>Referee<span class="wide-only">console</span></a>
      <nav aria-label="${t("common.sections")}">
        <a href="${links.home()}" data-section="tables">${t("common.tables")}</a>
        <a href="${links.tournaments()}" data-section="tournaments">${t("common.tournaments")}</a>
        <a href="${ratingLinks.leaderboard("")}" data-section="ratings" data-testid="nav-ratings">${t("rating.nav")}</a>
      </nav>
      <span class="header-tools">
        <label class="lang-switch">
          <span class="visually-hidden">${t("common.language")}</span>
          <select data-testid="language" @change=${chooseLanguage}>
            ${LANGS.map((code) => html`<option value=${code} ?selected=${code === lang()}>${LANGUAGE_NAMES[code]}</option>`)}
          </select>
        </label>
        <label class="details-toggle" title="${t("common.detailsHint")}">
          <input type="checkbox" data-testid="details" .checked=${detailsShown()} @change=${toggleDetails} />
          ${t("common.details")}
        </label>
      </span>
      <span class="api muted dev-detail">${t("common.apiAddress", { address: apiBase })}</span>
    </header>
    <main id="page"></main>`;
}

/** Each language by its own name, as a switch shows them. */
const LANGUAGE_NAMES: Record<Lang, string> = { en: "English", nl: "Nederlands", de: "Deutsch" };

function chooseLanguage(event: Event): void {
  const chosen = (event.target as HTMLSelectElement).value as Lang;
  setLang(chosen);
  drawHeader();
  show();
}

function toggleDetails(event: Event): void {
  showDetails((event.target as HTMLInputElement).checked);
}

function drawHeader(): void {
  render(header(), app);
}

drawHeader();
const page = document.getElementById("page") as HTMLElement;

let current: AbortController | undefined;

/** The header's section of a route: tournaments and their tables, ratings, or the tables. */
function section(route: Route): "tables" | "tournaments" | "ratings" {
  if (route.page === "leaderboard" || route.page === "player") return "ratings";
  return route.page.includes("tournament") || route.page === "claim" ? "tournaments" : "tables";
}

/** Marks the header's link to the section the page is in. */
function markSection(route: Route): void {
  for (const link of document.querySelectorAll<HTMLAnchorElement>(".top nav a")) {
    const here = link.dataset.section === section(route);
    link.classList.toggle("current", here);
    if (here) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

function mount(route: Route, root: HTMLElement, signal: AbortSignal): void {
  switch (route.page) {
    case "lobby":
      return mountLobby(root, signal);
    case "new-table":
      return mountNewTable(root, signal);
    case "join":
      return mountJoin(root, signal, route.id, route.code);
    case "play":
      return mountPlay(root, signal, route.id, route.token);
    case "table-admin":
      return mountTableAdmin(root, signal, route.id);
    case "new-tournament":
      return mountNewTournament(root, signal);
    case "tournament-admin":
      return mountTournamentAdmin(root, signal, route.id);
    case "claim":
      return mountClaim(root, signal, route.id, route.code);
    case "tournaments":
      return mountTournaments(root, signal);
    case "tournament":
      return mountTournament(root, signal, route.id);
    case "game":
      return mountGame(root, signal, route.id);
    case "history":
      return mountHistory(root, signal, route.id);
    case "leaderboard":
      return mountLeaderboard(root, signal, route.game);
    case "player":
      return mountPlayer(root, signal, route.game, route.player);
    case "unknown":
      render(html`<p>${t("common.nothingHere")} <a href="${links.home()}">${t("common.backToTables")}</a>.</p>`, root);
  }
}

function show(): void {
  current?.abort();
  current = new AbortController();
  // A fresh element per page, so lit-html starts clean and a late render of the old page
  // lands in a detached node.
  const root = document.createElement("div");
  root.className = "page";
  page.replaceChildren(root);
  window.scrollTo(0, 0);
  const route = parseRoute(location.hash);
  markSection(route);
  mount(route, root, current.signal);
}

window.addEventListener("hashchange", show);
show();
