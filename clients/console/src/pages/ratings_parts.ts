/**
 * What the leaderboard and the player's page share (pages/ratings.ts,
 * pages/ratings_player.ts): their links, the game switcher, players in words (a bot by
 * its kind, "Search bot", never its id `bot:search`), skills and places in the page's
 * language, and a list read page by page with a "More" button.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import type { Skill } from "@referee/client/web";

import { isAbort, problemOf, type ApiProblem } from "../api.js";
import { gameTitle, renderers } from "../games/index.js";
import { lang, t, type Key } from "../i18n/index.js";
import { Retry } from "../retry.js";

import "./ratings.css";

/** The games that have leaderboards, in the console's order; the first is the default. */
export const RATED_GAMES: readonly string[] = Object.keys(renderers);

/** `#/ratings/<game>` and `#/ratings/<game>/<player>` (router.ts), with the parts escaped. */
export const ratingLinks = {
  /** The named game's leaderboard; "" the first game's. */
  leaderboard: (game: string): string => (game ? `#/ratings/${encodeURIComponent(game)}` : "#/ratings"),
  player: (game: string, player: string): string =>
    `#/ratings/${encodeURIComponent(game)}/${encodeURIComponent(player)}`,
};

/** The id prefix of the referee's bots (`bot:search`, `bot:heuristic`, `bot:random`). */
const BOT_PREFIX = "bot:";
const BOT_WORDS: Record<string, Key> = {
  search: "rating.bot.search",
  heuristic: "rating.bot.heuristic",
  random: "rating.bot.random",
};

/** True for a player id of the referee's own bots. */
export function isBot(playerId: string): boolean {
  return playerId.startsWith(BOT_PREFIX);
}

/** A player as a person reads it: a bot by its kind, else its name, else its id. */
export function playerWords(playerId: string, name: string): string {
  if (isBot(playerId)) {
    const kind = playerId.slice(BOT_PREFIX.length);
    const key = Object.hasOwn(BOT_WORDS, kind) ? BOT_WORDS[kind] : undefined;
    return key ? t(key) : t("rating.bot.other", { kind });
  }
  return name || playerId;
}

/**
 * The player's id under its name, for telling two people of one name apart; none for a
 * bot (its kind is its name) or when the name is the id.
 */
export function playerIdNote(playerId: string, name: string): TemplateResult | typeof nothing {
  if (isBot(playerId)) return html` <span class="tag">${t("rating.botTag")}</span>`;
  if (!name || name === playerId) return nothing;
  return html`<small class="muted player-id" data-testid="player-id">${t("rating.playerId", { id: playerId })}</small>`;
}

