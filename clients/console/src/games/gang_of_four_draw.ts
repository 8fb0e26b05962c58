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
import { t, type Key } from "../i18n/index.js";
import { seatLabel } from "../table.js";
import "./gang_of_four.css";

const PHOENIX = 11;
const DRAGON = 12;
/** The game ends once a total reaches this; the lowest total wins. */
const GAME_END = 100;

/** The colour's class in cards.css. */
export const COLOURS: Record<GangOfFourColour, string> = {
  [GangOfFourColour.UNSPECIFIED]: "black",
  [GangOfFourColour.GREEN]: "green",
  [GangOfFourColour.YELLOW]: "yellow",
  [GangOfFourColour.RED]: "red",
  [GangOfFourColour.MULTICOLOURED]: "multi",
};

/**
 * Every colour also has a shape, drawn in the middle of its cards and explained in the
 * status line, so that colour is never the only sign of it.
 */
const SHAPES: Record<GangOfFourColour, string> = {
  [GangOfFourColour.UNSPECIFIED]: "?",
  [GangOfFourColour.GREEN]: "▲",
  [GangOfFourColour.YELLOW]: "●",
  [GangOfFourColour.RED]: "◆",
  [GangOfFourColour.MULTICOLOURED]: "★",
};

/** The colour as a word ("green", "Grün"), e.g. for a flush. */
const COLOUR_WORDS: Partial<Record<GangOfFourColour, Key>> = {
  [GangOfFourColour.GREEN]: "gof.colour.green",
  [GangOfFourColour.YELLOW]: "gof.colour.yellow",
  [GangOfFourColour.RED]: "gof.colour.red",
  [GangOfFourColour.MULTICOLOURED]: "gof.colour.multi",
};

/** A numbered card's name by its colour: "green {value}", "grüne {value}". */
const NUMBERED: Partial<Record<GangOfFourColour, Key>> = {
  [GangOfFourColour.GREEN]: "gof.card.green",
  [GangOfFourColour.YELLOW]: "gof.card.yellow",
  [GangOfFourColour.RED]: "gof.card.red",
};

const PHOENIXES: Partial<Record<GangOfFourColour, Key>> = {
  [GangOfFourColour.GREEN]: "gof.card.phoenix.green",
  [GangOfFourColour.YELLOW]: "gof.card.phoenix.yellow",
};

const KINDS: Record<GangOfFourCombination, Key> = {
  [GangOfFourCombination.UNSPECIFIED]: "gof.kind.play",
  [GangOfFourCombination.SINGLE]: "gof.kind.single",
  [GangOfFourCombination.PAIR]: "gof.kind.pair",
  [GangOfFourCombination.THREE_OF_A_KIND]: "gof.kind.three",
  [GangOfFourCombination.STRAIGHT]: "gof.kind.straight",
  [GangOfFourCombination.FLUSH]: "gof.kind.flush",
  [GangOfFourCombination.FULL_HOUSE]: "gof.kind.fullHouse",
  [GangOfFourCombination.STRAIGHT_FLUSH]: "gof.kind.straightFlush",
  [GangOfFourCombination.GANG]: "gof.kind.gang4",
};

/** A gang by its size: Gang of Four to Gang of Seven (all seven 1s). */
const GANGS: Partial<Record<number, Key>> = {
  4: "gof.kind.gang4",
  5: "gof.kind.gang5",
  6: "gof.kind.gang6",
  7: "gof.kind.gang7",
};

const PHASES: Record<GangOfFourPhase, Key | undefined> = {
  [GangOfFourPhase.UNSPECIFIED]: undefined,
  [GangOfFourPhase.EXCHANGE]: "gof.phase.exchange",
  [GangOfFourPhase.PLAY]: "gof.phase.play",
  [GangOfFourPhase.OVER]: "gof.phase.over",
};

