/**
 * Following a server stream that may drop: WatchGame and WatchTournament both resume with
 * `afterVersion` = the last version seen, so after a drop (a proxy timeout, a referee
 * restart) we call again from there until the stream says it is done or we leave the page.
 *
 * Only the call's failures make us call again. A message we fail to handle (the page's
 * drawing threw) is the page's bug, not the stream's: it is logged and shown, and the
 * stream goes on, since calling again cannot draw it any better.
 */
import {
  TableStatus,
  TournamentStatus,
  type RefereeClient,
  type TournamentClient,
  type WatchGameResponse,
  type WatchTournamentResponse,
} from "@referee/client/web";

import { isAbort, problemOf, type ApiProblem } from "./api.js";

export interface FollowOptions<T> {
  /** Open the stream, resuming after `afterVersion` when it is set. */
  open(afterVersion: bigint | undefined, signal: AbortSignal): AsyncIterable<T>;
  /** The version a message brings us to. */
  version(message: T): bigint;
  /** Handle one message. */
  message(message: T): void;
  /** True when no later message can come (the game or tournament is over). */
  final(message: T): boolean;
  /**
   * A failure: `retrying` tells whether we call again. Also a message `message` threw on
   * (code "console_error", never retried: the stream goes on).
   */
  problem(problem: ApiProblem, retrying: boolean): void;
  /** The first version to resume after; unset to start from a snapshot. */
  afterVersion?: bigint;
  signal: AbortSignal;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/** The page failed to handle a message: a problem to show, not an API error. */
function consoleProblem(error: unknown, version: bigint): ApiProblem {
  const text = error instanceof Error ? error.message : String(error);
  return { code: "console_error", reason: "", message: `could not show version ${version}: ${text}`, permanent: true };
}

/** Follow the stream until it is final, fails for good, or `signal` aborts. */
export async function follow<T>(options: FollowOptions<T>): Promise<void> {
  const { signal } = options;
  let after = options.afterVersion;
  let delay = 500;
  /** The last message received was final: nothing can come after `after`. */
  let over = false;

  /** `options.problem`, which draws: a page that cannot draw must not end the follow. */
  const report = (problem: ApiProblem, retrying: boolean): void => {
    try {
      options.problem(problem, retrying);
    } catch (error) {
      console.error("showing a problem failed", problem, error);
    }
  };
  /** `options.message`, with what it throws kept apart from the call's errors. */
  const handle = (message: T, version: bigint): void => {
    try {
      options.message(message);
    } catch (error) {
      console.error(`the page failed on version ${version} of the stream`, error);
      report(consoleProblem(error, version), false);
    }
  };

  while (!signal.aborted) {
    try {
      for await (const message of options.open(after, signal)) {
        after = options.version(message);
        delay = 500;
        // Judged before the page handles it, so a page that fails on the final message
        // still ends here: resuming after it would get a stream the referee ends at once
        // (a finished game or tournament has nothing to send), again and again.
        over = options.final(message);
        handle(message, after);
        if (over) return;
      }
      // Ended without a final message: the server closed it early; resume.
    } catch (error) {
      // Nothing can come after a final message, whatever closing the call threw.
      if (over || isAbort(error, signal)) return;
      const problem = problemOf(error);
      report(problem, !problem.permanent);
      if (problem.permanent) return;
    }
    await sleep(delay, signal);
    delay = Math.min(delay * 2, 4000);
  }
}

/** What a page does with what a game's or a tournament's stream brings. */
export interface Followed<T> {
  message(message: T): void;
  problem(problem: ApiProblem, retrying: boolean): void;
}

/**
 * Follow game `gameId` from a snapshot through `referee` (the public client, or a token's,
 * whose view is then the seat's) until it ends: an outcome, or the table aborted.
 */
export function followGame(
  referee: RefereeClient,
  gameId: string,
  signal: AbortSignal,
  on: Followed<WatchGameResponse>,
): Promise<void> {
  return follow({
    signal,
    open: (afterVersion, callSignal) => referee.watchGame({ gameId, afterVersion }, { signal: callSignal }),
    version: (message) => message.version,
    message: (message) => on.message(message),
    final: (message) => message.view?.outcome !== undefined || message.view?.table?.status === TableStatus.ABORTED,
    problem: (problem, retrying) => on.problem(problem, retrying),
  });
}

/** Follow tournament `tournamentId` through `tournaments` (public, or a token's) until it is finished. */
export function followTournament(
  tournaments: TournamentClient,
  tournamentId: string,
  signal: AbortSignal,
  on: Followed<WatchTournamentResponse>,
): Promise<void> {
  return follow({
    signal,
    open: (afterVersion, callSignal) => tournaments.watchTournament({ tournamentId, afterVersion }, { signal: callSignal }),
    version: (message) => message.tournament?.version ?? 0n,
    message: (message) => on.message(message),
    final: (message) => message.tournament?.status === TournamentStatus.FINISHED,
    problem: (problem, retrying) => on.problem(problem, retrying),
  });
}
