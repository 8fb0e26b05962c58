/**
 * The console's entry: a header, and one page at a time below it, chosen by the hash.
 * Every page gets an AbortSignal that fires when we leave it, which ends its polling and
 * its streams (the signal is passed to every call).
 */
import "./style.css";

import { html, render } from "lit-html";

import { apiBase } from "./api.js";
import { mountGame } from "./pages/game.js";
import { mountHistory } from "./pages/history.js";
import { mountJoin, mountLobby, mountNewTable, mountTableAdmin } from "./pages/lobby.js";
import { mountPlay } from "./pages/play.js";
import { mountTournament } from "./pages/tournament.js";
import { mountClaim, mountNewTournament, mountTournamentAdmin } from "./pages/tournament_admin.js";
import { mountTournaments } from "./pages/tournaments.js";
import { parseRoute, type Route } from "./router.js";
import { links } from "./ui.js";

const app = document.getElementById("app") ?? document.body;

render(
  html`<header class="top">
      <a class="brand" href="${links.home()}"><span class="logo">♠</span>Referee<span class="wide-only">console</span></a>
      <nav aria-label="sections">
        <a href="${links.home()}" data-section="tables">Tables</a>
        <a href="${links.tournaments()}" data-section="tournaments">Tournaments</a>
      </nav>
      <span class="api muted" title="the referee this page asks">${apiBase}</span>
    </header>
    <main id="page"></main>`,
  app,
);
const page = document.getElementById("page") as HTMLElement;

let current: AbortController | undefined;

/** The header's section of a route: tournaments and their tables, or the tables. */
function section(route: Route): "tables" | "tournaments" {
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
    case "unknown":
      render(html`<p>Nothing here. <a href="${links.home()}">Back to the tables</a>.</p>`, root);
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
