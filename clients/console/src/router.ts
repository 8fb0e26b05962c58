/**
 * Hash routes, so the bundle works as plain static files under /console/:
 *   #/                          the lobby: open and live tables, create or join one
 *   #/new                       create a table
 *   #/join/<id>[/<code>]        join a table (a join link carries its code)
 *   #/play/<id>[/<token>]       play one seat (a seat link carries its token, which the
 *                               page moves to session storage and out of the address bar)
 *   #/table/<id>/admin          a table's admin page (admin token in session storage)
 *   #/tournaments               tournaments
 *   #/tournaments/new           create a tournament
 *   #/tournament/<id>           one tournament, live
 *   #/tournament/<id>/admin     a tournament's admin page
 *   #/claim/<id>[/<code>]       redeem a tournament seat code
 *   #/game/<id>                 one table as a spectator, live
 *   #/game/<id>/history         one game's history, step by step, with verification
 *   #/ratings[/<game>]          a game's leaderboard (the first game when none is named)
 *   #/ratings/<game>/<player>   one player's rating in a game, and its history
 * Fragments never reach a server, so codes and tokens in them stay out of request URLs
 * and logs.
 */
export type Route =
  | { page: "lobby" }
  | { page: "new-table" }
  | { page: "join"; id: string; code: string }
  | { page: "play"; id: string; token: string }
  | { page: "table-admin"; id: string }
  | { page: "tournaments" }
  | { page: "new-tournament" }
  | { page: "tournament"; id: string }
  | { page: "tournament-admin"; id: string }
  | { page: "claim"; id: string; code: string }
  | { page: "game"; id: string }
  | { page: "history"; id: string }
  | { page: "leaderboard"; game: string }
  | { page: "player"; game: string; player: string }
  | { page: "unknown"; hash: string };

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Routes of the form `<first>/<id>` with an optional secret after the id. */
function withSecret(first: string, id: string, secret: string): Route | undefined {
  switch (first) {
    case "join":
      return { page: "join", id, code: secret };
    case "play":
      return { page: "play", id, token: secret };
    case "claim":
      return { page: "claim", id, code: secret };
    default:
      return undefined;
  }
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decode);
  const [first, id, rest] = parts;
  if (parts.length === 0) return { page: "lobby" };
  if (parts.length === 1 && first === "new") return { page: "new-table" };
  if (parts.length === 1 && first === "tournaments") return { page: "tournaments" };
  if (parts.length === 2 && first === "tournaments" && id === "new") return { page: "new-tournament" };
  if (first !== undefined && id && parts.length <= 3) {
    const secret = withSecret(first, id, rest ?? "");
    if (secret !== undefined) return secret;
  }
  if (first === "tournament" && id && parts.length === 2) return { page: "tournament", id };
  if (first === "tournament" && id && rest === "admin" && parts.length === 3) return { page: "tournament-admin", id };
  if (first === "table" && id && rest === "admin" && parts.length === 3) return { page: "table-admin", id };
  if (first === "game" && id && parts.length === 2) return { page: "game", id };
  if (first === "game" && id && rest === "history" && parts.length === 3) return { page: "history", id };
  if (first === "ratings" && parts.length <= 2) return { page: "leaderboard", game: id ?? "" };
  if (first === "ratings" && id && rest && parts.length === 3) return { page: "player", game: id, player: rest };
  return { page: "unknown", hash };
}
