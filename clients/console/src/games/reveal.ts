/**
 * The post-game reveal drawn next to the board: every seat's hidden cards (hands, pockets,
 * sold piles) and what else the game kept face down (the deck, set-aside cards, sealed
 * choices), from the view's `revealed_*` fields. The history page asks WatchGame for the
 * revealed view of every version once the game is over (`revealed`), so each step shows
 * every hand as it was then; a finished game's own final view carries the fields too.
 *
 * One drawer per game, registered by game name. A view without revealed fields (any view
 * before the end) draws nothing: the page only ever shows what the referee sent it.
 */
import {
  GangOfFourCardSchema,
  GangOfFourColour,
  Location,
  PlayingCardSchema,
  Suit,
  ValuableSchema,
  type GangOfFourCard,
  type PlayingCard,
  type Valuable,
  type View,
} from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import { card, cardKey } from "../cards.js";
import { seatNames } from "../table.js";
import { seatName } from "../ui.js";
import "./reveal.css";

/** One seat's hidden cards; `notes` are what is not a card (curses, a sealed choice). */
interface SeatReveal {
  seat: number;
  cards: TemplateResult[];
  notes: string[];
}

/** Something else the game hid: a labelled row of cards, or a line of text. */
interface MoreReveal {
  label: string;
  cards: TemplateResult[];
  text?: string;
}

interface Reveal {
  seats: SeatReveal[];
  more: MoreReveal[];
}

type RevealDrawer = (view: View) => Reveal | undefined;

// --- The Gang ------------------------------------------------------------------------------

const SUITS: Record<Suit, { glyph: string; colour: string; name: string }> = {
  [Suit.UNSPECIFIED]: { glyph: "★", colour: "gold", name: "no suit" },
  [Suit.CLUBS]: { glyph: "♣", colour: "black", name: "clubs" },
  [Suit.DIAMONDS]: { glyph: "♦", colour: "red", name: "diamonds" },
  [Suit.HEARTS]: { glyph: "♥", colour: "red", name: "hearts" },
  [Suit.SPADES]: { glyph: "♠", colour: "black", name: "spades" },
};
const RANKS: Record<number, string> = { 11: "J", 12: "Q", 13: "K", 14: "A" };

function playing(c: PlayingCard): TemplateResult {
  const suit = SUITS[c.suit] ?? SUITS[Suit.UNSPECIFIED];
  const rank = RANKS[c.rank] ?? String(c.rank);
  return card(
    { key: cardKey(PlayingCardSchema, c), rank, symbol: suit.glyph, colour: suit.colour, title: `${rank} of ${suit.name}` },
  );
}

const theGang: RevealDrawer = (view) => {
  if (view.gameView.case !== "theGang") return undefined;
  const g = view.gameView.value;
  const passes = new Map(g.revealedPasses.map((p) => [p.seat, p.card]));
  const seats = g.revealedPockets.map((pocket) => {
    const sealed = passes.get(pocket.seat);
    const notes = sealed ? [`chose to pass ${RANKS[sealed.rank] ?? sealed.rank}${SUITS[sealed.suit]?.glyph ?? ""}`] : [];
    return { seat: pocket.seat, cards: pocket.cards.map(playing), notes };
  });
  const informant = g.revealedAnnouncements.flatMap((a) => (a.card ? [a.card] : []));
  const more: MoreReveal[] = [
    { label: "the deck, top first", cards: g.revealedDeck.map(playing) },
    { label: "face-down discards", cards: g.revealedDiscards.map(playing) },
    { label: "shown by the Informant", cards: informant.map(playing) },
  ];
  const piles = [...g.revealedChallengePile, ...g.revealedSpecialistPile];
  if (piles.length) {
    more.push({
      label: "the piles, top first",
      cards: [],
      text: `challenges ${g.revealedChallengePile.join(", ") || "—"}; specialists ${g.revealedSpecialistPile.join(", ") || "—"}`,
    });
  }
  return { seats, more };
};

// --- Gang of Four --------------------------------------------------------------------------

const GOF_COLOURS: Record<GangOfFourColour, string> = {
  [GangOfFourColour.UNSPECIFIED]: "black",
  [GangOfFourColour.GREEN]: "green",
  [GangOfFourColour.YELLOW]: "yellow",
  [GangOfFourColour.RED]: "red",
  [GangOfFourColour.MULTICOLOURED]: "multi",
};

function gofCard(c: GangOfFourCard): TemplateResult {
  const rank = c.value === 11 ? "P" : c.value === 12 ? "D" : String(c.value);
  const colour = GOF_COLOURS[c.colour];
  return card({ key: cardKey(GangOfFourCardSchema, c), rank, symbol: rank, colour, title: `${colour} ${rank}` });
}

