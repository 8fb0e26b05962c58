/**
 * Gang of Four's drawing parts, shared by the spectator table (`gang_of_four.ts`) and a
 * seat's own table (`gang_of_four_seat.ts`): cards and their names, the seats around the
 * felt, the play to beat, the exchange, the scores. Each draws only what its view holds.
 */
import {
  Direction,
  GangOfFourCardSchema,
  GangOfFourColour,
  GangOfFourCombination,
  GangOfFourPhase,
  type GangOfFourCard,
  type GangOfFourView,
  type View,
} from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";
import { card, cardBack, cardKey } from "../cards.js";
import { seatLabel } from "../table.js";
import "./gang_of_four.css";

const PHOENIX = 11;
const DRAGON = 12;
/** The game ends once a total reaches this; the lowest total wins. */
const GAME_END = 100;

export const COLOURS: Record<GangOfFourColour, string> = {
  [GangOfFourColour.UNSPECIFIED]: "black",
  [GangOfFourColour.GREEN]: "green",
  [GangOfFourColour.YELLOW]: "yellow",
  [GangOfFourColour.RED]: "red",
  [GangOfFourColour.MULTICOLOURED]: "multi",
};

const COMBINATIONS: Record<GangOfFourCombination, string> = {
  [GangOfFourCombination.UNSPECIFIED]: "play",
  [GangOfFourCombination.SINGLE]: "single",
  [GangOfFourCombination.PAIR]: "pair",
  [GangOfFourCombination.THREE_OF_A_KIND]: "three of a kind",
  [GangOfFourCombination.STRAIGHT]: "straight",
  [GangOfFourCombination.FLUSH]: "flush",
  [GangOfFourCombination.FULL_HOUSE]: "full house",
  [GangOfFourCombination.STRAIGHT_FLUSH]: "straight flush",
  [GangOfFourCombination.GANG]: "gang",
};

const PHASES: Record<GangOfFourPhase, string> = {
  [GangOfFourPhase.UNSPECIFIED]: "",
  [GangOfFourPhase.EXCHANGE]: "card exchange",
  [GangOfFourPhase.PLAY]: "play",
  [GangOfFourPhase.OVER]: "game over",
};

export const seatName = (seat: number): string => `seat ${seat}`;
/** "seat 2 wins", "Ann and Bo win": `seats` are numbers or names. */
export const winnersText = (seats: readonly (number | string)[]): string =>
  `${seats.map((s) => (typeof s === "number" ? seatName(s) : s)).join(" and ")} ${seats.length > 1 ? "win" : "wins"}`;
/** The line with its first letter capitalised. */
export const cap = (line: string): string => line.charAt(0).toUpperCase() + line.slice(1);

/** What the corners show: 1..10, "P" for a Phoenix, "D" for the Dragon. */
function rank(c: GangOfFourCard): string {
  return c.value === PHOENIX ? "P" : c.value === DRAGON ? "D" : String(c.value);
}

/** A card's name in words, e.g. "red 7", "multicoloured 1", "yellow Phoenix". */
export function cardName(c: GangOfFourCard): string {
  if (c.colour === GangOfFourColour.MULTICOLOURED) return "multicoloured 1";
  const colour = COLOURS[c.colour];
  return `${colour} ${c.value === PHOENIX ? "Phoenix" : c.value === DRAGON ? "Dragon" : c.value}`;
}

/** A card's identity in the deck (value and colour; its `code` is for reading only). */
export const identity = (c: GangOfFourCard): string => `${c.colour}:${c.value}`;

export const keyOf = (c: GangOfFourCard): string => cardKey(GangOfFourCardSchema, c);

export function drawCard(c: GangOfFourCard, highlight = false, small = false): TemplateResult {
  const symbol = c.value === PHOENIX ? "✦" : c.value === DRAGON ? "✸" : rank(c);
  return card(
    { key: keyOf(c), rank: rank(c), symbol, colour: COLOURS[c.colour], title: cardName(c) },
    { highlight, small },
  );
}

/** A combination's name with an article: "a full house", "a gang of 5". */
function comboName(kind: GangOfFourCombination, count: number): string {
  if (kind === GangOfFourCombination.GANG) return `a gang of ${count}`;
  return `a ${COMBINATIONS[kind]}`;
}

