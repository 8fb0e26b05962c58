/**
 * The Gang's drawing parts that the spectator table (`the_gang.ts`) and the seat's own
 * table (`the_gang_seat.ts`) share: names, cards, chips, counters, the status line, the
 * board and the cards in play, and the texts of announcements and decisions.
 */
import {
  Announcement_Kind, ChallengeCard, ChipColour, PlayingCardSchema, SpecialistCard, Suit,
  TheGangMode, type Announcement, type Chip, type PlayingCard, type Proposal, type Reveal,
  type TheGangView, type UseSpecialist, type View,
} from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";
import { card, cardKey, type CardOptions } from "../cards.js";

// Names indexed by enum value (index 0 is the unspecified value).
export const COLOUR = ["?", "white", "yellow", "orange", "red"];
export const STREET = ["?", "pre-flop", "flop", "turn", "river"];
export const MODE = ["Basic", "Basic", "Advanced", "Professional", "Master Thief"];
export const HAND = ["?", "high card", "pair", "two pair", "three of a kind", "straight", "flush",
  "full house", "four of a kind", "straight flush", "royal flush"];
export const CHALLENGE = ["?", "Quick Access", "Noise Sensors", "Motion Detector", "Retina Scan",
  "Hasty Getaway", "Ventilation Shaft", "Laser Tripwires", "Blackout", "Fingerprint Scan",
  "Security Cameras"];
export const CHALLENGE_RULE = ["", "no white chips: the flop comes at once",
  "the 1★ chips of rounds 1-3 are dark", "J/Q/K on the flop: the 1★ white holder redraws",
  "guess a rank in the top red hand", "no orange chips", "the top chips of rounds 1-3 are dark",
  "no J/Q/K on the flop: the top white holder redraws", "earlier rounds' chips leave the table",
  "guess the top red hand's category", "three pocket cards each"];
export const SPECIALIST = ["?", "Informant", "Getaway Driver", "Investor", "Mastermind", "Hacker",
  "Coordinator", "Jack", "Math Whiz", "Con Artist", "Muscle"];
export const SPECIALIST_RULE = ["", "a chosen seat shows one pocket card to another",
  "a chosen seat's hand so far is announced", "everyone's J/Q/K count is announced",
  "a chosen seat tells how many of a rank he holds", "a chosen seat draws a card, then discards one",
  "everyone passes a card to the left", "a chosen seat takes the suitless Jack, then discards one",
  "everyone's pocket sum is announced", "all pockets are gathered and dealt again",
  "a chosen seat's hand beats others of its category"];

export const SUIT: Record<Suit, { glyph: string; colour: string; name: string }> = {
  [Suit.UNSPECIFIED]: { glyph: "★", colour: "gold", name: "" },
  [Suit.CLUBS]: { glyph: "♣", colour: "black", name: "clubs" },
  [Suit.DIAMONDS]: { glyph: "♦", colour: "red", name: "diamonds" },
  [Suit.HEARTS]: { glyph: "♥", colour: "red", name: "hearts" },
  [Suit.SPADES]: { glyph: "♠", colour: "black", name: "spades" },
};
export const FACES: Record<number, [string, string]> = {
  11: ["J", "jack"], 12: ["Q", "queen"], 13: ["K", "king"], 14: ["A", "ace"],
};

export const named = (names: string[], value: number): string => names[value] ?? String(value);
export const rankText = (rank: number): string => FACES[rank]?.[0] ?? String(rank);
export const rankName = (rank: number): string => FACES[rank]?.[1] ?? String(rank);
export const seats = (list: number[]): string => list.map((n) => `seat ${n}`).join(", ");
export const chipText = (colour: ChipColour, stars: number): string =>
  `${stars}★ ${named(COLOUR, colour)}`;

/** The Jack specialist card: a jack without a suit ("J*"). */
export const isJackCard = (c: PlayingCard): boolean => c.suit === Suit.UNSPECIFIED;

