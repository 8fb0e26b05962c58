/**
 * `#/game/<id>`: one table as a spectator, live from WatchGame. The first message is a
 * snapshot; every later one is one version with its events and the view after it.
 */
import type { View } from "@referee/client/web";
import { html, nothing, render } from "lit-html";

import { isAbort, referee, type ApiProblem } from "../api.js";
import { board, outcomeBlock, toActLine } from "../board.js";
import { follow } from "../follow.js";
import { gameTitle } from "../games/index.js";
import { EventLog } from "../log.js";
import { gameProblemNote, links, problemBox } from "../ui.js";

export function mountGame(root: HTMLElement, signal: AbortSignal, id: string): void {
  let view: View | undefined;
  let problem: ApiProblem | undefined;
  let retrying = false;
  const log = new EventLog(() => view);

  const draw = () => {
    const head = html`<div class="page-head">
      <h1>${view ? gameTitle(view.game) : "Game"}</h1>
      <code class="muted">${id}</code>
      ${view
        ? html`<span class="badge ${view.outcome ? "finished" : "live"}">${view.outcome ? "finished" : "live"}</span>
            <span class="muted">version <span data-testid="game-version">${String(view.version)}</span></span>
            <span class="to-act" data-testid="to-act">${toActLine(view)}</span>`
        : nothing}
      <a class="history-nav" href="${links.history(id)}">history</a>
    </div>`;
    const history = html`<a data-testid="history-link" href="${links.history(id)}"
      >Step through the history and verify it →</a
    >`;
    render(
      html`${head} ${problemBox(problem, gameProblemNote(problem, retrying))}
        ${view
          ? html`<div class="game-layout">
              ${board(view)}
              <aside class="side">
                ${outcomeBlock(view, history)}
                <h3>Events</h3>
                ${log.render()}
              </aside>
            </div>`
          : problem
            ? nothing
            : html`<p class="muted">Loading…</p>`}`,
      root,
    );
  };

  draw();
  // The log starts with what happened before we came, from the history; the stream adds
  // the rest. A failure here only leaves the early log empty.
  referee
    .getHistory({ gameId: id }, { signal })
    .then((history) => {
      for (const entry of history.entries) log.add(entry.version, entry.events);
      draw();
    })
    .catch((error: unknown) => {
      if (!isAbort(error, signal)) console.warn("history for the log failed", error);
    });
  void follow({
    signal,
    open: (afterVersion, callSignal) => referee.watchGame({ gameId: id, afterVersion }, { signal: callSignal }),
    version: (message) => message.version,
    message: (message) => {
      if (message.view) view = message.view;
      log.add(message.version, message.events);
      problem = undefined;
      draw();
    },
    final: (message) => message.view?.outcome !== undefined,
    problem: (next, again) => {
      problem = next;
      retrying = again;
      draw();
    },
  });
}
