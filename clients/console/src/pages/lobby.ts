/**
 * The lobby's pages: the front page, creating a table, joining one, a table's admin page.
 */
import { html, render } from "lit-html";

import { mountTournaments } from "./tournaments.js";

export function mountLobby(root: HTMLElement, signal: AbortSignal): void {
  mountTournaments(root, signal);
}

function notYet(root: HTMLElement, what: string): void {
  render(html`<p class="muted">${what}: not built yet.</p>`, root);
}

export function mountNewTable(root: HTMLElement, _signal: AbortSignal): void {
  notYet(root, "Creating a table");
}

export function mountJoin(root: HTMLElement, _signal: AbortSignal, _id: string, _code: string): void {
  notYet(root, "Joining a table");
}

export function mountTableAdmin(root: HTMLElement, _signal: AbortSignal, _id: string): void {
  notYet(root, "A table's admin page");
}
