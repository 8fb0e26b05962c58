/**
 * Following a server stream that may drop: WatchGame and WatchTournament both resume with
 * `afterVersion` = the last version seen, so after a drop (a proxy timeout, a referee
 * restart) we call again from there until the stream says it is done or we leave the page.
 */
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
  /** A failure: `retrying` tells whether we call again. */
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

/** Follow the stream until it is final, fails for good, or `signal` aborts. */
export async function follow<T>(options: FollowOptions<T>): Promise<void> {
  const { signal } = options;
  let after = options.afterVersion;
  let delay = 500;
  while (!signal.aborted) {
    try {
      for await (const message of options.open(after, signal)) {
        after = options.version(message);
        delay = 500;
        options.message(message);
        if (options.final(message)) return;
      }
      // Ended without a final message: the server closed it early; resume.
    } catch (error) {
      if (isAbort(error, signal)) return;
      const problem = problemOf(error);
      options.problem(problem, !problem.permanent);
      if (problem.permanent) return;
    }
    await sleep(delay, signal);
    delay = Math.min(delay * 2, 4000);
  }
}
