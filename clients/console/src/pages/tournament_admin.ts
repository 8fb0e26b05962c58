/**
 * A tournament's admin pages: creating one, its admin page, and redeeming a seat code.
 */
import { html, render } from "lit-html";

function notYet(root: HTMLElement, what: string): void {
  render(html`<p class="muted">${what}: not built yet.</p>`, root);
}

export function mountNewTournament(root: HTMLElement, _signal: AbortSignal): void {
  notYet(root, "Creating a tournament");
}

export function mountTournamentAdmin(root: HTMLElement, _signal: AbortSignal, _id: string): void {
  notYet(root, "A tournament's admin page");
}

export function mountClaim(root: HTMLElement, _signal: AbortSignal, _id: string, _code: string): void {
  notYet(root, "Redeeming a seat code");
}
