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
import { mountTournament } from "./pages/tournament.js";
import { mountTournaments } from "./pages/tournaments.js";
import { parseRoute, type Route } from "./router.js";
import { links } from "./ui.js";

const app = document.getElementById("app") ?? document.body;

render(
  html`<header class="top">
      <a class="brand" href="${links.home()}"><span class="logo">♠</span> Referee console</a>
      <nav><a href="${links.home()}">Tournaments</a></nav>
      <span class="api muted" title="the referee this page asks">${apiBase}</span>
    </header>
    <main id="page"></main>`,
  app,
);
const page = document.getElementById("page") as HTMLElement;

let current: AbortController | undefined;

function mount(route: Route, root: HTMLElement, signal: AbortSignal): void {
  switch (route.page) {
    case "tournaments":
      return mountTournaments(root, signal);
    case "tournament":
      return mountTournament(root, signal, route.id);
    case "game":
      return mountGame(root, signal, route.id);
    case "history":
      return mountHistory(root, signal, route.id);
    case "unknown":
      render(html`<p>Nothing here. <a href="${links.home()}">Back to the tournaments</a>.</p>`, root);
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
