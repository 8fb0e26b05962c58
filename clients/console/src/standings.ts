/**
 * Standings tables: which standings a tournament shows now, and their drawing.
 */
import { create, StandingSchema, type Standing, type Tournament } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import { t } from "./i18n/index.js";
import { botName, points, rating } from "./ui.js";

/** The standings to show and what they are. */
export interface CurrentStandings {
  standings: Standing[];
  /** "final ranking", "after round 2", "before round 1". */
  caption: string;
  /** True when no round is complete yet (everyone at 0, start ratings). */
  provisional: boolean;
  /** The round these standings are after; 0 before any round is complete. */
  afterRound: number;
}

/**
 * The final ranking once there is one, else the standings of the last round that has
 * them, else everyone at zero in participant order with their current ratings.
 */
export function currentStandings(tournament: Tournament): CurrentStandings {
  if (tournament.finalRanking.length > 0) {
    const afterRound = tournament.roundResults.at(-1)?.number ?? 0;
    return { standings: tournament.finalRanking, caption: t("page.standings.final"), provisional: false, afterRound };
  }
  const last = [...tournament.roundResults].reverse().find((round) => round.standings.length > 0);
  if (last !== undefined) {
    return {
      standings: last.standings,
      caption: t("page.standings.afterRound", { round: last.number }),
      provisional: false,
      afterRound: last.number,
    };
  }
  const standings = tournament.participants.map((participant, position) =>
    create(StandingSchema, {
      rank: position + 1,
      participant: participant.index,
      name: participant.name,
      rating: tournament.ratings.find((entry) => entry.participant === participant.index),
    }),
  );
  return { standings, caption: t("page.standings.none"), provisional: true, afterRound: 0 };
}

/** The full standings table of the tournament page. */
export function standingsTable(tournament: Tournament): TemplateResult {
  const { standings, caption, provisional, afterRound } = currentStandings(tournament);
  const gang = tournament.game === "the_gang";
  const bots = new Map(tournament.participants.map((p) => [p.index, botName(p.bot)]));
  return html`<table
    class="standings${provisional ? " provisional" : ""}"
    data-testid="standings"
    data-after-round="${afterRound}"
  >
    <caption>
      ${t("page.standings.caption", { caption })}
    </caption>
    <thead>
      <tr>
        <th class="num" scope="col">#</th>
        <th scope="col">${t("page.standings.name")}</th>
        <th class="num" scope="col">${t("page.standings.points")}</th>
        ${gang ? html`<th class="num" scope="col" title="${t("page.standings.alarmsHint")}">${t("page.standings.alarms")}</th>` : nothing}
        <th scope="col">${t("page.standings.rating")}</th>
        <th class="num" scope="col">${t("page.standings.tables")}</th>
        <th class="num" scope="col">${t("page.standings.byes")}</th>
      </tr>
    </thead>
    <tbody>
      ${standings.map(
        (standing) => html`<tr
          data-testid="standing-row"
          data-participant="${standing.participant}"
          class="${standing.rank === 1 && !provisional ? "leader" : ""}"
        >
          <td class="num" data-testid="standing-rank">${standing.rank}</td>
          <td data-testid="standing-name">
            ${standing.name}${bots.get(standing.participant) ? html` <span class="tag">${bots.get(standing.participant)}</span>` : nothing}
          </td>
          <td class="num points" data-testid="standing-points">${points(standing.points)}</td>
          ${gang ? html`<td class="num" data-testid="standing-alarms">${standing.alarms}</td>` : nothing}
          <td data-testid="standing-rating">${rating(standing.rating)}</td>
          <td class="num" data-testid="standing-tables">${standing.tablesPlayed}</td>
          <td class="num" data-testid="standing-byes">${standing.byes}</td>
        </tr>`,
      )}
    </tbody>
  </table>`;
}

/** The short standings of the tournament list: rank, name, points, rating. */
export function standingsSummary(tournament: Tournament, top = 5): TemplateResult {
  const { standings, caption, provisional } = currentStandings(tournament);
  const shown = standings.slice(0, top);
  return html`<div class="table-scroll"><table class="standings compact">
    <caption>
      ${t("page.standings.caption", { caption })}
    </caption>
    <thead>
      <tr>
        <th class="num" scope="col">#</th>
        <th scope="col">${t("page.standings.name")}</th>
        <th class="num" scope="col">${t("page.standings.pointsShort")}</th>
        <th scope="col">${t("page.standings.ratingShort")}</th>
      </tr>
    </thead>
    <tbody>
      ${shown.map(
        (standing) => html`<tr data-participant="${standing.participant}">
          <td class="num">${standing.rank}</td>
          <td>${standing.name}</td>
          <td class="num points">${provisional ? "–" : points(standing.points)}</td>
          <td>${rating(standing.rating)}</td>
        </tr>`,
      )}
      ${standings.length > top
        ? html`<tr>
            <td></td>
            <td colspan="3" class="muted">${t("page.standings.more", { count: standings.length - top })}</td>
          </tr>`
        : nothing}
    </tbody>
  </table></div>`;
}
