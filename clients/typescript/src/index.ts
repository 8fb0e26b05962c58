/**
 * The Referee client: generated messages and service (protoc-gen-es v2, from proto/), a
 * typed client factory, seat authentication, typed rejections and retries after a
 * transport failure (`retryingTransport`). Transports come from the "./node" (gRPC,
 * Connect JSON) and "./web" (fetch) entries.
 */
import {
  Code,
  ConnectError,
  createClient,
  createContextValues,
  type Client,
  type ContextValues,
  type Interceptor,
  type Transport,
} from "@connectrpc/connect";

import { ErrorInfoSchema } from "./gen/google/rpc/error_details_pb.js";
import { RefereeService, type GetHistoryResponse } from "./gen/referee/v1/referee_pb.js";
import { LobbyService } from "./gen/referee/v1/lobby_pb.js";
import { TournamentService } from "./gen/referee/v1/tournament_pb.js";
import { RatingService } from "./gen/referee/v1/ratings_pb.js";

export * from "./gen/referee/v1/referee_pb.js";
export * from "./gen/referee/v1/game_pb.js";
export * from "./gen/referee/v1/the_gang_pb.js";
export * from "./gen/referee/v1/gang_of_four_pb.js";
export * from "./gen/referee/v1/pinched_pb.js";
export * from "./gen/referee/v1/tournament_pb.js";
export * from "./gen/referee/v1/table_pb.js";
export * from "./gen/referee/v1/lobby_pb.js";
export * from "./gen/referee/v1/ratings_pb.js";
export { ErrorInfoSchema, type ErrorInfo } from "./gen/google/rpc/error_details_pb.js";
export {
  Code,
  ConnectError,
  createContextValues,
  type Client,
  type ContextValues,
  type Interceptor,
  type Transport,
};
export {
  DEFAULT_RETRY,
  NO_RETRY,
  RETRIED_METHODS,
  newMoveId,
  retryPolicy,
  retryingTransport,
  type Backoff,
  type RetryPolicy,
  type RetryingOptions,
} from "./retry.js";
// The protobuf runtime's helpers, so a frontend bundles one copy of it with the messages.
export {
  create,
  fromJson,
  toJson,
  type DescMessage,
  type JsonValue,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";

/** A typed client of every RefereeService method (createGame, getView, watchGame, ...). */
export type RefereeClient = Client<typeof RefereeService>;

/** The `authorization` header value of a seat token: `Bearer <token>`. */
export function bearer(token: string): string {
  return `Bearer ${token}`;
}

/**
 * An interceptor that sends `authorization: Bearer <token>` on every call: pass it in a
 * transport's `interceptors` to make that transport act for one seat.
 */
export function bearerAuth(token: string): Interceptor {
  return (next) => async (request) => {
    request.header.set("authorization", bearer(token));
    return await next(request);
  };
}

function withAuthorization(header: HeadersInit | undefined, token: string): Headers {
  const headers = new Headers(header);
  headers.set("authorization", bearer(token));
  return headers;
}

/**
 * The transport as one seat: every call through it carries that seat's token. The
 * connection is shared, so one transport serves any number of seats.
 */
export function asSeat(transport: Transport, token: string): Transport {
  return {
    unary: (method, signal, timeoutMs, header, input, contextValues) =>
      transport.unary(
        method,
        signal,
        timeoutMs,
        withAuthorization(header, token),
        input,
        contextValues,
      ),
    stream: (method, signal, timeoutMs, header, input, contextValues) =>
      transport.stream(
        method,
        signal,
        timeoutMs,
        withAuthorization(header, token),
        input,
        contextValues,
      ),
  };
}

/**
 * A RefereeService client on `transport`. With `token` (a seat token from CreateGame)
 * every call is made as that seat; without it the caller is anonymous: fine for
 * CreateGame, and a spectator elsewhere (GetView, WatchGame and GetHistory only, on games
 * created with `allowSpectators`).
 */
export function createRefereeClient(transport: Transport, token?: string): RefereeClient {
  return createClient(RefereeService, token === undefined ? transport : asSeat(transport, token));
}

/**
 * The whole move log (GetHistory page after page, every entry in one response with the
 * last page's other fields): what VerifyHistory takes. A game that ended while its pages
 * were read is read again once from the first page, so redacted entries never mix with
 * the public ones of a finished game.
 */
export async function wholeHistory(
  client: RefereeClient,
  request: { gameId: string; pageSize?: number },
  options?: { signal?: AbortSignal },
): Promise<GetHistoryResponse> {
  for (let attempt = 0; ; attempt++) {
    const entries: GetHistoryResponse["entries"] = [];
    let pageToken = "";
    let first: GetHistoryResponse | undefined;
    for (;;) {
      const page = await client.getHistory({ ...request, pageToken }, options);
      first ??= page;
      entries.push(...page.entries);
      if (page.nextPageToken === "") {
        const endedMeanwhile = page.outcome !== undefined && first.outcome === undefined;
        if (endedMeanwhile && attempt === 0) break;
        return { ...page, entries };
      }
      pageToken = page.nextPageToken;
    }
  }
}

/** A typed client of every TournamentService method (listTournaments, watchTournament, ...). */
export type TournamentClient = Client<typeof TournamentService>;

/**
 * A TournamentService client on `transport`. With `token` (the admin token or a
 * participant's) every call is made as that caller; without it the caller is a spectator
 * (GetTournament, WatchTournament, ListTournaments, CreateTournament and ClaimSeat, which
 * trades a one-time seat code for the participant token:
 * `createTournamentClient(transport, (await lobby.claimSeat({ code })).participantToken)`).
 */
export function createTournamentClient(transport: Transport, token?: string): TournamentClient {
  return createClient(
    TournamentService,
    token === undefined ? transport : asSeat(transport, token),
  );
}

/** A typed client of every LobbyService method (joinGame, listGames, startGame, ...). */
export type LobbyClient = Client<typeof LobbyService>;

/**
 * A LobbyService client on `transport`. With `token` (a seat token, or the table admin
 * token from CreateGame) every call is made as that caller; JoinGame and ListGames need
 * none: `createRefereeClient(transport, (await lobby.joinGame({ joinCode, displayName })).seatToken)`.
 */
export function createLobbyClient(transport: Transport, token?: string): LobbyClient {
  return createClient(LobbyService, token === undefined ? transport : asSeat(transport, token));
}

/** A typed client of every RatingService method (getRating, listRatingHistory, listLeaderboard). */
export type RatingClient = Client<typeof RatingService>;

/**
 * A RatingService client on `transport`: ratings across rated tables, per game and
 * `player_id`. Every method is public, so it takes no token:
 * `(await createRatingClient(transport).listLeaderboard({ game: "pinched" })).entries`.
 */
export function createRatingClient(transport: Transport): RatingClient {
  return createClient(RatingService, transport);
}

/** The ErrorInfo domain of the referee's rejections. */
export const REFEREE_ERROR_DOMAIN = "referee.v1";

/** A rejection as the referee describes it. */
export interface RefereeError {
  /** The status: InvalidArgument, FailedPrecondition, Aborted, NotFound, ... */
  code: Code;
  /**
   * The stable UPPER_SNAKE_CASE reason of the ErrorInfo detail (domain "referee.v1"),
   * e.g. "CHIP_ALREADY_HELD"; undefined when the error did not come from the referee
   * (a network failure, a deadline).
   */
  reason: string | undefined;
  /** The readable message, without the "[code]" prefix of ConnectError.message. */
  message: string;
  /** The ErrorInfo metadata, e.g. { current_version: "12" } on Aborted. */
  metadata: Record<string, string>;
}

/** What `error` (anything a client call threw) says: code, reason, message, metadata. */
export function refereeError(error: unknown): RefereeError {
  const connectError = ConnectError.from(error);
  const info = connectError
    .findDetails(ErrorInfoSchema)
    .find((detail) => detail.domain === REFEREE_ERROR_DOMAIN);
  return {
    code: connectError.code,
    reason: info?.reason,
    message: connectError.rawMessage,
    metadata: { ...info?.metadata },
  };
}
