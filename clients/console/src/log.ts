/**
 * The event log: readable lines per version, newest first.
 */
import type { Event, View } from "@referee/client/web";
import { html, type TemplateResult } from "lit-html";

import { eventLine } from "./board.js";
import { t } from "./i18n/index.js";

/**
 * Events by version; a version added twice (history, then the stream) keeps its first.
 * Lines are made when drawn, so events that arrive before we know the game still read.
 */
export class EventLog {
  private readonly events = new Map<bigint, readonly Event[]>();

  /** `latest` is the newest view of the game (its name, and what events name by id). */
  constructor(
    private readonly latest: () => View | undefined,
    private readonly limit = 50,
  ) {}

  /** Record what version `version` caused; a snapshot (no events) adds nothing. */
  add(version: bigint, events: readonly Event[]): void {
    if (events.length === 0 || this.events.has(version)) return;
    this.events.set(version, events);
  }

  /** The latest `limit` lines, newest first. */
  render(): TemplateResult {
    const view = this.latest();
    const game = view?.game ?? "";
    const versions = [...this.events.keys()].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
    const rows: TemplateResult[] = [];
    for (const version of versions) {
      if (rows.length >= this.limit) break;
      const lines = (this.events.get(version) ?? []).map((event) => eventLine(game, event, view)).filter(Boolean);
      for (const line of lines.reverse()) {
        if (rows.length >= this.limit) break;
        rows.push(html`<li data-testid="log-line" data-version="${String(version)}">
          <span class="v dev-detail">${String(version)}</span>${line}
        </li>`);
      }
    }
    // Scrolls on its own: focusable and named, so a keyboard can scroll it too.
    return html`<ol class="log" data-testid="event-log" tabindex="0" aria-label="${t("page.log.title")}">
      ${rows.length ? rows : html`<li class="muted">${t("page.log.empty")}</li>`}
    </ol>`;
  }
}