/** "Ann wins", "Ann and Bo win". */
export function winnersText(names: readonly string[]): string {
  if (names.length === 1) return t("gof.wins.one", { name: names[0] });
  return t("gof.wins.many", { names: names.join(t("gof.and")) });
}

/** The winners of a finished view by name, or "" when it names none. */
export function winnersOf(view: View): string {
  const winners = view.outcome?.winners ?? [];
  return winners.length ? winnersText(winners.map((n) => seatLabel(view, n))) : "";
}

/** The line with its first letter capitalised. */
export const cap = (line: string): string => line.charAt(0).toUpperCase() + line.slice(1);

/** What the corners show: 1..10, a letter for a Phoenix ("P") and for the Dragon ("D"). */
function rank(c: GangOfFourCard): string {
  if (c.value === PHOENIX) return t("gof.rank.phoenix");
  return c.value === DRAGON ? t("gof.rank.dragon") : String(c.value);
}

/** A card's name in words, e.g. "red 7", "multicoloured 1", "yellow Phoenix", "Dragon". */
export function cardName(c: GangOfFourCard): string {
  if (c.colour === GangOfFourColour.MULTICOLOURED) return t("gof.card.multi");
  if (c.value === DRAGON) return t("gof.card.dragon");
  const key = c.value === PHOENIX ? PHOENIXES[c.colour] : NUMBERED[c.colour];
  return t(key ?? "gof.card.other", { value: c.value });
}

/** The shapes of the colours in words, for the status line: "▲ green · ● yellow …". */
function legend(): string {
  const colours = [GangOfFourColour.GREEN, GangOfFourColour.YELLOW, GangOfFourColour.RED, GangOfFourColour.MULTICOLOURED];
  return colours
    .map((c) => `${SHAPES[c]} ${t(COLOUR_WORDS[c] ?? "gof.colour.multi").toLowerCase()}`)
    .join(" · ");
}

/** A card's identity in the deck (value and colour; its `code` is for reading only). */
export const identity = (c: GangOfFourCard): string => `${c.colour}:${c.value}`;

export const keyOf = (c: GangOfFourCard): string => cardKey(GangOfFourCardSchema, c);

/**
 * A face-up card: to the eye its value in the corners and its colour's shape in the middle,
 * to a screen reader its name ("green 5", "Dragon"), which is also the name of a button
 * that holds it.
 */
export function drawCard(c: GangOfFourCard, highlight = false, small = false): TemplateResult {
  const name = cardName(c);
  const face = card(
    { key: keyOf(c), rank: rank(c), symbol: SHAPES[c.colour], colour: COLOURS[c.colour], title: name },
    { highlight, small },
  );
  return html`<span class="gof-card"><span class="sr-only">${name}</span><span class="gof-face" aria-hidden="true"
    >${face}</span></span>`;
}