/** Plays of one value by their size; 4 or more are a gang. */
const SAME_VALUE: Partial<Record<number, GangOfFourCombination>> = {
  1: GangOfFourCombination.SINGLE,
  2: GangOfFourCombination.PAIR,
  3: GangOfFourCombination.THREE_OF_A_KIND,
};

/**
 * The kind of a play, for move lines (a move carries only its cards; the engine checked
 * them, so this only names a legal combination). The multicoloured 1 is any colour.
 */
export function classify(cards: GangOfFourCard[]): GangOfFourCombination {
  const values = cards.map((c) => c.value).sort((a, b) => b - a);
  const counts = [...new Set(values)].map((v) => values.filter((x) => x === v).length).sort();
  if (counts.length === 1) return SAME_VALUE[cards.length] ?? GangOfFourCombination.GANG;
  if (cards.length !== 5) return GangOfFourCombination.UNSPECIFIED;
  if (counts.join() === "2,3") return GangOfFourCombination.FULL_HOUSE;
  const colours = new Set(cards.filter((c) => c.colour !== GangOfFourColour.MULTICOLOURED).map((c) => c.colour));
  const flush = colours.size <= 1;
  const straight = counts.length === 5 && values[0] - values[4] === 4;
  if (straight && flush) return GangOfFourCombination.STRAIGHT_FLUSH;
  if (straight) return GangOfFourCombination.STRAIGHT;
  return flush ? GangOfFourCombination.FLUSH : GangOfFourCombination.UNSPECIFIED;
}

/** A play in words: "a full house 7-7-7-3-3", "a single red 7", "a flush in green 2-4-5-8-9". */
export function playText(cards: GangOfFourCard[], kind: GangOfFourCombination): string {
  if (cards.length === 1) return `a single ${cardName(cards[0])}`;
  const values = cards.map(rank).join("-");
  const flush = kind === GangOfFourCombination.FLUSH || kind === GangOfFourCombination.STRAIGHT_FLUSH;
  const colour = cards.find((c) => c.colour !== GangOfFourColour.MULTICOLOURED)?.colour;
  return `${comboName(kind, cards.length)}${flush && colour ? ` in ${COLOURS[colour]}` : ""} ${values}`;
}

export function direction(d: Direction): string {
  return d === Direction.CLOCKWISE ? "clockwise ↻" : d === Direction.COUNTER_CLOCKWISE ? "counter-clockwise ↺" : "";
}

function badges(view: View, g: GangOfFourView, n: number): [string, string][] {
  const leading = g.current.length === 0 && g.turn === n && g.phase === GangOfFourPhase.PLAY;
  const found: [string, string][] = [];
  if (g.dealer === n) found.push(["dealer", "dealer"]);
  if (leading) found.push(["leads", "lead"]);
  else if (view.toAct.includes(n)) found.push(["to act", "act"]);
  if (g.passed.includes(n)) found.push(["passed", "passed"]);
  if (g.currentBy === n && g.current.length > 0) found.push(["played the play to beat", "played"]);
  if (g.announced.includes(n)) found.push(["last card!", "last"]);
  if (g.out.includes(n)) found.push(["out of the hand", "out"]);
  if (view.outcome?.winners.includes(n)) found.push(["winner", "winner"]);
  return found;
}

