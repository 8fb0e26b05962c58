/**
 * The game renderers by published game name (`View.game`, `Tournament.game`).
 */
import { CATALOGUE } from "../i18n/catalogue.js";
import { t, type Key } from "../i18n/index.js";
import { gangOfFour } from "./gang_of_four.js";
import { pinched } from "./pinched.js";
import { theGang } from "./the_gang.js";
import type { GameRenderer } from "./types.js";

export type { GameRenderer } from "./types.js";

export const renderers: Record<string, GameRenderer> = {
  [theGang.game]: theGang,
  [gangOfFour.game]: gangOfFour,
  [pinched.game]: pinched,
};

/** The renderer of `game`, or undefined for a game this console does not know. */
export function rendererFor(game: string): GameRenderer | undefined {
  return Object.hasOwn(renderers, game) ? renderers[game] : undefined;
}

/**
 * The display name of `game` in the page's language (the edition's own: Pinched! is
 * Gekraakt! in Dutch), else its renderer's title, else the raw name.
 */
export function gameTitle(game: string): string {
  const key = `page.title.${game}`;
  if (Object.hasOwn(CATALOGUE.en, key)) return t(key as Key);
  return rendererFor(game)?.title ?? game;
}