/** A card as log text: "A♠", "10♦", "J*". */
export function cardText(c: PlayingCard | undefined): string {
  if (!c) return "a card";
  return isJackCard(c) ? "J*" : `${rankText(c.rank)}${SUIT[c.suit].glyph}`;
}

/** A face-up playing card; the Jack card is gold with a star in place of a suit. */
export function playing(c: PlayingCard, options: CardOptions = {}): TemplateResult {
  const suit = SUIT[c.suit] ?? SUIT[Suit.UNSPECIFIED];
  const title = isJackCard(c) ? "the Jack card (no suit)" : `${rankName(c.rank)} of ${suit.name}`;
  const key = cardKey(PlayingCardSchema, c);
  return card({ key, rank: rankText(c.rank), symbol: suit.glyph, colour: suit.colour, title }, options);
}

/** A round chip: a disc of its colour with its stars; a dark one is turned to its dark side. */
export function chip(colour: ChipColour, stars: number, dark = false): TemplateResult {
  const name = named(COLOUR, colour);
  const tip = `${stars}★ ${name} chip${dark ? " (dark: stays with whoever takes it)" : ""}`;
  return html`<span class="gang-chip gang-${name}${dark ? " gang-dark" : ""}" data-testid="chip"
    data-colour="${name}" data-stars="${stars}" title="${tip}"
    ><b>${stars}</b><span class="gang-star">★</span></span>`;
}

/** A chip on the table, dark when the view lists it among the dark chips. */
export const tableChip = (g: TheGangView, c: Chip): TemplateResult =>
  chip(c.colour, c.stars, g.darkChips.some((d) => d.colour === c.colour && d.stars === c.stars));

/** A round whose chip this seat does not hold (yet). */
export const emptyChip = (colour: ChipColour): TemplateResult =>
  html`<span class="gang-chip gang-empty gang-${named(COLOUR, colour)}"
    title="no ${named(COLOUR, colour)} chip"></span>`;

export function icons(kind: "vault" | "alarm", count: number, total: number): TemplateResult {
  const label = kind === "vault" ? `${count} of ${total} vaults cracked` : `${count} of ${total} alarms set off`;
  return html`<span class="gang-counter" data-testid="${kind}s" data-count="${count}" title="${label}"
    >${Array.from({ length: Math.max(total, count) }, (_, i) =>
      html`<span class="gang-${kind}${i < count ? " gang-on" : ""}"></span>`)}
    <span class="gang-count">${count}/${total}</span></span>`;
}

/** How many pocket cards a seat holds, as the view says (`pocketSizes`, public). */
export function pocketSize(g: TheGangView, seat: number): number {
  return g.pocketSizes[seat] ?? 0;
}

export function handText(r: Reveal): string {
  return (r.description || named(HAND, r.category)) + (r.muscle ? " (Muscle)" : "");
}

/** An announcement without its seat, e.g. "Investor: 1 J/Q/K". */
export function announced(a: Announcement): string {
  switch (a.kind) {
    case Announcement_Kind.INVESTOR: return `Investor: ${a.number} J/Q/K`;
    case Announcement_Kind.MATH_WHIZ: return `Math Whiz: pocket sum ${a.number}`;
    case Announcement_Kind.GETAWAY_DRIVER: return `Getaway Driver: ${named(HAND, a.number)} so far`;
    case Announcement_Kind.MASTERMIND: return `Mastermind: ${a.number} × ${rankText(a.rank)}`;
    case Announcement_Kind.INFORMANT:
      return `Informant: shows ${cardText(a.card)} to seat ${a.toSeat ?? "?"}`;
    default: return "announcement";
  }
}

export function useText(u: UseSpecialist | undefined): string {
  if (!u) return "?";
  const viewer = u.viewer === undefined ? "" : ` (shows seat ${u.viewer})`;
  const rank = u.rank === undefined ? "" : ` (asks about ${rankName(u.rank)}s)`;
  return `seat ${u.seat} uses the specialist${viewer}${rank}`;
}

