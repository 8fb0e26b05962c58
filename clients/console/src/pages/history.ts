/**
 * `#/game/<id>/history`: a game step by step. GetHistory gives the moves, their events
 * and (once the game is over) the seed; WatchGame from version 0 replays every version's
 * view, so each step can show the board as it was: the spectator's while the game goes on,
 * and once it is over the post-game reveal (`revealed`: every hand at every step, drawn by
 * games/reveal.ts). "Verify" sends the history and the views, as received, to VerifyHistory.
 *
 * The stream starts once the first GetHistory says whether the game is over: a finished
 * game is watched revealed from the start; a live one plainly, and when it ends the page
 * watches it again revealed, from version 0, and those views replace the first ones.
 */
import { wholeHistory, type GetHistoryResponse, type View } from "@referee/client/web";
import { render } from "lit-html";

import { isAbort, problemOf, referee } from "../api.js";
import { follow } from "../follow.js";
import { Retry } from "../retry.js";
import { sha256Hex, verify } from "../verify.js";
import { historyPage, type HistoryModel } from "./history_view.js";

/** How often a live game's history is fetched again, at most. */
const REFRESH_MS = 2000;

export function mountHistory(root: HTMLElement, signal: AbortSignal, id: string): void {
  const model: HistoryModel = {
    id,
    history: undefined,
    views: new Map<bigint, View>(),
    step: 0,
    problem: undefined,
    streamProblem: undefined,
    verifying: { state: "idle" },
    seedCheck: undefined,
    streamDone: false,
    revealed: false,
    actions: {
      go: (step: number) => {
        model.step = Math.max(0, Math.min(step, steps()));
        draw();
      },
      verify: () => void runVerify(),
    },
  };
  /** Every view in the order received: what VerifyHistory gets. */
  const received: View[] = [];
  let fetching: Promise<void> | undefined;
  /** The newest version the stream brought. */
  let latest = 0n;

  const steps = () => model.history?.entries.length ?? 0;
  const draw = () => render(historyPage(model), root);

  const runVerify = async () => {
    if (model.history === undefined || model.verifying.state === "running") return;
    model.verifying = { state: "running" };
    draw();
    model.verifying = await verify(model.history, [...received], signal);
    draw();
  };

  /** The next try after a transient failure of GetHistory. */
  const retry = new Retry(() => void load(), signal);
  /**
   * A game still being played: its history is fetched again at most every REFRESH_MS,
   * not at every move (each fetch is the whole log). The board follows the stream anyway.
   */
  let lastLoad = 0;
  let refresh: ReturnType<typeof setTimeout> | undefined;
  const refreshSoon = () => {
    if (refresh !== undefined || fetching !== undefined || retry.pending || signal.aborted) return;
    refresh = setTimeout(
      () => {
        refresh = undefined;
        void load();
      },
      Math.max(0, lastLoad + REFRESH_MS - Date.now()),
    );
  };
  signal.addEventListener("abort", () => clearTimeout(refresh), { once: true });

  const load = (): Promise<void> =>
    (fetching ??= (async () => {
      lastLoad = Date.now();
      try {
        const history: GetHistoryResponse = await wholeHistory(referee, { gameId: id }, { signal });
        // Whether we were showing the last step, judged now: the user may have stepped
        // back while the call was out.
        const atEnd = model.history === undefined || model.step === steps();
        // A verification is of one history: a longer one needs its own.
        if (model.history !== undefined && model.history.version !== history.version) model.verifying = { state: "idle" };
        model.history = history;
        model.problem = undefined;
        // Start at the end (the final board); stay at the end while the game goes on.
        if (atEnd) model.step = history.entries.length;
        if (!streaming) watchViews(history.seed.length > 0);
        if (history.seed.length > 0 && model.seedCheck === undefined) {
          const digest = await sha256Hex(history.seed);
          model.seedCheck = digest === undefined ? "unavailable" : digest === history.seedSha256 ? "match" : "mismatch";
        }
        retry.succeeded();
      } catch (error) {
        if (isAbort(error, signal)) return;
        model.problem = problemOf(error);
        // A restarting referee or a network blip passes: try again, waiting longer each
        // time. An unknown game or one without spectators stays shown.
        if (!model.problem.permanent) retry.later();
      } finally {
        fetching = undefined;
      }
      draw();
      // Versions that came while we were fetching: fetch again.
      if (model.problem === undefined && model.history !== undefined && latest > model.history.version) refreshSoon();
    })());

  const onKey = (event: KeyboardEvent) => {
    // Inputs handle their own keys (the slider steps on arrows by itself).
    if (event.target instanceof HTMLInputElement || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowLeft") model.actions.go(model.step - 1);
    else if (event.key === "ArrowRight") model.actions.go(model.step + 1);
    else if (event.key === "Home") model.actions.go(0);
    else if (event.key === "End") model.actions.go(steps());
  };
  window.addEventListener("keydown", onKey);
  signal.addEventListener("abort", () => window.removeEventListener("keydown", onKey), { once: true });

  /** The view stream has been started (it waits for the first history). */
  let streaming = false;
  /**
   * Every version's view from version 0; `revealed` (the game is over): its post-game
   * reveal. A plain stream that sees the end is followed by a revealed one.
   */
  const watchViews = (revealed: boolean): void => {
    streaming = true;
    model.revealed = revealed;
    received.length = 0;
    if (revealed && (model.history?.entries.length ?? 0) === 0) {
      model.streamDone = true; // nothing to replay: the game ended before any move
      return;
    }
    let ended = false;
    // Verify waits for this: the views it sends are all we will get (every version of a
    // finished game, or what came before the stream failed for good).
    const streamed = follow({
      signal,
      afterVersion: 0n,
      open: (afterVersion, callSignal) =>
        referee.watchGame({ gameId: id, afterVersion, revealed }, { signal: callSignal }),
      version: (message) => message.version,
      message: (message) => {
        if (message.version > latest) latest = message.version;
        if (message.view) {
          model.views.set(message.version, message.view);
          received.push(message.view);
        }
        model.streamProblem = undefined;
        // A version the history does not hold yet: the game went on, fetch it again soon.
        // While a failed fetch waits to be tried again, that try will do it.
        if (model.history !== undefined && message.version > model.history.version) refreshSoon();
        draw();
      },
      final: (message) => {
        ended = message.view?.outcome !== undefined;
        // A revealed stream ends at the last version (an aborted table has no outcome).
        return ended || (revealed && model.history !== undefined && message.version >= model.history.version);
      },
      problem: (problem, retrying) => {
        model.streamProblem = { problem, retrying };
        draw();
      },
    });
    void streamed.then(() => {
      if (!revealed && ended && !signal.aborted) return watchViews(true);
      model.streamDone = true;
      draw();
    });
  };

  draw();
  void load();
}
