/**
 * Gang of Four: one seat's own table with its moves. The seat's hand is face up at the
 * bottom, every card a button; the other seats show what the view shows of them (a count
 * and backs; once the game is over every hand is in the reveal below the table, `board.ts`).
 *
 * The drawing never judges a combination. It reads `controls.legal` (ListLegalMoves):
 * a card is pickable while some listed move holds it, a pick that fits no listed play
 * starts a new pick, and "Play" is enabled only when the picked cards are exactly the
 * cards of a listed play, which is what it submits. Where the list holds a play both with
 * and without `announce_last_card` (it leaves one card), the "Last card!" toggle chooses
 * between the two; where it holds only the announcing form, that is the one played. In
 * the exchange the last hand's loser gives his highest card by himself (the referee does
 * it); the winner picks the card to give back among the listed `GiveBack`s.
 *
 * By keyboard: every card is a button (Space or Enter picks it; the arrow keys, Home and
 * End move along the hand), then Tab reaches "Last card!", "Play", "Pass". When a move
 * made from the seat's own controls takes the focus with it (the buttons are disabled
 * while the others play), the focus comes back to the hand at the seat's next turn.
 */
import { GangOfFourPhase, type GangOfFourCard, type GangOfFourView, type Move, type View } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";
import { t } from "../i18n/index.js";
import {
  backs,
  cardName,
  centre,
  classify,
  drawCard,
  identity,
  kindName,
  playText,
  scores,
  seatBox,
  statusLine,
  winnersOf,
} from "./gang_of_four_draw.js";
import { seatLabel, tableState } from "../table.js";
import type { SeatControls } from "./types.js";
import "./gang_of_four_seat.css";

/** Keys of `controls.picked`: the indices of the picked hand cards, and the toggle. */
const PICKS = "gof.picks";
const ANNOUNCE = "gof.announce";

/** One listed move that takes cards: the move itself and its cards' identities, sorted. */
interface Choice {
  readonly move: Move;
  readonly cards: GangOfFourCard[];
  readonly ids: string[];
  readonly announce: boolean;
}

/** The listed moves, sorted by kind; `held`: every card some listed move takes. */
interface Offer {
  readonly plays: Choice[];
  readonly giveBacks: Choice[];
  readonly pass: Move | undefined;
  readonly held: Set<string>;
}

function offer(legal: readonly Move[]): Offer {
  const plays: Choice[] = [];
  const giveBacks: Choice[] = [];
  const held = new Set<string>();
  let pass: Move | undefined;
  const choice = (move: Move, cards: GangOfFourCard[], announce: boolean): Choice => {
    for (const c of cards) held.add(identity(c));
    return { move, cards, ids: cards.map(identity).sort(), announce };
  };
  for (const move of legal) {
    if (move.game.case !== "gangOfFour") continue;
    const action = move.game.value.action;
    if (action.case === "play") plays.push(choice(move, action.value.cards, action.value.announceLastCard));
    else if (action.case === "giveBack" && action.value.card) giveBacks.push(choice(move, [action.value.card], false));
    else if (action.case === "pass") pass = move;
  }
  return { plays, giveBacks, pass, held };
}

/** Whether the multiset `big` holds every card of `small`. */
function covers(big: readonly string[], small: readonly string[]): boolean {
  const left = new Map<string, number>();
  for (const id of big) left.set(id, (left.get(id) ?? 0) + 1);
  for (const id of small) {
    const n = left.get(id) ?? 0;
    if (n === 0) return false;
    left.set(id, n - 1);
  }
  return true;
}

function picksOf(controls: SeatControls): number[] {
  const picks = controls.picked.get(PICKS);
  return Array.isArray(picks) ? (picks as number[]) : [];
}

/** Pick or unpick hand card `index`; a card that fits no listed move with the picks so
 * far starts a new pick (in the exchange, one card is all a give-back takes). */
