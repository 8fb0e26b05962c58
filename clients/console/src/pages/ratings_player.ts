/**
 * `#/ratings/<game>/<player>`: one player's rating in a game now (GetRating) and its rated
 * games, newest first, a page at a time (ListRatingHistory): when, a link to the game's
 * replay (and its tournament), the place in words ("2nd of 4"; The Gang: "cracked the
 * vaults" or "caught") and the change of rating. A player never rated in the game
 * (NOT_FOUND) gets a friendly "no rated games yet", not an error. The seat the player held
 * is never shown: seats are not how people know each other.
 */
import type { PlayerRating, RatingChange } from "@referee/client/web";
import { html, nothing, render, type TemplateResult } from "lit-html";

import { isAbort, problemOf, ratings, type ApiProblem } from "../api.js";
import { gameTitle } from "../games/index.js";
import { num, t } from "../i18n/index.js";
import { Retry } from "../retry.js";
import { links, problemBox } from "../ui.js";
import {
  PagedList,
  RATED_GAMES,
  decimal,
  focusRow,
  gameSwitcher,
  moreBlock,
  placeWords,
  playerIdNote,
  playerWords,
  ratingLinks,
  signed,
  skillCell,
  when,
} from "./ratings_parts.js";

/** Rated games per page. */
export const HISTORY_PAGE = 20;

/** What GetRating said: the rating, "never rated here", or nothing yet. */
type Current = { state: "loading" } | { state: "rated"; rating: PlayerRating } | { state: "unrated" };

function changeCell(change: RatingChange): TemplateResult {
  const before = change.before?.ordinal ?? 0;
  const after = change.after?.ordinal ?? 0;
  const delta = after - before;
  const direction = delta > 0.005 ? "up" : delta < -0.005 ? "down" : "same";
  const label = t("rating.change.label", { before: decimal(before), after: decimal(after) });
  return html`<span class="rating-change ${direction}"
    ><strong data-testid="history-delta">${signed(delta)}</strong> <small class="muted">${label}</small></span
  >`;
}

function historyRow(game: string, change: RatingChange, position: number): TemplateResult {
  const at = when(change.atUnixMs);
  return html`<tr data-testid="history-row" data-position="${position}" data-game-id="${change.gameId}">
    <td data-testid="history-when">${at}</td>
    <td>
      <span class="rating-links"
        ><a href="${links.history(change.gameId)}" aria-label="${t("rating.history.replayOf", { when: at })}"
          >${t("rating.history.replay")}</a
        >${change.tournamentId
          ? html`<a
              href="${links.tournament(change.tournamentId)}"
              aria-label="${t("rating.history.tournamentOf", { when: at })}"
              >${t("rating.history.tournament")}</a
            >`
          : nothing}</span
      >
    </td>
    <td class="rating-place" data-testid="history-place">${placeWords(game, change.place, change.seats)}</td>
    <td data-testid="history-change">${changeCell(change)}</td>
  </tr>`;
}

function historyTable(game: string, changes: RatingChange[]): TemplateResult {
  return html`<div class="table-scroll">
    <table class="standings rating-history" data-testid="rating-history">
      <caption>
        ${t("rating.history.caption", { game: gameTitle(game) })}
      </caption>
      <thead>
        <tr>
          <th scope="col">${t("rating.col.when")}</th>
          <th scope="col">${t("rating.col.game")}</th>
          <th scope="col">${t("rating.col.place")}</th>
          <th scope="col">${t("rating.col.change")}</th>
        </tr>
      </thead>
      <tbody>
        ${changes.map((change, position) => historyRow(game, change, position))}
      </tbody>
    </table>
  </div>`;
}

function currentBlock(game: string, current: Current): TemplateResult {
  if (current.state === "loading") return html`<p class="muted">${t("page.loading")}</p>`;
  if (current.state === "unrated") {
    return html`<p class="panel empty" data-testid="rating-none">${t("rating.player.none", { game: gameTitle(game) })}</p>`;
  }
  const { rating } = current;
  const played = rating.games === 1 ? t("rating.player.playedOne") : t("rating.player.played", { count: num(rating.games) });
  return html`<section class="panel rating-now" data-testid="rating-now" aria-labelledby="rating-now-title">
    <h2 id="rating-now-title">${t("rating.player.current")}</h2>
    <p class="rating-value" data-testid="rating-value">${skillCell(rating.skill)}</p>
    <p class="muted">
      <span data-testid="rating-games">${played}</span> ·
      ${t("rating.player.updated", { when: when(rating.updatedAtUnixMs) })}
    </p>
  </section>`;
}

function historyLine(list: PagedList<RatingChange>): string {
  const count = list.items.length;
  return count === 1 ? t("rating.history.shownOne") : t("rating.history.shown", { count: num(count) });
}

export function mountPlayer(root: HTMLElement, signal: AbortSignal, game: string, player: string): void {
  let current: Current = { state: "loading" };
  let problem: ApiProblem | undefined;
  const known = RATED_GAMES.includes(game);

  const draw = () => {
    const rating = current.state === "rated" ? current.rating : undefined;
    const name = rating?.name ?? "";
    const listed = current.state === "rated" && list.items.length > 0;
    render(
      html`<div class="ratings-page" data-testid="player-page" data-game="${game}">
        <div class="page-head">
          <h1 data-testid="player-name">${playerWords(player, name)}</h1>
          ${playerIdNote(player, name)}
          <a href="${ratingLinks.leaderboard(game)}" data-testid="leaderboard-link"
            >${t("rating.player.back", { game: known ? gameTitle(game) : game })}</a
          >
        </div>
        ${gameSwitcher(game, (other) => ratingLinks.player(other, player), t("rating.player.otherGames"))}
        ${problemBox(problem ?? list.problem, (problem ?? list.problem)?.permanent === false ? t("error.retrying") : "")}
        ${problem && current.state === "loading" ? nothing : currentBlock(game, current)}
        ${listed
          ? html`<section aria-labelledby="rating-history-title">
              <h2 id="rating-history-title" class="rating-section">${t("rating.history.title")}</h2>
              ${historyTable(game, list.items)} ${moreBlock(list, historyLine(list))}
            </section>`
          : nothing}
      </div>`,
      root,
    );
  };
  const list: PagedList<RatingChange> = new PagedList(
    async (pageToken, pageSignal) => {
      const page = await ratings.listRatingHistory(
        { game, playerId: player, pageSize: HISTORY_PAGE, pageToken },
        { signal: pageSignal },
      );
      return { items: page.changes, next: page.nextPageToken };
    },
    signal,
    (added) => {
      draw();
      focusRow(root, added);
    },
  );

  const retry = new Retry(() => void load(), signal);
  const load = async (): Promise<void> => {
    try {
      const answer = await ratings.getRating({ game, playerId: player }, { signal });
      current = answer.rating ? { state: "rated", rating: answer.rating } : { state: "unrated" };
      problem = undefined;
      retry.succeeded();
      if (current.state === "rated") void list.more();
    } catch (error) {
      if (isAbort(error, signal)) return;
      const found = problemOf(error);
      if (found.reason === "RATING_NOT_FOUND") current = { state: "unrated" };
      else problem = found;
      if (!found.permanent) retry.later();
    }
    draw();
  };
  draw();
  void load();
}
