/** The catalogue's shapes, apart from it so a part can import them without a cycle. */

export const LANGS = ["en", "nl", "de"] as const;
export type Lang = (typeof LANGS)[number];

/** A sentence's `{name}` values. */
export type Params = Readonly<Record<string, string | number | bigint>>;

/**
 * One area's sentences in every language. Write a part as
 * `export const part = { en: {...}, nl: {...}, de: {...} } satisfies Part<keyof typeof en>`
 * with `en` declared first: a key missing from (or extra in) nl or de fails the build.
 * Keys carry the area's prefix ("gang.", "pinched.", "gof.", "page.", "error.", "rating.").
 */
export type Part<K extends string> = { readonly [L in Lang]: Readonly<Record<K, string>> };
