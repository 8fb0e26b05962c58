/**
 * The post-game reveal drawn next to the board: every seat's hidden cards (hands, pockets,
 * sold piles) and what else the game kept face down (the deck, set-aside cards, sealed
 * choices), from the view's `revealed_*` fields. The history page asks WatchGame for the
 * revealed view of every version once the game is over (`revealed`), so each step shows
 * every hand as it was then; a finished game's own final view carries the fields too.
 *
 * Each game's renderer says what its view reveals (`GameRenderer.revealed`, its cards drawn
 * by the game's own card drawing); this lays it out the same for every game. A view
 * without revealed fields (any view before the end) draws nothing: the page only ever
 * shows what the referee sent it.
 */
import type { View } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import { t } from "../i18n/index.js";
import { seatLabel } from "../table.js";
import { rendererFor } from "./index.js";
import type { MoreReveal, Reveal, SeatReveal } from "./types.js";
import "./reveal.css";

/** The game's reveal of `view` (its renderer's `revealed`); undefined when it has none. */
function revealOf(view: View): Reveal | undefined {
  try {
    return rendererFor(view.game)?.revealed?.(view);
  } catch (error) {
    console.error("renderer failed", error);
    return undefined;
  }
}

function seatRow(view: View, row: SeatReveal): TemplateResult {
  return html`<div class="reveal-seat" data-testid="revealed-hand" data-seat="${row.seat}">
    <span class="reveal-name">${seatLabel(view, row.seat)}</span>
    <div class="reveal-cards">${row.cards.length ? row.cards : html`<span class="muted">${t("page.reveal.noCards")}</span>`}</div>
    ${row.notes.length ? html`<span class="reveal-notes">${row.notes.join(" · ")}</span>` : nothing}
  </div>`;
}

function moreBlock(more: MoreReveal[]): TemplateResult | typeof nothing {
  const shown = more.filter((item) => item.cards.length || item.text);
  if (!shown.length) return nothing;
  return html`<details class="reveal-more" data-testid="revealed-more">
    <summary>${t("page.reveal.more")}</summary>
    ${shown.map(
      (item) => html`<div class="reveal-item" data-testid="${item.testid ?? nothing}">
        <span class="reveal-name">${item.label}</span>
        ${item.cards.length ? html`<div class="reveal-cards">${item.cards}</div>` : nothing}
        ${item.text ? html`<span class="reveal-notes">${item.text}</span>` : nothing}
      </div>`,
    )}
  </details>`;
}

/**
 * The reveal of `view`, next to its board: every seat's hidden cards at that version and
 * what else lay face down. Nothing for a view that reveals nothing (before the end).
 */
export function revealPanel(view: View | undefined): TemplateResult | typeof nothing {
  const reveal = view === undefined ? undefined : revealOf(view);
  if (view === undefined || reveal === undefined) return nothing;
  const more = moreBlock(reveal.more);
  if (!reveal.seats.length && more === nothing) return nothing;
  return html`<section class="reveal" data-testid="revealed" data-version="${String(view.version)}">
    <h3>${t(view.revealed ? "page.reveal.atStep" : "page.reveal.atEnd")}</h3>
    ${reveal.seats.map((row) => seatRow(view, row))} ${more}
  </section>`;
}
