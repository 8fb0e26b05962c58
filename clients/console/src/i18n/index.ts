/**
 * The console's languages: English, Dutch and German (the games come from Dutch and German
 * editions; each part of the catalogue uses those editions' own terms).
 *
 * Every string a page shows goes through `t(key, params)`. The catalogue is one typed map,
 * assembled in `catalogue.ts` from one part per area (the chrome and pages, each game, the
 * errors); a part gives every key in all three languages, or the build fails (see
 * `Part`). A key the catalogue does not know is drawn as `⟦key⟧`, which the browser tests
 * look for on every page in every language.
 *
 * The language is the one chosen with the switch (kept in localStorage), else the first of
 * the browser's languages we have, else English.
 */
import { CATALOGUE, type Key } from "./catalogue.js";
import type { Lang, Params } from "./types.js";

export { LANGS, type Lang, type Params } from "./types.js";
export type { Key } from "./catalogue.js";

const STORED = "referee.console.lang";

/** The language to show: the stored choice, else the browser's first known one, else en. */
function detect(): Lang {
  const stored = safeStorage()?.getItem(STORED);
  if (isLang(stored)) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split("-")[0];
    if (isLang(base)) return base;
  }
  return "en";
}

function isLang(value: unknown): value is Lang {
  return value === "en" || value === "nl" || value === "de";
}

function safeStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined; // storage blocked: the choice lasts for this page only
  }
}

let current: Lang = detect();
document.documentElement.lang = current;

/** The language pages are drawn in now. */
export function lang(): Lang {
  return current;
}

/** Choose `next` (kept for later visits); the caller draws the page again. */
export function setLang(next: Lang): void {
  current = next;
  document.documentElement.lang = next;
  safeStorage()?.setItem(STORED, next);
}

/**
 * The sentence of `key` in the current language, with `{name}` placeholders filled from
 * `params` (a missing parameter stays visible as `{name}`, an unknown key as `⟦key⟧`).
 */
export function t(key: Key, params: Params = {}): string {
  const text: string | undefined = CATALOGUE[current][key];
  if (text === undefined) return `⟦${key}⟧`;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : String(value);
  });
}

/** Numbers as the current language writes them (1,000 / 1.000). */
export function num(value: number | bigint): string {
  return new Intl.NumberFormat(current).format(value);
}
