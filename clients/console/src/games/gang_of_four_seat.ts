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
 */
import { GangOfFourPhase, type GangOfFourCard, type GangOfFourView, type Move, type View } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";
import {
  backs,
  cardName,
  centre,
  classify,
  drawCard,
  identity,
  playText,
  scores,
  seatBox,
  statusLine,
} from "./gang_of_four_draw.js";
import { seatLabel } from "../table.js";
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

function ownHand(g: GangOfFourView, o: Offer, controls: SeatControls): TemplateResult {
  const picks = picksOf(controls);
  const acting = controls.legal.length > 0;
  return html`<div class="gof-own-hand" data-testid="own-hand" data-count="${g.cards.length}">
    ${g.cards.map((c, i) => {
      const on = picks.includes(i);
      const usable = o.held.has(identity(c));
      return html`<button
        type="button"
        class="gof-pick ${on ? "gof-picked" : ""} ${acting && !usable ? "gof-unusable" : ""}"
        data-testid="pick"
        data-index="${i}"
        aria-pressed="${on ? "true" : "false"}"
        aria-label="${cardName(c)}"
        ?disabled=${controls.busy || !(on || usable)}
        @click=${() => toggle(i, g, o, controls)}
      >
        ${drawCard(c)}
      </button>`;
    })}
  </div>`;
}

function hint(view: View, g: GangOfFourView, o: Offer, p: Picked): string {
  if (o.giveBacks.length) {
    const to = g.exchange ? seatLabel(view, g.exchange.loser) : "the last hand's loser";
    if (p.giveBack) return `Give back the ${cardName(p.giveBack.cards[0])} to ${to}.`;
    return `Pick the card to give back to ${to}.`;
  }
  if (p.play) {
    if (p.forms.size === 2 && !p.announce) {
      return "This play leaves you one card: say “Last card!”, or you are out of the hand.";
    }
    return `Ready: ${playText(p.play.cards, classify(p.play.cards))}.`;
  }
  if (p.ids.length) return "Keep picking: these cards are part of a play you can make, not one yet.";
  if (!o.plays.length) return "You cannot beat the play on the table: pass.";
  if (g.current.length === 0) return "You lead: pick cards that form a combination.";
  return `Pick cards that beat the play on the table${o.pass ? ", or pass" : ""}.`;
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
                  @click=${setAnnounce}>Last card!</button>`
              : nothing}
            <button type="button" class="gof-primary" data-testid="play" data-move-kind="play"
              data-announce="${play ? String(play.announce) : nothing}" ?disabled=${busy || !play}
              @click=${() => play && controls.submit(play.move)}>
              ${play ? `Play ${playText(play.cards, classify(play.cards))}` : "Play"}
            </button>`
        : nothing}
      ${o.giveBacks.length
        ? html`<button type="button" class="gof-primary" data-testid="give-back" data-move-kind="giveBack"
            ?disabled=${busy || !giveBack} @click=${() => giveBack && controls.submit(giveBack.move)}>
            ${giveBack ? `Give back the ${cardName(giveBack.cards[0])}` : "Give back"}
          </button>`
        : nothing}
      ${pass
        ? html`<button type="button" data-testid="pass" data-move-kind="pass" ?disabled=${busy}
            @click=${() => controls.submit(pass)}>Pass</button>`
        : nothing}
      ${p.ids.length
        ? html`<button type="button" data-testid="clear-picks" ?disabled=${busy} @click=${clear}>Clear</button>`
        : nothing}
    </div>
  </div>`;
}

/** The seat's own place: its name and badges, its hand, its moves. */
function own(view: View, g: GangOfFourView, o: Offer, controls: SeatControls): TemplateResult {
  return seatBox(view, g, controls.seat, 0, html`${ownHand(g, o, controls)}${actions(view, g, o, controls)}`);
}

export function seat(view: View, controls: SeatControls): TemplateResult {
  if (view.gameView.case !== "gangOfFour") return html`<p>Not a Gang of Four view.</p>`;
  const g = view.gameView.value;
  const o = offer(controls.legal);
  const me = controls.seat;
  const others = Array.from({ length: g.players }, (_, n) => n).filter((n) => n !== me);
  const place = (n: number): number => (n - me + g.players) % g.players;
  return html`<div
    class="gof-table gof-seat-table gof-players-${g.players}"
    data-testid="gof-seat"
    data-legal="${controls.legal.length}"
    data-busy="${String(controls.busy)}"
    data-over="${String(g.phase === GangOfFourPhase.OVER)}"
  >
    ${statusLine(g)}
    <div class="gof-felt gof-seat-felt">
      ${others.map((n) => seatBox(view, g, n, place(n), backs(g, n)))}
      <div class="gof-middle">${centre(view, g)}</div>
      ${own(view, g, o, controls)}
    </div>
    ${scores(view, g)}
  </div>`;
}
