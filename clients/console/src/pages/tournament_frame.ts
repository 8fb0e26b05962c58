/**
 * The frame both token pages of a tournament draw (the admin's, `tournament_admin.ts`, and
 * a participant's, `tournament_claim.ts`): the head with the status badge and a link to the
 * public page, the stream's problem, then the page's own body once the tournament came.
 */
import type { Tournament } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import type { ApiProblem } from "../api.js";
import { gameTitle } from "../games/index.js";
import { t } from "../i18n/index.js";
import { links, problemBox, retryNote, statusLine, statusName } from "../ui.js";
import "./tournament_admin.css";

export interface Frame {
  /** The tournament's id (for the link before it came). */
  id: string;
  tournament: Tournament | undefined;
  problem: ApiProblem | undefined;
  retrying: boolean;
  /** What the page is, after the tournament's name: "admin", "your games". */
  heading: string;
  /** The status badge's `data-testid`. */
  statusId: string;
}

export function tournamentFrame(frame: Frame, body: (t: Tournament) => TemplateResult): TemplateResult {
  const shown = frame.tournament;
  return html`<div class="tadmin">
    <div class="page-head">
      <h1>
        ${t("page.tournament.framed", {
          title: shown ? t("page.tournament.title", { game: gameTitle(shown.game) }) : t("page.tournament.fallback"),
          heading: frame.heading,
        })}
      </h1>
      ${shown
        ? html`<span class="badge ${statusName(shown.status)}" data-testid=${frame.statusId} data-status=${statusName(shown.status)}
            >${statusLine(shown.status, shown.currentRound, shown.rounds)}</span
          >`
        : nothing}
      <a href=${links.tournament(frame.id)}>${t("page.tournament.pageLink")}</a>
    </div>
    ${problemBox(frame.problem, retryNote(frame.retrying))}
    ${shown ? body(shown) : frame.problem ? nothing : html`<p class="muted">${t("page.loading")}</p>`}
  </div>`;
}
