/**
 * Sending a call again after a transport failure, as the Python client does: a transport
 * wrapper that retries the reads and SubmitMove on Unavailable / DeadlineExceeded, each
 * try with its own deadline, a move under the one `clientMoveId` it was first sent with.
 */
import { Code, ConnectError, createContextKey, type Transport } from "@connectrpc/connect";
import type { DescMethod, MessageInitShape } from "@bufbuild/protobuf";

import { RefereeService, type SubmitMoveRequestSchema } from "./gen/referee/v1/referee_pb.js";
import { LobbyService } from "./gen/referee/v1/lobby_pb.js";
import { TournamentService } from "./gen/referee/v1/tournament_pb.js";
import { RatingService } from "./gen/referee/v1/ratings_pb.js";

/** Exponential pauses: `initialMs * multiplier ** n`, at most `maximumMs`; with `jitter`
 * each is drawn from its upper half, so clients that failed together do not retry in step. */
export interface Backoff {
  initialMs: number;
  multiplier: number;
  maximumMs: number;
  jitter: boolean;
}

/** How a call is tried again: up to `attempts` more times, on the status codes in `codes`. */
export interface RetryPolicy {
  attempts: number;
  backoff: Backoff;
  codes: readonly Code[];
}

/** 5 more tries, 0.1 s to 2 s apart, on Unavailable and DeadlineExceeded. */
export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 5,
  backoff: { initialMs: 100, multiplier: 2, maximumMs: 2000, jitter: true },
  codes: [Code.Unavailable, Code.DeadlineExceeded],
};

/** One try: every failure is thrown at once. */
export const NO_RETRY: RetryPolicy = { ...DEFAULT_RETRY, attempts: 0 };

/**
 * A call's own policy, in its call options:
 * `client.getView(request, { contextValues: createContextValues().set(retryPolicy, NO_RETRY) })`.
 * Unset (undefined): the transport's.
 */
export const retryPolicy = /*@__PURE__*/ createContextKey<RetryPolicy | undefined>(undefined, {
  description: "referee retry policy",
});

/**
 * The methods `retryingTransport` tries again: the reads, which change nothing, and
 * SubmitMove, whose `clientMoveId` makes a resend answer with the first result
 * (`duplicate` set) instead of moving twice. Never CreateGame, CreateTournament,
 * ClaimSeat or the lobby's changes (JoinGame, StartGame, ...): a lost answer may hide a
 * game or tournament that exists, a code used up or a seat taken.
 */
export const RETRIED_METHODS: ReadonlySet<DescMethod> = /*@__PURE__*/ new Set<DescMethod>([
  RefereeService.method.getView,
  RefereeService.method.listLegalMoves,
  RefereeService.method.validateMove,
  RefereeService.method.getHistory,
  RefereeService.method.verifyHistory,
  RefereeService.method.submitMove,
  TournamentService.method.getTournament,
  TournamentService.method.listTournaments,
  LobbyService.method.listGames,
  RatingService.method.getRating,
  RatingService.method.listRatingHistory,
  RatingService.method.listLeaderboard,
]);

/** A fresh move id (32 hex digits), from `crypto.getRandomValues` (any page, any runtime). */
export function newMoveId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Options of `retryingTransport`: the policy's fields (default `DEFAULT_RETRY`'s) and
 * which methods are retried (default `RETRIED_METHODS`). */
export interface RetryingOptions extends Partial<RetryPolicy> {
  methods?: ReadonlySet<DescMethod>;
}

function* delays({ initialMs, multiplier, maximumMs, jitter }: Backoff): Generator<number> {
  for (let delay = initialMs; ; delay = Math.min(maximumMs, delay * multiplier)) {
    yield jitter ? delay / 2 + (Math.random() * delay) / 2 : delay;
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const cancelled = () => {
      clearTimeout(timer);
      reject(new ConnectError("the call was cancelled while waiting to retry", Code.Canceled));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", cancelled);
      resolve();
    }, ms);
    if (signal?.aborted) cancelled();
    signal?.addEventListener("abort", cancelled, { once: true });
  });
}

/**
 * `thrown` as a ConnectError. `fetch` rejects with a TypeError when the network fails
 * (refused, reset, offline), which Connect reports as Unknown: that is Unavailable here.
 */
function failureOf(thrown: unknown): ConnectError {
  const failure = ConnectError.from(thrown);
  if (failure.code !== Code.Unknown || !(failure.cause instanceof TypeError)) return failure;
  return new ConnectError(failure.rawMessage, Code.Unavailable, failure.metadata, [], thrown);
}

/** The SubmitMove request with its move id: the caller's, else one made now, once. */
function withMoveId<I>(method: DescMethod, input: I): I {
  if (method !== RefereeService.method.submitMove) return input;
  const submit = input as MessageInitShape<typeof SubmitMoveRequestSchema>;
  return (submit.clientMoveId ? input : { ...submit, clientMoveId: newMoveId() }) as I;
}

/**
 * `transport`, with the methods in `options.methods` tried again after a failure whose code
 * is in the policy's `codes`: the same request each time (a move keeps its `clientMoveId`;
 * one is made before the first try when the request has none), each try with the call's
 * whole `timeoutMs`. The caller's `signal` cancels the pauses too. When the tries run out,
 * the last error is thrown (same code and details; its message counts the tries; a failed
 * `fetch` is Unavailable). Every
 * other method and every stream passes through untouched. Use it under a client:
 * `createRefereeClient(retryingTransport(transport), token)`.
 */
export function retryingTransport(transport: Transport, options: RetryingOptions = {}): Transport {
  const { methods = RETRIED_METHODS, ...policy } = options;
  const fallback: RetryPolicy = { ...DEFAULT_RETRY, ...policy };
  return {
    async unary(method, signal, timeoutMs, header, input, contextValues) {
      if (!methods.has(method)) {
        return transport.unary(method, signal, timeoutMs, header, input, contextValues);
      }
      const chosen = contextValues?.get(retryPolicy) ?? fallback;
      const request = withMoveId(method, input);
      const waits = delays(chosen.backoff);
      for (let tries = 1; ; tries++) {
        try {
          return await transport.unary(method, signal, timeoutMs, header, request, contextValues);
        } catch (thrown) {
          const failure = failureOf(thrown);
          if (signal?.aborted || !chosen.codes.includes(failure.code)) throw thrown;
          if (tries > chosen.attempts) {
            const message = `${failure.rawMessage} (gave up after ${tries} tries)`;
            const gaveUp = new ConnectError(message, failure.code, failure.metadata, [], failure);
            gaveUp.details = failure.details; // the referee's ErrorInfo, for refereeError
            throw gaveUp;
          }
          await pause(waits.next().value as number, signal);
        }
      }
    },
    stream: (method, signal, timeoutMs, header, input, contextValues) =>
      transport.stream(method, signal, timeoutMs, header, input, contextValues),
  };
}
