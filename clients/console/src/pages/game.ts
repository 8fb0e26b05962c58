/**
 * `#/game/<id>`: one table as a spectator, live from WatchGame. The first message is a
 * snapshot; every later one is one version with its events and the view after it.
 */
import { wholeHistory, type View } from "@referee/client/web";
import { html, nothing, render } from "lit-html";

import { isAbort, problemOf, referee, type ApiProblem } from "../api.js";
import { board, outcomeBlock } from "../board.js";
import { followGame } from "../follow.js";
import { Retry } from "../retry.js";
import { gameTitle } from "../games/index.js";
import { revealPanel } from "../games/reveal.js";
import { EventLog } from "../log.js";
import { t } from "../i18n/index.js";
import { counting, redrawWhileCounting, seatsPanel, stateWord, tableState, waitingLine } from "../table.js";
import { gameProblemNote, links, problemBox } from "../ui.js";

export function mountGame(root: HTMLElement, signal: AbortSignal, id: string): void {
  let view: View | undefined;
  let problem: ApiProblem | undefined;
  let retrying = false;
  const log = new EventLog(() => view);

  const draw = () => {
    const now = Date.now();
    const head = html`<div class="page-head">
      <h1>${view ? gameTitle(view.game) : t("page.game.fallback")}</h1>
      <code class="muted dev-detail">${id}</code>
      ${view
        ? html`<span class="badge ${tableState(view)}" data-testid="table-status">${stateWord(tableState(view))}</span>
            <span class="muted dev-detail"
              >${t("common.version", { version: "" })}<span data-testid="game-version">${String(view.version)}</span></span
            >
            <span class="to-act" data-testid="to-act">${waitingLine(view, now)}</span>`
        : nothing}
      <a class="history-nav" href="${links.history(id)}">${t("page.game.historyShort")}</a>
    </div>`;
    const history = html`<a data-testid="history-link" href="${links.history(id)}">${t("page.game.historyLink")}</a>`;
    render(
      html`${head} ${problemBox(problem, gameProblemNote(problem, retrying))}
        ${view
          ? html`${outcomeBlock(view, history)}
              <div class="game-layout">
                ${board(view)}
                <aside class="side">
                  ${view.outcome ? revealPanel(view) : nothing} ${seatsPanel(view, now)}
                  <h3>${t("page.log.title")}</h3>
                  ${log.render()}
                </aside>
              </div>`
          : problem
            ? nothing
            : html`<p class="muted">${t("page.loading")}</p>`}`,
      root,
    );
  };

  draw();
  // The countdowns and the waiting time move on between views, while the table waits.
  const clock = redrawWhileCounting(signal, draw, () => view);

  // The log starts with what happened before we came, from the history; the stream adds
  // the rest. Its first message is a snapshot, without events: when moves land between
  // the two calls, the history stops below the snapshot and the versions in between are
  // in neither, so whenever the log lacks a version the stream has passed, we fetch the
  // history again (one call at a time). A failure only leaves the early log short.
  /** Versions whose events we have (the history's entries, the stream's moves). */
  const known = new Set<bigint>();
  /** Every version from 1 to this is known. */
  let through = 0n;
  /** The newest version the stream brought. */
  let latest = 0n;
  let fetching = false;
  /** GetHistory failed for good (no spectators, unknown game): no more tries. */
  let givenUp = false;

  /** Every version up to `upto` is known (a history), or just `version` (a move's update). */
  const know = (version: bigint, upto = false) => {
    if (upto && version > through) through = version;
    else if (version > through) known.add(version);
    while (known.has(through + 1n)) {
      through += 1n;
      known.delete(through);
    }
    for (const held of known) if (held <= through) known.delete(held);
  };
  const missing = () => through < latest;
  const retry = new Retry(() => void fill(), signal);
  const fill = async (): Promise<void> => {
    if (fetching || retry.pending || givenUp || signal.aborted) return;
    fetching = true;
    try {
      const history = await wholeHistory(referee, { gameId: id }, { signal });
      for (const entry of history.entries) log.add(entry.version, entry.events);
      know(history.version, true);
      draw();
    } catch (error) {
      if (isAbort(error, signal)) return;
      console.warn("history for the log failed", error);
      if (problemOf(error).permanent) givenUp = true;
    } finally {
      fetching = false;
    }
    // Still short (a snapshot came while we were fetching, or the call failed): again,
    // a little later each time.
    if (missing() && !givenUp) retry.later();
    else retry.succeeded();
  };

  void fill();
  void followGame(referee, id, signal, {
    message: (message) => {
      if (message.view) view = message.view;
      log.add(message.version, message.events);
      // A move's update brings its version's events; a snapshot brings none.
      if (!message.snapshot) know(message.version);
      if (message.version > latest) latest = message.version;
      if (missing()) void fill();
      problem = undefined;
      draw();
      if (counting(view)) clock.resume();
    },
    problem: (next, again) => {
      problem = next;
      retrying = again;
      draw();
    },
  });
}