/** A seat's hand as the view shows it to everyone: a count and a fan of backs. */
export function backs(g: GangOfFourView, n: number): TemplateResult {
  const count = g.cardCounts[n] ?? 0;
  return html`<div class="gof-hand" data-testid="hand" data-count="${count}" title="${count} cards in hand">
    <span class="gof-count">${count} ${count === 1 ? "card" : "cards"}</span>
    <div class="gof-fan">${Array.from({ length: count }, () => cardBack(`${seatName(n)}'s hand`, { small: true }))}</div>
  </div>`;
}

/**
 * Seat `n` with its name, total and badges, around the felt at place `place` (0 at the
 * bottom, then clockwise); `hand` is what it shows of the seat's cards.
 */
export function seatBox(view: View, g: GangOfFourView, n: number, place: number, hand: TemplateResult): TemplateResult {
  const toAct = view.toAct.includes(n);
  return html`<section
    class="gof-seat gof-pos-${place}-of-${g.players} ${toAct ? "gof-acting" : ""}"
    data-testid="seat"
    data-seat="${n}"
  >
    <header>
      <span class="gof-seat-name" data-testid="seat-label">${seatLabel(view, n)}</span>
      <span class="gof-total" title="total score (lower is better)">${g.totals[n] ?? 0} ${g.totals[n] === 1 ? "pt" : "pts"}</span>
    </header>
    <div class="gof-badges">${badges(view, g, n).map(([text, cls]) => html`<span class="gof-badge gof-${cls}">${text}</span>`)}</div>
    ${hand}
  </section>`;
}

export function centre(view: View, g: GangOfFourView): TemplateResult {
  if (g.phase === GangOfFourPhase.EXCHANGE) {
    return html`<div class="gof-centre"><p class="gof-note">
      Card exchange: ${seatLabel(view, g.turn)} won the last hand and gives a card back.</p>${exchange(view, g)}</div>`;
  }
  if (g.phase === GangOfFourPhase.OVER) {
    const winners = view.outcome?.winners ?? [];
    return html`<div class="gof-centre"><p class="gof-note gof-over">Game over${winners.length
      ? html` — ${winnersText(winners.map((n) => seatLabel(view, n)))}`
      : nothing}</p>${g.hand > 1 && g.exchange ? exchange(view, g) : nothing}</div>`;
  }
  const play = g.current.length
    ? html`<div class="gof-play" data-testid="current-play">
        <div class="gof-play-label">${cap(comboName(g.currentKind, g.current.length).replace(/^an? /, ""))}
          ${g.currentBy !== undefined ? html`<span class="gof-by">by ${seatLabel(view, g.currentBy)}</span>` : nothing}</div>
        <div class="gof-cards">${g.current.map((c) => drawCard(c, true))}</div>
      </div>`
    : html`<p class="gof-note">${seatLabel(view, g.turn)} leads: any combination.</p>`;
  const must = g.mustInclude
    ? html`<div class="gof-must"><span>the opening play must include</span>${drawCard(g.mustInclude, false, true)}</div>`
    : nothing;
  return html`<div class="gof-centre">${play}${must}${g.hand > 1 && g.exchange ? exchange(view, g) : nothing}</div>`;
}

/** The two cards swapped before this hand; both are public. */
function exchange(view: View, g: GangOfFourView): TemplateResult | typeof nothing {
  const x = g.exchange;
  if (!x) return nothing;
  return html`<div class="gof-exchange">
    <span>${seatLabel(view, x.loser)} gave</span>${x.given ? drawCard(x.given, false, true) : nothing}
    <span>to ${seatLabel(view, x.winner)}</span>
    ${x.returned
      ? html`<span>and got back</span>${drawCard(x.returned, false, true)}`
      : html`<span class="gof-waiting">(waiting for the card back)</span>`}
  </div>`;
}

export function scores(view: View, g: GangOfFourView): TemplateResult {
  const seats = Array.from({ length: g.players }, (_, n) => n);
  return html`<div class="gof-scores-box"><table class="gof-scores" data-testid="scores">
    <caption>Scores (game to ${GAME_END}; lowest total wins)</caption>
    <thead><tr><th>Hand</th>${seats.map((n) => html`<th>${seatLabel(view, n)}</th>`)}</tr></thead>
    <tbody>${g.results.map((r) => html`<tr>
      <td>${r.hand}</td>
      ${seats.map((n) => html`<td class="${r.winner === n ? "gof-hand-winner" : ""}"
        title="${r.winner === n ? "won the hand" : `${r.cardsLeft[n] ?? 0} cards left`}"
        >${r.points[n] ?? 0}${r.winner === n ? " ✓" : ""}</td>`)}
    </tr>`)}</tbody>
    <tfoot><tr><th>Total</th>${seats.map((n) => html`<th>${g.totals[n] ?? 0}</th>`)}</tr></tfoot>
  </table></div>`;
}

/** The line above the felt: hand, phase, direction, and what the table options change. */
export function statusLine(g: GangOfFourView): TemplateResult {
  return html`<div class="gof-status">
    <span>Hand <b>${g.hand}</b></span>
    <span>Phase: <b>${PHASES[g.phase]}</b></span>
    <span>Direction: <b>${direction(g.direction)}</b></span>
    ${g.setAsideCount ? html`<span>${g.setAsideCount} cards set aside</span>` : nothing}
    ${g.autoAnnounceLastCard ? html`<span>last card announced by the referee</span>` : nothing}
  </div>`;
}