function toggle(index: number, g: GangOfFourView, o: Offer, controls: SeatControls): void {
  const now = picksOf(controls);
  let next: number[];
  if (now.includes(index)) {
    next = now.filter((i) => i !== index);
  } else {
    const grown = [...now, index];
    const ids = grown.map((i) => identity(g.cards[i]));
    const choices = o.giveBacks.length ? o.giveBacks : o.plays;
    next = choices.some((c) => covers(c.ids, ids)) ? grown : [index];
  }
  controls.picked.set(PICKS, next);
  controls.redraw();
}

/** What the picks make: the listed play to submit, the announcing forms listed for
 * these cards, and the listed give-back. */
interface Picked {
  readonly ids: string[];
  readonly play: Choice | undefined;
  readonly forms: ReadonlySet<boolean>;
  readonly announce: boolean;
  readonly giveBack: Choice | undefined;
}

function picked(g: GangOfFourView, o: Offer, controls: SeatControls): Picked {
  const ids = picksOf(controls).map((i) => identity(g.cards[i])).sort();
  const matched = o.plays.filter((c) => c.ids.length === ids.length && covers(c.ids, ids));
  const forms = new Set(g.autoAnnounceLastCard ? [] : matched.map((c) => c.announce));
  const announce = forms.size === 2 ? controls.picked.get(ANNOUNCE) === true : forms.has(true);
  const play = matched.find((c) => c.announce === announce) ?? matched[0];
  const giveBack = ids.length === 1 ? o.giveBacks.find((c) => c.ids[0] === ids[0]) : undefined;
  return { ids, play, forms, announce, giveBack };
}

/** The seat's own controls held the focus when its last move went: give it back to the hand. */
let refocus = false;

/** Submit `move`, remembering whether the focus was on the seat's own controls. */
function send(move: Move, controls: SeatControls): void {
  refocus = document.activeElement?.closest('[data-testid="gof-own"]') !== null;
  controls.submit(move);
}

/** Once drawn: the focus lost with the last move goes to the first card the seat may pick. */
function giveFocusBack(): void {
  queueMicrotask(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    const first = document.querySelector<HTMLButtonElement>('[data-testid="own-hand"] button:not(:disabled)');
    if (!lost || first === null) return;
    refocus = false;
    first.focus({ preventScroll: true });
  });
}

/** The arrow keys, Home and End move the focus along the hand's enabled cards. */
function moveAlong(event: KeyboardEvent): void {
  const steps: Record<string, number> = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
  if (!(event.key in steps) && event.key !== "Home" && event.key !== "End") return;
  const here = event.currentTarget as HTMLButtonElement;
  const cards = [...(here.parentElement?.querySelectorAll<HTMLButtonElement>("button:not(:disabled)") ?? [])];
  const at = cards.indexOf(here);
  const next = event.key === "Home" ? 0 : event.key === "End" ? cards.length - 1 : at + steps[event.key];
  if (next < 0 || next >= cards.length) return;
  event.preventDefault();
  cards[next].focus();
}

function ownHand(g: GangOfFourView, o: Offer, controls: SeatControls): TemplateResult {
  const picks = picksOf(controls);
  const acting = controls.legal.length > 0;
  return html`<div class="gof-own-hand" data-testid="own-hand" data-count="${g.cards.length}" role="group"
    aria-label="${t("gof.hand")}">
    ${g.cards.map((c, i) => {
      const on = picks.includes(i);
      const usable = o.held.has(identity(c));
      return html`<button
        type="button"
        class="gof-pick ${on ? "gof-picked" : ""} ${acting && !usable ? "gof-unusable" : ""}"
        data-testid="pick"
        data-index="${i}"
        aria-pressed="${on ? "true" : "false"}"
        ?disabled=${controls.busy || !(on || usable)}
        @click=${() => toggle(i, g, o, controls)}
        @keydown=${moveAlong}
      >
        ${drawCard(c)}
      </button>`;
    })}
  </div>`;
}

