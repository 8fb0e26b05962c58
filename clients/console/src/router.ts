/**
 * Hash routes, so the bundle works as plain static files under /console/:
 *   #/                     tournaments
 *   #/tournament/<id>      one tournament, live
 *   #/game/<id>            one table as a spectator, live
 *   #/game/<id>/history    one game's history, step by step, with verification
 */
export type Route =
  | { page: "tournaments" }
  | { page: "tournament"; id: string }
  | { page: "game"; id: string }
  | { page: "history"; id: string }
  | { page: "unknown"; hash: string };

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decode);
  const [first, id, rest] = parts;
  if (parts.length === 0) return { page: "tournaments" };
  if (first === "tournament" && id && parts.length === 2) return { page: "tournament", id };
  if (first === "game" && id && parts.length === 2) return { page: "game", id };
  if (first === "game" && id && rest === "history" && parts.length === 3) return { page: "history", id };
  return { page: "unknown", hash };
}
