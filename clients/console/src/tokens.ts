/**
 * Where the page keeps the secrets it is given: session storage, one tab's, gone when the
 * tab closes. A token is sent only as the `authorization` header of a call (never in a
 * request URL, a log line or the console), and a link that carries one keeps it in the
 * fragment, which browsers never send.
 */

/** The kinds of secret, each for one id: a seat's token of a game, an admin token. */
export type TokenKind = "seat" | "table-admin" | "tournament-admin" | "participant";

const key = (kind: TokenKind, id: string): string => `referee:${kind}:${id}`;

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined; // storage disabled: the page forgets on reload
  }
}

const fallback = new Map<string, string>();

/** Keep `token` for `id` in this tab. */
export function keepToken(kind: TokenKind, id: string, token: string): void {
  const store = storage();
  if (store) store.setItem(key(kind, id), token);
  else fallback.set(key(kind, id), token);
}

/** The token kept for `id`, if any. */
export function tokenOf(kind: TokenKind, id: string): string | undefined {
  const store = storage();
  return (store ? store.getItem(key(kind, id)) : fallback.get(key(kind, id))) ?? undefined;
}

/** Forget the token kept for `id` (the seat was left, or it was replaced). */
export function forgetToken(kind: TokenKind, id: string): void {
  storage()?.removeItem(key(kind, id));
  fallback.delete(key(kind, id));
}

/**
 * Drop a secret from the address bar: `#/play/<id>/<token>` becomes `#/play/<id>`, so
 * it is neither bookmarked nor shown over a shoulder. No navigation, no hashchange.
 */
export function hideSecret(route: string): void {
  history.replaceState(history.state, "", `${location.pathname}${location.search}${route}`);
}

/** A fresh move id: 128 random bits as hex (crypto.randomUUID needs a secure context). */
export function moveId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
