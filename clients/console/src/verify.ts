/**
 * The fairness check of the history page: the seed against its commitment in the browser
 * (when the page has WebCrypto), and the full replay by the referee's VerifyHistory.
 */
import type { GetHistoryResponse, VerifyHistoryResponse, View } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import { bulkReferee, isAbort, problemOf, type ApiProblem } from "./api.js";
import { t } from "./i18n/index.js";
import { hex, problemBox } from "./ui.js";

export type VerifyState =
  | { state: "idle" }
  | { state: "running" }
  | { state: "done"; result: VerifyHistoryResponse }
  | { state: "error"; problem: ApiProblem };

/**
 * Ask the referee to re-deal from the seed and re-run every move, comparing events,
 * outcome and our recorded views. Both are passed exactly as we received them.
 */
export async function verify(history: GetHistoryResponse, views: View[], signal: AbortSignal): Promise<VerifyState> {
  try {
    return { state: "done", result: await bulkReferee.verifyHistory({ history, views }, { signal }) };
  } catch (error) {
    if (isAbort(error, signal)) return { state: "idle" };
    return { state: "error", problem: problemOf(error) };
  }
}

/** sha256 of `seed` as hex, or undefined where WebCrypto is missing (plain http). */
export async function sha256Hex(seed: Uint8Array): Promise<string | undefined> {
  if (!globalThis.crypto?.subtle) return undefined;
  const digest = await crypto.subtle.digest("SHA-256", new Uint8Array(seed));
  return hex(new Uint8Array(digest));
}

/** The result line: "verified: …" or "differs at move N: …". */
export function verifyResult(verifying: VerifyState): TemplateResult | typeof nothing {
  switch (verifying.state) {
    case "idle":
      return nothing;
    case "running":
      return html`<p class="verify-result running" data-testid="verify-result" data-status="running">
        ${t("page.verify.running")}
      </p>`;
    case "error":
      return html`<div data-testid="verify-result" data-status="error">${problemBox(verifying.problem)}</div>`;
    case "done": {
      const { result } = verifying;
      if (result.verified) {
        return html`<p class="verify-result passed" data-testid="verify-result" data-status="passed">
          ✔ ${t("page.verify.passed", { moves: result.movesReplayed, views: result.viewsChecked })}
        </p>`;
      }
      const first = result.problems[0] ?? t("page.verify.disagrees");
      const text =
        result.firstDifferingVersion > 0n
          ? t("page.verify.differs", { number: String(result.firstDifferingVersion), first })
          : first;
      return html`<div class="verify-result failed" data-testid="verify-result" data-status="failed">
        <p>✘ ${text}</p>
        ${result.problems.length > 1
          ? html`<ul class="problems">
              ${result.problems.slice(1).map((line) => html`<li>${line}</li>`)}
            </ul>`
          : nothing}
        <p class="muted">${t("page.verify.counts", { moves: result.movesReplayed, views: result.viewsChecked })}</p>
      </div>`;
    }
  }
}
