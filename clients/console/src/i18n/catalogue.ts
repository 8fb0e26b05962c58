/**
 * The one catalogue: every part, merged per language. Add a part here when an area gets
 * its own file (keys are prefixed by area, so two parts never share a key).
 */
import { common } from "./parts/common.js";
import { errors } from "./parts/errors.js";
import { gangOfFour } from "./parts/gang_of_four.js";
import { pages } from "./parts/pages.js";
import { pinched } from "./parts/pinched.js";
import { ratings } from "./parts/ratings.js";
import { theGang } from "./parts/the_gang.js";
import type { Lang } from "./types.js";

const PARTS = [common, pages, errors, theGang, pinched, gangOfFour, ratings] as const;

type Merged<P> = P extends { en: infer E } ? keyof E : never;
export type Key = Merged<(typeof PARTS)[number]> & string;

function merged(lang: Lang): Readonly<Record<Key, string>> {
  return Object.assign({}, ...PARTS.map((part) => part[lang])) as Record<Key, string>;
}

export const CATALOGUE: Readonly<Record<Lang, Readonly<Record<Key, string>>>> = {
  en: merged("en"),
  nl: merged("nl"),
  de: merged("de"),
};
