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
      <a class="brand" href="${links.home()}"><span class="logo">♠</span> Referee console</a>
      <nav>
        <a href="${links.home()}">Tables</a>
        <a href="${links.tournaments()}">Tournaments</a>
      </nav>
      <span class="api muted" title="the referee this page asks">${apiBase}</span>
    </header>
    <main id="page"></main>`,
  app,
);
const page = document.getElementById("page") as HTMLElement;

let current: AbortController | undefined;

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
  mount(parseRoute(location.hash), root, current.signal);
}

window.addEventListener("hashchange", show);
show();