export function decisionText(d: Proposal["decision"]): string {
  switch (d.case) {
    case "useSpecialist": return useText(d.value);
    case "guessRank": return `guess: a ${rankName(d.value.rank)} in the top red hand`;
    case "guessHand": return `guess: the top red hand is ${named(HAND, d.value.category)}`;
    default: return "?";
  }
}

export function scanGuessText(challenge: ChallengeCard, value: number): string {
  return challenge === ChallengeCard.RETINA_SCAN ? `a ${rankName(value)}` : named(HAND, value);
}

export function board(g: TheGangView): TemplateResult {
  const slots = ["flop", "flop", "flop", "turn", "river"];
  return html`<div class="gang-board" data-testid="board">
    ${slots.map((street, i) => {
      const c = g.board[i];
      return c ? playing(c) : html`<div class="gang-slot" title="${street}">${street}</div>`;
    })}
  </div>`;
}

export function cardsInPlay(g: TheGangView): TemplateResult {
  const pile = (label: string, p: TheGangView["challengePile"], names: string[]) =>
    p && p.size
      ? html`<span class="gang-pile" title="${p.known ? "order public" : "shuffled"}"
          >${label} pile ${p.size}${p.known && p.cards.length ? ` · next: ${named(names, p.cards[0] ?? 0)}` : ""}</span>`
      : nothing;
  // Piles matter only in the modes; Master Thief plays without specialists.
  const specialists = g.mode === TheGangMode.ADVANCED || g.mode === TheGangMode.PROFESSIONAL;
  return html`<div class="gang-specials">
    ${g.challenges.map((c) => html`<span class="gang-special gang-challenge" data-testid="challenge"
      title="${CHALLENGE_RULE[c] ?? ""}"><b>${c}</b> ${named(CHALLENGE, c)}${
        g.standingChallenges.includes(c) ? html` <i>(whole game)</i>` : nothing}</span>`)}
    ${g.specialist !== SpecialistCard.UNSPECIFIED
      ? html`<span class="gang-special gang-specialist" data-testid="specialist"
          title="${SPECIALIST_RULE[g.specialist] ?? ""}"><b>${g.specialist}</b> ${named(SPECIALIST, g.specialist)}${
            g.specialistUse ? ` — ${useText(g.specialistUse)}` : ""}</span>`
      : nothing}
    ${g.mode > TheGangMode.BASIC ? pile("challenge", g.challengePile, CHALLENGE) : nothing}
    ${specialists ? pile("specialist", g.specialistPile, SPECIALIST) : nothing}
  </div>`;
}


/** The line above the felt: heist, mode, vaults and alarms, the round, the deck. */
export function statusBar(v: View, g: TheGangView): TemplateResult {
  return html`<header class="gang-status">
    <span class="gang-heist">Heist ${g.heist}</span>
    <span class="gang-mode">${named(MODE, g.mode)}</span>
    ${icons("vault", g.vaults, g.vaultsToWin)} ${icons("alarm", g.alarms, g.alarmsToLose)}
    <span class="gang-round">${v.outcome ? "game over" : html`round <span class="gang-chip gang-swatch gang-${named(COLOUR, g.round)}"></span>
      ${named(COLOUR, g.round)} · ${named(STREET, g.round)}`}</span>
    <span class="gang-deck">deck ${g.deckSize}${g.discardCount ? ` · discards ${g.discardCount}` : ""}</span>
  </header>`;
}

/** The notes beside the board: rounds without chips, Blackout's chips off the table. */
export function feltNotes(g: TheGangView): TemplateResult {
  return html`<div class="gang-felt-notes">
    ${g.skippedColours.map((c) => html`<span>no ${named(COLOUR, c)} chips this heist</span>`)}
    ${g.setAsideColours.length
      ? html`<span>Blackout, off the table: ${g.setAsideColours.map((c) => named(COLOUR, c)).join(", ")}</span>`
      : nothing}
  </div>`;
}