function hint(view: View, g: GangOfFourView, o: Offer, p: Picked): string {
  if (o.giveBacks.length) {
    const card = p.giveBack ? cardName(p.giveBack.cards[0]) : undefined;
    if (g.exchange === undefined) return card ? t("gof.hint.ready", { play: card }) : t("gof.hint.pickGiveBackAny");
    const name = seatLabel(view, g.exchange.loser);
    return card ? t("gof.hint.giveBack", { card, name }) : t("gof.hint.pickGiveBack", { name });
  }
  if (p.play) {
    if (p.forms.size === 2 && !p.announce) return t("gof.hint.announce");
    return t("gof.hint.ready", { play: playText(p.play.cards, classify(p.play.cards)) });
  }
  if (p.ids.length) return t("gof.hint.keepPicking");
  if (!o.plays.length) return t("gof.hint.cannotBeat");
  if (g.current.length === 0) return t("gof.hint.lead");
  return t(o.pass ? "gof.hint.beatOrPass" : "gof.hint.beat");
}

/** The buttons that make moves, each an entry of `controls.legal`. */
function actions(view: View, g: GangOfFourView, o: Offer, controls: SeatControls): TemplateResult | typeof nothing {
  if (controls.legal.length === 0) return nothing;
  const p = picked(g, o, controls);
  const busy = controls.busy;
  const play = p.play;
  const giveBack = p.giveBack;
  const pass = o.pass;
  const setAnnounce = (): void => {
    controls.picked.set(ANNOUNCE, !p.announce);
    controls.redraw();
  };
  const clear = (): void => {
    controls.picked.set(PICKS, []);
    controls.redraw();
  };
  return html`<div class="gof-actions" data-testid="actions">
    <p class="gof-hint" data-testid="pick-hint">${hint(view, g, o, p)}</p>
    <div class="gof-buttons">
      ${o.plays.length
        ? html`${p.forms.has(true)
              ? html`<button type="button" class="gof-announce" data-testid="announce"
                  aria-pressed="${p.announce ? "true" : "false"}" ?disabled=${busy || p.forms.size < 2}
                  @click=${setAnnounce}>${t("gof.button.lastCard")}</button>`
              : nothing}
            <button type="button" class="gof-primary" data-testid="play" data-move-kind="play"
              data-announce="${play ? String(play.announce) : nothing}" ?disabled=${busy || !play}
              @click=${() => play && send(play.move, controls)}>
              ${play
                ? t("gof.button.playThis", { play: playText(play.cards, classify(play.cards)) })
                : t("gof.button.play")}
            </button>`
        : nothing}
      ${o.giveBacks.length
        ? html`<button type="button" class="gof-primary" data-testid="give-back" data-move-kind="giveBack"
            ?disabled=${busy || !giveBack} @click=${() => giveBack && send(giveBack.move, controls)}>
            ${giveBack ? t("gof.button.giveBackThis", { card: cardName(giveBack.cards[0]) }) : t("gof.button.giveBack")}
          </button>`
        : nothing}
      ${pass
        ? html`<button type="button" data-testid="pass" data-move-kind="pass" ?disabled=${busy}
            @click=${() => send(pass, controls)}>${t("gof.button.pass")}</button>`
        : nothing}
      ${p.ids.length
        ? html`<button type="button" data-testid="clear-picks" ?disabled=${busy} @click=${clear}>
            ${t("gof.button.clear")}
          </button>`
        : nothing}
    </div>
  </div>`;
}

/** The seat's own place: its name and badges, its hand, its moves. */
function own(view: View, g: GangOfFourView, o: Offer, controls: SeatControls): TemplateResult {
  const drawn = seatBox(view, g, controls.seat, 0, html`${ownHand(g, o, controls)}${actions(view, g, o, controls)}`);
  return html`<div class="gof-own" data-testid="gof-own">${drawn}</div>`;
}

