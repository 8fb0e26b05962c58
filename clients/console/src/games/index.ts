/**
 * The game renderers by published game name (`View.game`, `Tournament.game`).
 */
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

/** The display name of `game`: its renderer's title, else the raw name. */
export function gameTitle(game: string): string {
  return rendererFor(game)?.title ?? game;
}