/** A rating value as the page's language writes it, with two decimals. */
export function decimal(value: number): string {
  return new Intl.NumberFormat(lang(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}

/** A change of rating, signed ("+1.25", "−0.40"; a real minus sign). */
export function signed(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  if (rounded > 0) return `+${decimal(rounded)}`;
  if (rounded < 0) return `−${decimal(-rounded)}`;
  return decimal(0);
}

/** The ordinal (what leaderboards order by), bold, with μ ± σ beside it. */
export function skillCell(skill: Skill | undefined): TemplateResult {
  if (skill === undefined) return html`<span class="muted">–</span>`;
  const mu = decimal(skill.mu);
  const sigma = decimal(skill.sigma);
  return html`<span class="skill"
    ><strong data-testid="ordinal">${decimal(skill.ordinal)}</strong>
    <small class="muted" aria-label="${t("rating.skillLabel", { mu, sigma })}">${t("rating.skill", { mu, sigma })}</small></span
  >`;
}

/** A date and time in the page's language ("6 Dec 2025, 14:03"). */
export function when(unixMs: bigint): string {
  return new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(Number(unixMs)));
}

/** "1st", "2nd" (en), "1e" (nl), "1." (de). */
function ordinal(n: number): string {
  const category = new Intl.PluralRules(lang(), { type: "ordinal" }).select(n);
  const key: Key =
    category === "one" || category === "two" || category === "few" ? `rating.ordinal.${category}` : "rating.ordinal.other";
  return t(key, { n });
}

/**
 * A seat's place at a rated table in words: "2nd of 4"; The Gang's team either cracked
 * the vaults (place 1) or was caught.
 */
export function placeWords(game: string, place: number, seats: number): string {
  if (game === "the_gang") return t(place === 1 ? "rating.place.gangWon" : "rating.place.gangLost");
  return t("rating.place", { place: ordinal(place), n: place, seats });
}

/**
 * The game switcher: one link per game, the current one marked. `target` makes each
 * game's link (the leaderboard, or the same player in that game).
 */
export function gameSwitcher(current: string, target: (game: string) => string, label: string): TemplateResult {
  return html`<nav class="rating-games" aria-label="${label}" data-testid="rating-games">
    ${RATED_GAMES.map(
      (game) =>
        html`<a
          class="chip ${game === current ? "on" : ""}"
          href="${target(game)}"
          data-game="${game}"
          aria-current="${game === current ? "page" : "false"}"
          >${gameTitle(game)}</a
        >`,
    )}
  </nav>`;
}

/** One page of a paged listing. */
export interface Page<T> {
  items: T[];
  next: string;
}

/**
 * A listing read page by page (each answer's `next_page_token` asks for the next):
 * `more()` adds a page; a transient failure is tried again after a pause; a token the
 * referee no longer takes (PAGE_TOKEN_INVALID) starts again from the first page.
 */
export class PagedList<T> {
  items: T[] = [];
  /** The token of the next page; "" once the last page is in (or before the first). */
  next = "";
  /** The first page has come. */
  started = false;
  loading = false;
  problem: ApiProblem | undefined;
  private readonly retry: Retry;

  constructor(
    private readonly fetchPage: (token: string, signal: AbortSignal) => Promise<Page<T>>,
    private readonly signal: AbortSignal,
    /**
     * Called on every change; `added` is the position of the first new item of a page the
     * reader asked for with "More" (undefined otherwise).
     */
    private readonly changed: (added: number | undefined) => void,
  ) {
    this.retry = new Retry(() => void this.more(), signal);
  }

  /** True while there are pages to read. */
  get hasMore(): boolean {
    return !this.started || this.next !== "";
  }

  /** Read the next page; `asked`: the reader pressed "More" (their focus follows it). */
  async more(asked = false): Promise<void> {
    if (this.loading || this.retry.pending || this.signal.aborted || !this.hasMore) return;
    this.loading = true;
    this.changed(undefined);
    let added: number | undefined;
    try {
      const page = await this.fetchPage(this.next, this.signal);
      added = asked && page.items.length > 0 ? this.items.length : undefined;
      this.items.push(...page.items);
      this.next = page.next;
      this.started = true;
      this.problem = undefined;
      this.retry.succeeded();
    } catch (error) {
      if (isAbort(error, this.signal)) return;
      this.problem = problemOf(error);
      if (this.problem.reason === "PAGE_TOKEN_INVALID") this.restart();
      if (!this.problem.permanent || this.problem.reason === "PAGE_TOKEN_INVALID") this.retry.later();
    } finally {
      this.loading = false;
    }
    this.changed(added);
  }

  private restart(): void {
    this.items = [];
    this.next = "";
    this.started = false;
  }
}

/** The "More" button of a paged list, and what it has shown so far (read out when it changes). */
export function moreBlock<T>(list: PagedList<T>, shown: string): TemplateResult {
  return html`<div class="rating-more">
    <p class="muted" role="status" data-testid="rating-shown">${list.started ? shown : nothing}</p>
    ${list.started && list.next !== ""
      ? html`<button type="button" data-testid="rating-more" ?disabled=${list.loading} @click=${() => void list.more(true)}>
          ${list.loading ? t("rating.moreLoading") : t("rating.more")}
        </button>`
      : nothing}
  </div>`;
}

/**
 * After "More": the keyboard's focus goes to the first new row's link, so a keyboard user
 * reads on where the list grew (the button may be gone: that was the last page).
 */
export function focusRow(root: HTMLElement, position: number | undefined): void {
  if (position === undefined) return;
  root.querySelector<HTMLElement>(`[data-position="${position}"] a`)?.focus();
}
