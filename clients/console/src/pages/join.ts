/**
 * `#/join/<id>[/<code>]`: join a table. Its summary (a spectator's GetView, when the table
 * admits spectators), a name and the join code (from the link), JoinGame; the seat's
 * token goes to session storage and the page goes on to the seat page. A listed table
 * needs no code: it is joined by its id.
 */
import { SeatHolder, type View } from "@referee/client/web";
import { html, nothing, render, type TemplateResult } from "lit-html";

import { lobby, problemOf, referee, type ApiProblem } from "../api.js";
import { gameTitle } from "../games/index.js";
import { t } from "../i18n/index.js";
import { seatLabel, stateWord, tableState } from "../table.js";
import { tokenOf } from "../tokens.js";
import { links } from "../ui.js";
import { Action, clockWords, keepSeat, refusalBox, submitted } from "./lobby_parts.js";
import "./lobby.css";

export function mountJoin(root: HTMLElement, signal: AbortSignal, id: string, code: string): void {
  let view: View | undefined;
  let unseen: ApiProblem | undefined;
  const draw = (): void => {
    if (signal.aborted) return;
    const held = tokenOf("seat", id) !== undefined;
    render(
      html`<div class="lobby-page">
        <div class="page-head">
          <h1>${view ? t("page.join.titleGame", { game: gameTitle(view.game) }) : t("page.join.title")}</h1>
          <a href="${links.home()}">← ${t("common.tables")}</a>
        </div>
        ${summary(id, view, unseen)}
        ${held
          ? html`<p class="lobby-card" data-testid="already-seated">
              ${t("page.join.already")} <a href="${links.play(id)}">${t("page.join.playIt")}</a>
            </p>`
          : nothing}
        ${joinForm(code, action, submit)}
      </div>`,
      root,
    );
  };
  const action = new Action(draw);
  const join = (data: FormData) => {
    const joinCode = String(data.get("code") ?? "").trim();
    const request = { joinCode, gameId: joinCode ? "" : id, displayName: String(data.get("name") ?? "").trim() };
    return lobby.joinGame(request, { signal });
  };
  const submit = submitted(action, join, (joined) => {
    keepSeat(joined.gameId, joined.seat, joined.seatToken);
    location.hash = links.play(joined.gameId);
  });
  draw();
  referee.getView({ gameId: id }, { signal }).then(
    (answer) => {
      view = answer.view;
      draw();
    },
    (error: unknown) => {
      if (signal.aborted) return;
      unseen = problemOf(error);
      draw();
    },
  );
}

function summary(id: string, view: View | undefined, unseen: ApiProblem | undefined): TemplateResult {
  if (view === undefined) {
    return html`<p class="muted" data-testid="join-summary">
      ${unseen ? t("page.join.private") : t("page.loading")} <code class="dev-detail">${id}</code>
    </p>`;
  }
  const seats = view.table?.seats ?? [];
  const taken = seats.filter((seat) => seat.holder !== SeatHolder.UNSPECIFIED);
  return html`<section class="lobby-card" data-testid="join-summary" data-state="${tableState(view)}">
    <p>
      <strong>${gameTitle(view.game)}</strong> ·
      <span data-testid="join-taken">${t("page.seats.taken", { taken: taken.length, seats: view.seats })}</span> ·
      ${clockWords(view.table?.clock)} · <span class="badge ${tableState(view)}">${stateWord(tableState(view))}</span>
    </p>
    <ol class="join-seats">
      ${seats.map(
        (seat) => html`<li data-testid="join-seat">
          ${seat.holder === SeatHolder.UNSPECIFIED
            ? html`<em class="muted">${t("page.seats.openNumbered", { number: seat.seat + 1 })}</em>`
            : seatLabel(view, seat.seat)}
        </li>`,
      )}
    </ol>
  </section>`;
}

function joinForm(code: string, action: Action, submit: (event: SubmitEvent) => Promise<void>): TemplateResult {
  return html`<form class="lobby-form" data-testid="join-form" @submit=${(e: SubmitEvent) => void submit(e)}>
    <fieldset>
      <legend>${t("page.join.legend")}</legend>
      <label class="field"
        ><span>${t("page.new.name")}</span>
        <input name="name" data-testid="join-name" required maxlength="64" autocomplete="nickname" placeholder="${t("page.new.namePlaceholder")}"
      /></label>
      <label class="field"
        ><span>${t("page.join.code")} <small class="muted">${t("page.join.codeHint")}</small></span>
        <input name="code" data-testid="join-code" .value=${code} autocomplete="off" autocapitalize="characters"
      /></label>
    </fieldset>
    <div class="form-actions">
      <button class="primary" type="submit" data-testid="join" ?disabled=${action.busy}>${t(action.busy ? "page.join.joining" : "page.lobby.join")}</button>
    </div>
    ${refusalBox(action.refused)}
  </form>`;
}