/** A combination's name: "pair", "full house", "Gang of Five" ("Pärchen", "Straße"). */
export function kindName(kind: GangOfFourCombination, count: number): string {
  if (kind === GangOfFourCombination.GANG) return t(GANGS[count] ?? "gof.kind.gang4");
  return t(KINDS[kind]);
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

/** A play in words: "the red 7", "a full house 7-7-7-3-3", "a flush in green 2-4-5-8-9". */
export function playText(cards: GangOfFourCard[], kind: GangOfFourCombination): string {
  if (cards.length === 1) return t("gof.play.single", { card: cardName(cards[0]) });
  const values = cards.map(rank).join("-");
  const name = kindName(kind, cards.length);
  const flush = kind === GangOfFourCombination.FLUSH || kind === GangOfFourCombination.STRAIGHT_FLUSH;
  const colour = cards.find((c) => c.colour !== GangOfFourColour.MULTICOLOURED)?.colour;
  const word = colour === undefined ? undefined : COLOUR_WORDS[colour];
  if (flush && word) return t("gof.play.flush", { kind: name, colour: t(word), values });
  return t("gof.play.combo", { kind: name, values });
}

export function direction(d: Direction): string {
  if (d === Direction.CLOCKWISE) return t("gof.dir.clockwise");
  return d === Direction.COUNTER_CLOCKWISE ? t("gof.dir.counter") : "";
}

/** A seat's badges: the words and their class (colour is never the only sign). */
function badges(view: View, g: GangOfFourView, n: number): [string, string][] {
  const leading = g.current.length === 0 && g.turn === n && g.phase === GangOfFourPhase.PLAY;
  const found: [string, string][] = [];
  if (g.dealer === n) found.push([t("gof.badge.dealer"), "dealer"]);
  if (leading) found.push([t("gof.badge.leads"), "lead"]);
  else if (view.toAct.includes(n)) found.push([t("gof.badge.toAct"), "act"]);
  if (g.passed.includes(n)) found.push([t("gof.badge.passed"), "passed"]);
  if (g.currentBy === n && g.current.length > 0) found.push([t("gof.badge.played"), "played"]);
  if (g.announced.includes(n)) found.push([t("gof.badge.lastCard"), "last"]);
  if (g.out.includes(n)) found.push([t("gof.badge.out"), "out"]);
  if (view.outcome?.winners.includes(n)) found.push([t("gof.badge.winner"), "winner"]);
  return found;
}

/** "1 card", "5 cards" (or points: "1 pt", "12 pts"). */
function counted(count: number, one: Key, other: Key): string {
  return t(count === 1 ? one : other, { count });
}

/** A seat's hand as the view shows it to everyone: a count and a fan of backs. */
export function backs(view: View, g: GangOfFourView, n: number): TemplateResult {
  const count = g.cardCounts[n] ?? 0;
  const whose = t("gof.handOf", { name: seatLabel(view, n) });
  return html`<div class="gof-hand" data-testid="hand" data-count="${count}" title="${t("gof.cardsInHand", { count })}">
    <span class="gof-count">${counted(count, "gof.cards.one", "gof.cards.other")}</span>
    <div class="gof-fan">${Array.from({ length: count }, () => cardBack(whose, { small: true }))}</div>
  </div>`;
}

/**
 * Seat `n` with its name, total and badges, around the felt at place `place` (0 at the
 * bottom, then clockwise); `hand` is what it shows of the seat's cards.
 */
export function seatBox(view: View, g: GangOfFourView, n: number, place: number, hand: TemplateResult): TemplateResult {
  const toAct = view.toAct.includes(n);
  const total = g.totals[n] ?? 0;
  return html`<section
    class="gof-seat gof-pos-${place}-of-${g.players} ${toAct ? "gof-acting" : ""}"
    data-testid="seat"
    data-seat="${n}"
  >
    <header>
      <span class="gof-seat-name" data-testid="seat-label">${seatLabel(view, n)}</span>
      <span class="gof-total" title="${t("gof.totalTitle")}"
        >${counted(total, "gof.points.one", "gof.points.other")}</span>
    </header>
    <div class="gof-badges">
      ${badges(view, g, n).map(([text, cls]) => html`<span class="gof-badge gof-${cls}">${text}</span>`)}
    </div>
    ${hand}
  </section>`;
}

export function centre(view: View, g: GangOfFourView): TemplateResult {
  if (g.phase === GangOfFourPhase.EXCHANGE) {
    return html`<div class="gof-centre"><p class="gof-note">
      ${t("gof.exchangeNote", { name: seatLabel(view, g.turn) })}</p>${exchange(view, g)}</div>`;
  }
  if (g.phase === GangOfFourPhase.OVER) {
    const winners = winnersOf(view);
    return html`<div class="gof-centre"><p class="gof-note gof-over">${winners
      ? t("gof.overWinners", { winners })
      : t("gof.over")}</p>${g.hand > 1 && g.exchange ? exchange(view, g) : nothing}</div>`;
  }
  const play = g.current.length
    ? html`<div class="gof-play" data-testid="current-play">
        <div class="gof-play-label">${cap(kindName(g.currentKind, g.current.length))}
          ${g.currentBy !== undefined
            ? html`<span class="gof-by">${t("gof.by", { name: seatLabel(view, g.currentBy) })}</span>`
            : nothing}</div>
        <div class="gof-cards">${g.current.map((c) => drawCard(c, true))}</div>
      </div>`
    : html`<p class="gof-note">${t("gof.leadsAny", { name: seatLabel(view, g.turn) })}</p>`;
  const must = g.mustInclude
    ? html`<div class="gof-must"><span>${t("gof.mustInclude")}</span>${drawCard(g.mustInclude, false, true)}</div>`
    : nothing;
  return html`<div class="gof-centre">${play}${must}${g.hand > 1 && g.exchange ? exchange(view, g) : nothing}</div>`;
}

/** The two cards swapped before this hand; both are public. */
function exchange(view: View, g: GangOfFourView): TemplateResult | typeof nothing {
  const x = g.exchange;
  if (!x) return nothing;
  return html`<div class="gof-exchange">
    <span>${t("gof.exchange.gave", { loser: seatLabel(view, x.loser), winner: seatLabel(view, x.winner) })}</span>
    ${x.given ? drawCard(x.given, false, true) : nothing}
    ${x.returned
      ? html`<span>${t("gof.exchange.back")}</span>${drawCard(x.returned, false, true)}`
      : html`<span class="gof-waiting">${t("gof.exchange.waiting")}</span>`}
  </div>`;
}

export function scores(view: View, g: GangOfFourView): TemplateResult {
  const seats = Array.from({ length: g.players }, (_, n) => n);
  const caption = t("gof.scores.caption", { end: GAME_END });
  // A box that may scroll sideways on a phone: focusable and named, so a keyboard scrolls it.
  return html`<div class="gof-scores-box" role="region" aria-label="${caption}" tabindex="0">
    <table class="gof-scores" data-testid="scores">
    <caption>${caption}</caption>
    <thead><tr>
      <th scope="col">${t("gof.scores.hand")}</th>
      ${seats.map((n) => html`<th scope="col">${seatLabel(view, n)}</th>`)}
    </tr></thead>
    <tbody>${g.results.map((r) => html`<tr>
      <td>${r.hand}</td>
      ${seats.map((n) => html`<td class="${r.winner === n ? "gof-hand-winner" : ""}"
        title="${r.winner === n ? t("gof.scores.won") : t("gof.scores.left", { count: r.cardsLeft[n] ?? 0 })}"
        >${r.points[n] ?? 0}${r.winner === n ? " ✓" : ""}</td>`)}
    </tr>`)}</tbody>
    <tfoot><tr>
      <th scope="row">${t("gof.scores.total")}</th>${seats.map((n) => html`<th>${g.totals[n] ?? 0}</th>`)}
    </tr></tfoot>
  </table></div>`;
}

/** The line above the felt: hand, phase, direction, what the table options change, and
 * the colours' shapes. */
export function statusLine(g: GangOfFourView): TemplateResult {
  const phase = PHASES[g.phase];
  return html`<div class="gof-status">
    <span>${t("gof.status.hand")} <b>${g.hand}</b></span>
    ${phase ? html`<span>${t("gof.status.phase")} <b>${t(phase)}</b></span>` : nothing}
    <span>${t("gof.status.direction")} <b>${direction(g.direction)}</b></span>
    ${g.setAsideCount ? html`<span>${t("gof.status.setAside", { count: g.setAsideCount })}</span>` : nothing}
    ${g.autoAnnounceLastCard ? html`<span>${t("gof.status.autoAnnounce")}</span>` : nothing}
    <span class="gof-legend" data-testid="colour-legend">${t("gof.legend")} ${legend()}</span>
  </div>`;
}