const gangOfFour: RevealDrawer = (view) => {
  if (view.gameView.case !== "gangOfFour") return undefined;
  const g = view.gameView.value;
  return {
    seats: g.revealedHands.map((hand) => ({ seat: hand.seat, cards: hand.cards.map(gofCard), notes: [] })),
    more: [{ label: "dealt to nobody", cards: g.revealedSetAside.map(gofCard) }],
  };
};

// --- Pinched! ------------------------------------------------------------------------------

const KINDS: Record<string, { glyph: string; colour: string }> = {
  coins: { glyph: "◉", colour: "gold" },
  gold_bars: { glyph: "▬", colour: "yellow" },
  paintings: { glyph: "▣", colour: "purple" },
  jewels: { glyph: "◆", colour: "blue" },
  statues: { glyph: "♜", colour: "green" },
  document: { glyph: "✉", colour: "black" },
};
const PLACES: Record<Location, string> = {
  [Location.UNSPECIFIED]: "",
  [Location.DIAMONDS]: "diamonds ♦",
  [Location.CLUBS]: "clubs ♣",
  [Location.SPADES]: "spades ♠",
  [Location.HEARTS]: "hearts ♥",
  [Location.BANK]: "the bank",
};

function valuable(v: Valuable): TemplateResult {
  const face = KINDS[v.kind] ?? { glyph: v.kind.charAt(0).toUpperCase() || "?", colour: "red" };
  const title = v.kind.replaceAll("_", " ");
  return card({ key: cardKey(ValuableSchema, v), rank: face.glyph, symbol: face.glyph, colour: face.colour, title });
}

const pinched: RevealDrawer = (view) => {
  if (view.gameView.case !== "pinched") return undefined;
  const p = view.gameView.value;
  const seats = p.revealedHands.map((hand, seat) => {
    const sold = p.revealedSold[seat]?.cards ?? [];
    const curses = p.revealedCurses[seat]?.curses ?? [];
    const choice = p.revealedChoices[seat];
    const notes = [
      sold.length ? `sold (last ${sold.length})` : "",
      curses.length ? `curses ${curses.map((c) => `−${c.points}`).join(" ")}` : "",
      choice ? `location card: ${PLACES[choice]}` : "",
    ].filter(Boolean);
    return { seat, cards: [...hand.cards, ...sold].map(valuable), notes };
  });
  const more: MoreReveal[] = [{ label: "the draw pile, top first", cards: p.revealedDeck.map(valuable) }];
  if (p.revealedLetter !== Location.UNSPECIFIED) more.push({ label: "the sealed letter", cards: [], text: PLACES[p.revealedLetter] });
  if (p.revealedCursePile.length) {
    more.push({ label: "the curse pile", cards: [], text: p.revealedCursePile.map((c) => `−${c.points}`).join(" ") });
  }
  return { seats, more };
};

/** The drawers by published game name. */
export const revealers: Record<string, RevealDrawer> = {
  the_gang: theGang,
  gang_of_four: gangOfFour,
  pinched,
};

function seatRow(names: string[], row: SeatReveal): TemplateResult {
  return html`<div class="reveal-seat" data-testid="revealed-hand" data-seat="${row.seat}">
    <span class="reveal-name">${seatName(row.seat, names)}</span>
    <div class="reveal-cards">${row.cards.length ? row.cards : html`<span class="muted">no cards</span>`}</div>
    ${row.notes.length ? html`<span class="reveal-notes">${row.notes.join(" · ")}</span>` : nothing}
  </div>`;
}

function moreBlock(more: MoreReveal[]): TemplateResult | typeof nothing {
  const shown = more.filter((item) => item.cards.length || item.text);
  if (!shown.length) return nothing;
  return html`<details class="reveal-more" data-testid="revealed-more">
    <summary>What else lay face down</summary>
    ${shown.map(
      (item) => html`<div class="reveal-item">
        <span class="reveal-name">${item.label}</span>
        ${item.cards.length ? html`<div class="reveal-cards">${item.cards}</div>` : nothing}
        ${item.text ? html`<span class="reveal-notes">${item.text}</span>` : nothing}
      </div>`,
    )}
  </details>`;
}

/**
 * The reveal of `view`, next to its board: every seat's hidden cards at that version and
 * what else lay face down. Nothing for a view that reveals nothing (before the end).
 */
export function revealPanel(view: View | undefined): TemplateResult | typeof nothing {
  if (view === undefined || !Object.hasOwn(revealers, view.game)) return nothing;
  const reveal = revealers[view.game](view);
  if (reveal === undefined) return nothing;
  const more = moreBlock(reveal.more);
  if (!reveal.seats.length && more === nothing) return nothing;
  const names = seatNames(view);
  return html`<section class="reveal" data-testid="revealed" data-version="${String(view.version)}">
    <h3>${view.revealed ? "Every hand at this step" : "Every hand at the end"}</h3>
    ${reveal.seats.map((row) => seatRow(names, row))} ${more}
  </section>`;
}
