/**
 * The console's only way to the referee: the generated Connect clients over fetch. The
 * spectator pages call without a token, so every answer they get is public: they cannot
 * draw a hidden card because they never receive one. The seat and admin pages make
 * clients of their own with `withToken`, which sends the token as `authorization` only.
 */
import {
  Code,
  createRefereeClient,
  createRefereeWebTransport,
  createLobbyClient,
  createTournamentClient,
  createRatingClient,
  refereeError,
  type LobbyClient,
  type RatingClient,
  type RefereeClient,
  type TournamentClient,
} from "@referee/client/web";

/**
 * Where the referee's HTTP port is: `?api=http://host:port` (a dev server on another
 * port), else the origin that served the page (`referee serve` serves both).
 */
export const apiBase: string = new URLSearchParams(location.search).get("api") ?? location.origin;

const transport = createRefereeWebTransport(apiBase);

export const referee: RefereeClient = createRefereeClient(transport);
export const tournaments: TournamentClient = createTournamentClient(transport);
export const lobby: LobbyClient = createLobbyClient(transport);
/** Ratings across rated tables: public, so never with a token. */
export const ratings: RatingClient = createRatingClient(transport);

/** The clients of one token's holder (a seat, a table or tournament admin). */
export interface TokenClients {
  referee: RefereeClient;
  lobby: LobbyClient;
  tournaments: TournamentClient;
}

export function withToken(token: string): TokenClients {
  return {
    referee: createRefereeClient(transport, token),
    lobby: createLobbyClient(transport, token),
    tournaments: createTournamentClient(transport, token),
  };
}

/**
 * The same service with binary protobuf bodies, for VerifyHistory: a whole game's history
 * and views are 3-5 times smaller than as JSON, and the referee reads them 3-8 times faster
 * (bench/console.py). Every other call stays JSON, readable in the network tab.
 */
export const bulkReferee: RefereeClient = createRefereeClient(
  createRefereeWebTransport(apiBase, { binary: true }),
);

/** An API failure, ready to show. */
export interface ApiProblem {
  /** The status name, e.g. "permission_denied". */
  code: string;
  /** The referee's stable reason, e.g. "SPECTATORS_NOT_ALLOWED"; "" when none. */
  reason: string;
  message: string;
  /** True when retrying cannot help (unknown id, no permission, no such method). */
  permanent: boolean;
}

const PERMANENT = new Set<Code>([
  Code.InvalidArgument,
  Code.NotFound,
  Code.PermissionDenied,
  Code.Unauthenticated,
  Code.Unimplemented,
  Code.FailedPrecondition,
]);

/** snake_case name of a status code, as the gRPC and Connect specs spell them. */
function codeName(code: Code): string {
  return (Code[code] ?? String(code)).replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
}

/** What a failed call threw, as an `ApiProblem`. */
export function problemOf(error: unknown): ApiProblem {
  const { code, reason, message } = refereeError(error);
  return { code: codeName(code), reason: reason ?? "", message, permanent: PERMANENT.has(code) };
}

/** True for the error an aborted call (we left the page) throws. */
export function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || refereeError(error).code === Code.Canceled;
}
