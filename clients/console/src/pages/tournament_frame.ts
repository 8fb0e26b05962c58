/**
 * The frame both token pages of a tournament draw (the admin's, `tournament_admin.ts`, and
 * a participant's, `tournament_claim.ts`): the head with the status badge and a link to the
 * public page, the stream's problem, then the page's own body once the tournament came.
 */
import type { Tournament } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import type { ApiProblem } from "../api.js";
import { gameTitle } from "../games/index.js";
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
  const t = frame.tournament;
  return html`<div class="tadmin">
    <div class="page-head">
      <h1>${t ? `${gameTitle(t.game)} tournament` : "Tournament"}: ${frame.heading}</h1>
      ${t
        ? html`<span class="badge ${statusName(t.status)}" data-testid=${frame.statusId} data-status=${statusName(t.status)}
            >${statusLine(t.status, t.currentRound, t.rounds)}</span
          >`
        : nothing}
      <a href=${links.tournament(frame.id)}>tournament page</a>
    </div>
    ${problemBox(frame.problem, retryNote(frame.retrying))}
    ${t ? body(t) : frame.problem ? nothing : html`<p class="muted">Loading…</p>`}
  </div>`;
}