export function seat(view: View, controls: SeatControls): TemplateResult {
  if (view.gameView.case !== "gangOfFour") return html`<p>${t("gof.notThisGame")}</p>`;
  const g = view.gameView.value;
  const o = offer(controls.legal);
  const me = controls.seat;
  const others = Array.from({ length: g.players }, (_, n) => n).filter((n) => n !== me);
  const place = (n: number): number => (n - me + g.players) % g.players;
  if (refocus && controls.legal.length > 0 && !controls.busy) giveFocusBack();
  return html`<div
    class="gof-table gof-seat-table gof-players-${g.players}"
    data-testid="gof-seat"
    data-legal="${controls.legal.length}"
    data-busy="${String(controls.busy)}"
    data-over="${String(g.phase === GangOfFourPhase.OVER)}"
  >
    ${statusLine(g)}
    <div class="gof-felt gof-seat-felt">
      ${others.map((n) => seatBox(view, g, n, place(n), backs(view, g, n)))}
      <div class="gof-middle">${centre(view, g)}</div>
      ${own(view, g, o, controls)}
    </div>
    ${scores(view, g)}
  </div>`;
}

/**
 * What the seat may do now, in one line, for every phase: give a card back in the
 * exchange, lead, beat the play on the table or pass, announce the last card; else on
 * whom the table waits, or how the game ended.
 */
export function prompt(view: View, controls: SeatControls): string {
  if (view.gameView.case !== "gangOfFour") return t("gof.notThisGame");
  const g = view.gameView.value;
  const state = tableState(view);
  if (g.phase === GangOfFourPhase.OVER || state === "finished") {
    const winners = winnersOf(view);
    return winners ? t("gof.prompt.over", { winners }) : t("gof.prompt.overNobody");
  }
  if (state === "aborted") return t("gof.prompt.aborted");
  if (state === "open") return t("gof.prompt.open");
  const me = controls.seat;
  const actor = view.toAct[0];
  if (g.phase === GangOfFourPhase.EXCHANGE) {
    const loser = seatLabel(view, g.exchange?.loser ?? -1);
    if (view.toAct.includes(me)) return t("gof.prompt.giveBack", { name: loser });
    if (actor === undefined) return t("gof.prompt.waitReferee");
    return t("gof.prompt.waitGiveBack", { winner: seatLabel(view, actor), loser });
  }
  if (!view.toAct.includes(me)) {
    if (g.out.includes(me)) return t("gof.prompt.out");
    if (actor === undefined) return t("gof.prompt.waitReferee");
    const name = seatLabel(view, actor);
    return t(g.current.length === 0 ? "gof.prompt.waitLead" : "gof.prompt.waitPlay", { name });
  }
  return yourTurn(view, g, controls);
}

/** The prompt of a seat to play: lead, or beat or pass; with the last card to announce. */
function yourTurn(view: View, g: GangOfFourView, controls: SeatControls): string {
  const o = offer(controls.legal);
  const p = picked(g, o, controls);
  if (p.play && p.forms.size === 2 && !p.announce) return t("gof.prompt.announce");
  let line: string;
  if (g.current.length === 0) {
    line = g.mustInclude ? t("gof.prompt.leadMust", { card: cardName(g.mustInclude) }) : t("gof.prompt.lead");
  } else {
    const beaten = { name: seatLabel(view, g.currentBy ?? -1), kind: kindName(g.currentKind, g.current.length) };
    const loaded = controls.legal.length > 0;
    line = t(loaded && o.plays.length === 0 ? "gof.prompt.cannotBeat" : "gof.prompt.beat", beaten);
  }
  const mayAnnounce = !g.autoAnnounceLastCard && o.plays.some((c) => c.announce);
  return mayAnnounce ? `${line} ${t("gof.prompt.mayAnnounce")}` : line;
}
