/**
 * `#/ratings/<game>`: a game's leaderboard (RatingService.ListLeaderboard): its rated
 * players by rating (the ordinal, μ − 3σ, highest first), read a page at a time with
 * "More". Each player links to its page (pages/ratings_player.ts). Players are shown by
 * name (a bot by its kind), never by a seat or a raw bot id.
 */
import type { LeaderboardEntry } from "@referee/client/web";
import { html, nothing, render, type TemplateResult } from "lit-html";

import { ratings } from "../api.js";
import { gameTitle } from "../games/index.js";
import { num, t } from "../i18n/index.js";
import { problemBox } from "../ui.js";
import {
  PagedList,
  RATED_GAMES,
  focusRow,
  gameSwitcher,
  moreBlock,
  playerIdNote,
  playerWords,
  ratingLinks,
  skillCell,
} from "./ratings_parts.js";

export { mountPlayer } from "./ratings_player.js";

/** Players per page. */
export const LEADERBOARD_PAGE = 20;

function row(game: string, entry: LeaderboardEntry, position: number): TemplateResult {
  const rating = entry.rating;
  const playerId = rating?.playerId ?? "";
  const name = rating?.name ?? "";
  return html`<tr data-testid="leader-row" data-position="${position}" data-player-id="${playerId}">
    <td class="num" data-testid="leader-rank">${num(entry.rank)}</td>
    <td class="rating-player" data-testid="leader-name">
      <a href="${ratingLinks.player(game, playerId)}">${playerWords(playerId, name)}</a>${playerIdNote(playerId, name)}
    </td>
    <td data-testid="leader-rating">${skillCell(rating?.skill)}</td>
    <td class="num" data-testid="leader-games">${num(rating?.games ?? 0)}</td>
  </tr>`;
}

function table(game: string, entries: LeaderboardEntry[]): TemplateResult {
  return html`<div class="table-scroll">
    <table class="standings leaderboard" data-testid="leaderboard">
      <caption>
        ${t("rating.caption", { game: gameTitle(game) })}
      </caption>
      <thead>
        <tr>
          <th class="num" scope="col">${t("rating.col.rank")}</th>
          <th scope="col">${t("rating.col.player")}</th>
          <th scope="col">${t("rating.col.rating")}</th>
          <th class="num" scope="col">${t("rating.col.games")}</th>
        </tr>
      </thead>
      <tbody>
        ${entries.map((entry, position) => row(game, entry, position))}
      </tbody>
    </table>
  </div>`;
}

/** "20 players shown." while there are more, "23 players: that is everyone." at the end. */
function shownLine(list: PagedList<LeaderboardEntry>): string {
  const count = list.items.length;
  if (list.next === "") return t("rating.shownAll", { count: num(count) });
  return count === 1 ? t("rating.shownOne") : t("rating.shown", { count: num(count) });
}

/** A game this console does not know: say so, and offer the ones it does. */
function unknownGame(root: HTMLElement, game: string): void {
  render(
    html`<div class="ratings-page">
      <div class="page-head"><h1>${t("rating.nav")}</h1></div>
      <p data-testid="rating-unknown-game">${t("rating.unknownGame", { game })}</p>
      ${gameSwitcher("", ratingLinks.leaderboard, t("rating.games"))}
    </div>`,
    root,
  );
}

export function mountLeaderboard(root: HTMLElement, signal: AbortSignal, named: string): void {
  const game = named || (RATED_GAMES[0] ?? "");
  if (!RATED_GAMES.includes(game)) return unknownGame(root, named);

  const draw = () => {
    const body = !list.started
      ? list.problem
        ? nothing
        : html`<p class="muted">${t("page.loading")}</p>`
      : list.items.length === 0
        ? html`<p class="muted empty panel" data-testid="rating-empty">${t("rating.empty", { game: gameTitle(game) })}</p>`
        : table(game, list.items);
    render(
      html`<div class="ratings-page" data-testid="leaderboard-page" data-game="${game}">
        <div class="page-head"><h1>${t("rating.leaderboard", { game: gameTitle(game) })}</h1></div>
        ${gameSwitcher(game, ratingLinks.leaderboard, t("rating.games"))}
        <p class="facts muted rating-hint">${t("rating.hint")}</p>
        ${problemBox(list.problem, list.problem && !list.problem.permanent ? t("error.retrying") : "")} ${body}
        ${list.items.length > 0 ? moreBlock(list, shownLine(list)) : nothing}
      </div>`,
      root,
    );
  };
  const list: PagedList<LeaderboardEntry> = new PagedList(
    async (pageToken, pageSignal) => {
      const page = await ratings.listLeaderboard({ game, pageSize: LEADERBOARD_PAGE, pageToken }, { signal: pageSignal });
      return { items: page.entries, next: page.nextPageToken };
    },
    signal,
    (added) => {
      draw();
      focusRow(root, added);
    },
  );
  draw();
  void list.more();
}
