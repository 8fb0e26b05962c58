/**
 * The Gang's drawing parts that the spectator table (`the_gang.ts`) and the seat's own
 * table (`the_gang_seat.ts`) share: names, cards, chips, counters, the status line, the
 * board and the cards in play, and the texts of announcements and decisions.
 *
 * Every word goes through the catalogue (`gang.` keys, i18n/parts/the_gang.ts); seats are
 * named only by `seatLabel`. Cards and chips carry their names in words (a chip's colour
 * and stars, a card's rank and suit), so no colour is the only sign of anything.
 */
import {
  Announcement_Kind, ChallengeCard, ChipColour, PlayingCardSchema, SpecialistCard, Suit,
  TheGangMode, type Announcement, type Chip, type PlayingCard, type Proposal, type Reveal,
  type TheGangView, type UseSpecialist, type View,
} from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";
import { card, cardKey, type CardOptions } from "../cards.js";
import { lang, t, type Key } from "../i18n/index.js";
import { seatLabel } from "../table.js";

// Catalogue keys indexed by enum value (index 0 is the unspecified value).
const COLOUR_KEYS: readonly Key[] = ["gang.unknown", "gang.colour.white", "gang.colour.yellow", "gang.colour.orange", "gang.colour.red"];
const CHIP_KEYS: readonly Key[] = ["gang.unknown", "gang.chipOf.white", "gang.chipOf.yellow", "gang.chipOf.orange", "gang.chipOf.red"];
const THE_CHIP_KEYS: readonly Key[] = ["gang.unknown", "gang.theChip.white", "gang.theChip.yellow", "gang.theChip.orange", "gang.theChip.red"];
const A_CHIP_KEYS: readonly Key[] = ["gang.unknown", "gang.aChip.white", "gang.aChip.yellow", "gang.aChip.orange", "gang.aChip.red"];
const INITIAL_KEYS: readonly Key[] = ["gang.unknown", "gang.initial.white", "gang.initial.yellow", "gang.initial.orange", "gang.initial.red"];
const STREET_KEYS: readonly Key[] = ["gang.unknown", "gang.street.preflop", "gang.street.flop", "gang.street.turn", "gang.street.river"];
const MODE_KEYS: readonly Key[] = ["gang.mode.basic", "gang.mode.basic", "gang.mode.advanced", "gang.mode.professional", "gang.mode.masterThief"];
const HAND_KEYS: readonly Key[] = ["gang.unknown", "gang.hand.1", "gang.hand.2", "gang.hand.3", "gang.hand.4", "gang.hand.5",
  "gang.hand.6", "gang.hand.7", "gang.hand.8", "gang.hand.9", "gang.hand.10"];
const CHALLENGE_KEYS: readonly Key[] = ["gang.unknown", "gang.challenge.1", "gang.challenge.2", "gang.challenge.3",
  "gang.challenge.4", "gang.challenge.5", "gang.challenge.6", "gang.challenge.7", "gang.challenge.8",
  "gang.challenge.9", "gang.challenge.10"];
const CHALLENGE_RULE_KEYS: readonly Key[] = ["gang.unknown", "gang.challengeRule.1", "gang.challengeRule.2",
  "gang.challengeRule.3", "gang.challengeRule.4", "gang.challengeRule.5", "gang.challengeRule.6",
  "gang.challengeRule.7", "gang.challengeRule.8", "gang.challengeRule.9", "gang.challengeRule.10"];
const SPECIALIST_KEYS: readonly Key[] = ["gang.unknown", "gang.specialist.1", "gang.specialist.2", "gang.specialist.3",
  "gang.specialist.4", "gang.specialist.5", "gang.specialist.6", "gang.specialist.7", "gang.specialist.8",
  "gang.specialist.9", "gang.specialist.10"];
const SPECIALIST_RULE_KEYS: readonly Key[] = ["gang.unknown", "gang.specialistRule.1", "gang.specialistRule.2",
  "gang.specialistRule.3", "gang.specialistRule.4", "gang.specialistRule.5", "gang.specialistRule.6",
  "gang.specialistRule.7", "gang.specialistRule.8", "gang.specialistRule.9", "gang.specialistRule.10"];
const RANK_KEYS: Readonly<Record<number, Key>> = {
  2: "gang.rank.2", 3: "gang.rank.3", 4: "gang.rank.4", 5: "gang.rank.5", 6: "gang.rank.6", 7: "gang.rank.7",
  8: "gang.rank.8", 9: "gang.rank.9", 10: "gang.rank.10", 11: "gang.rank.11", 12: "gang.rank.12",
  13: "gang.rank.13", 14: "gang.rank.14",
};

/** A colour's word for classes and data attributes (never shown, never translated). */
const COLOUR_ID = ["unknown", "white", "yellow", "orange", "red"];
export const colourId = (colour: ChipColour): string => COLOUR_ID[colour] ?? "unknown";

const from = (keys: readonly Key[], value: number): string => {
  const key = keys[value];
  return key === undefined ? String(value) : t(key);
};
/** "a white chip" / "een wit fiche" / "einen weißen Chip". */
export const aChip = (colour: ChipColour): string => from(A_CHIP_KEYS, colour);
export const colourName = (colour: ChipColour): string => from(COLOUR_KEYS, colour);
export const streetName = (colour: ChipColour): string => from(STREET_KEYS, colour);
export const modeName = (mode: TheGangMode): string => from(MODE_KEYS, mode);
export const handName = (category: number): string => from(HAND_KEYS, category);
export const challengeName = (c: ChallengeCard): string => from(CHALLENGE_KEYS, c);
export const challengeRule = (c: ChallengeCard): string => from(CHALLENGE_RULE_KEYS, c);
export const specialistName = (c: SpecialistCard): string => from(SPECIALIST_KEYS, c);
export const specialistRule = (c: SpecialistCard): string => from(SPECIALIST_RULE_KEYS, c);

/** "Ada", "Ada and Bo", "Ada, Bo and Cleo", in the page's language. */
export function namesOf(v: View | undefined, seats: readonly number[]): string {
  const names = seats.map((n) => seatLabel(v, n));
  return new Intl.ListFormat(lang(), { type: "conjunction" }).format(names);
}

/** The first letter upper case, for a name that starts a label ("Queen of spades"). */
export const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

export const SUIT: Record<Suit, { glyph: string; colour: string; name: Key }> = {
  [Suit.UNSPECIFIED]: { glyph: "★", colour: "gold", name: "gang.unknown" },
  [Suit.CLUBS]: { glyph: "♣", colour: "black", name: "gang.suit.clubs" },
  [Suit.DIAMONDS]: { glyph: "♦", colour: "red", name: "gang.suit.diamonds" },
  [Suit.HEARTS]: { glyph: "♥", colour: "red", name: "gang.suit.hearts" },
  [Suit.SPADES]: { glyph: "♠", colour: "black", name: "gang.suit.spades" },
};
const FACES: Record<number, string> = { 11: "J", 12: "Q", 13: "K", 14: "A" };

/** What a card's corner shows: "A", "10". */
export const rankText = (rank: number): string => FACES[rank] ?? String(rank);
/** A rank in words: "queen" / "vrouw" / "Dame". */
export const rankName = (rank: number): string => {
  const key = RANK_KEYS[rank];
  return key === undefined ? String(rank) : t(key);
};

/** The Jack specialist card: a jack without a suit. */
export const isJackCard = (c: PlayingCard): boolean => c.suit === Suit.UNSPECIFIED;

/** A card by its name: "queen of spades" / "schoppenvrouw" / "Pik-Dame"; "a card" when hidden. */
export function cardText(c: PlayingCard | undefined): string {
  if (!c) return t("gang.aCard");
  if (isJackCard(c)) return t("gang.jackCard");
  return t("gang.cardName", { rank: rankName(c.rank), suit: t(SUIT[c.suit].name) });
}

/**
 * A face-up playing card, named for screen readers by its name (the face shows its rank and
 * suit symbol); the Jack card is gold with a star in place of a suit.
 */
export function playing(c: PlayingCard, options: CardOptions = {}): TemplateResult {
  const suit = SUIT[c.suit] ?? SUIT[Suit.UNSPECIFIED];
  const name = capital(cardText(c));
  const key = cardKey(PlayingCardSchema, c);
  const face = card({ key, rank: rankText(c.rank), symbol: suit.glyph, colour: suit.colour, title: name }, options);
  return html`<span class="gang-card-name" role="img" aria-label="${name}">${face}</span>`;
}

/** "3 stars" / "3 sterren" / "3 Sterne". */
const starsText = (stars: number): string =>
  stars === 1 ? t("gang.stars.one") : t("gang.stars.many", { stars });

/** A chip as a label: "White chip, 3 stars". */
export const chipLabel = (colour: ChipColour, stars: number): string =>
  t("gang.chipLabel", { chip: from(CHIP_KEYS, colour), stars: starsText(stars) });

/** A chip in a sentence: "the white chip with 3 stars" / "den weißen Chip mit 3 Sternen". */
export const chipText = (colour: ChipColour, stars: number): string =>
  t(stars === 1 ? "gang.chipWithStar" : "gang.chipWithStars", { chip: from(THE_CHIP_KEYS, colour), stars });

/**
 * A round chip: a disc of its colour with its stars and its colour's initial, named in
 * words; a dark one is turned to its dark side.
 */
export function chip(colour: ChipColour, stars: number, dark = false): TemplateResult {
  const id = colourId(colour);
  const name = dark ? t("gang.darkChip", { chip: chipLabel(colour, stars) }) : chipLabel(colour, stars);
  return html`<span class="gang-chip gang-${id}${dark ? " gang-dark" : ""}" data-testid="chip"
    data-colour="${id}" data-stars="${stars}" role="img" aria-label="${name}" title="${name}"
    ><b>${stars}<span class="gang-star">★</span></b><span class="gang-initial">${from(INITIAL_KEYS, colour)}</span></span>`;
}

/** Whether the view lists this chip among the dark ones. */
export const isDark = (g: TheGangView, c: Chip): boolean =>
  g.darkChips.some((d) => d.colour === c.colour && d.stars === c.stars);

/** A chip on the table, dark when the view lists it among the dark chips. */
export const tableChip = (g: TheGangView, c: Chip): TemplateResult => chip(c.colour, c.stars, isDark(g, c));

/** A round whose chip this seat does not hold (yet). */
export const emptyChip = (colour: ChipColour): TemplateResult => {
  const label = t("gang.noChip", { colour: colourName(colour) });
  return html`<span class="gang-chip gang-empty gang-${colourId(colour)}" role="img" aria-label="${label}"
    title="${label}"><span class="gang-initial">${from(INITIAL_KEYS, colour)}</span></span>`;
};

/** The vaults or alarms: their icons, and in words "Vaults cracked: 1 of 3". */
export function icons(kind: "vault" | "alarm", count: number, total: number): TemplateResult {
  const label = t(kind === "vault" ? "gang.vaults" : "gang.alarms", { count, total });
  return html`<span class="gang-counter" data-testid="${kind}s" data-count="${count}" title="${label}"
    ><span class="gang-icons" aria-hidden="true">${Array.from({ length: Math.max(total, count) }, (_, i) =>
      html`<span class="gang-${kind}${i < count ? " gang-on" : ""}"></span>`)}</span>
    <span class="gang-count">${label}</span></span>`;
}

/** How many pocket cards a seat holds, as the view says (`pocketSizes`, public). */
export function pocketSize(g: TheGangView, seat: number): number {
  return g.pocketSizes[seat] ?? 0;
}

/** A shown hand: the referee's own words in English, else the category's name. */
export function handText(r: Reveal): string {
  const hand = lang() === "en" && r.description ? r.description : handName(r.category);
  return r.muscle ? t("gang.withMuscle", { hand }) : hand;
}

/** An announcement without its seat, e.g. "Investor: 1 jack, queen or king". */
export function announced(v: View | undefined, a: Announcement): string {
  switch (a.kind) {
    case Announcement_Kind.INVESTOR: return t("gang.said.investor", { count: a.number });
    case Announcement_Kind.MATH_WHIZ: return t("gang.said.mathWhiz", { sum: a.number });
    case Announcement_Kind.GETAWAY_DRIVER: return t("gang.said.getawayDriver", { hand: handName(a.number) });
    case Announcement_Kind.MASTERMIND: return t("gang.said.mastermind", { count: a.number, rank: rankName(a.rank ?? 0) });
    case Announcement_Kind.INFORMANT:
      return t("gang.said.informant", { card: cardText(a.card), name: seatLabel(v, a.toSeat ?? -1) });
    default: return t("gang.said.other");
  }
}

/** Who uses the specialist, and how: "Ada uses the specialist (shows Bo)". */
export function useText(v: View | undefined, u: UseSpecialist | undefined): string {
  if (!u) return "?";
  const name = seatLabel(v, u.seat);
  if (u.viewer !== undefined) return t("gang.use.viewer", { name, viewer: seatLabel(v, u.viewer) });
  if (u.rank !== undefined) return t("gang.use.rank", { name, rank: rankName(u.rank) });
  return t("gang.use.plain", { name });
}

export function decisionText(v: View | undefined, d: Proposal["decision"]): string {
  switch (d.case) {
    case "useSpecialist": return useText(v, d.value);
    case "guessRank": return t("gang.decision.rank", { rank: rankName(d.value.rank) });
    case "guessHand": return t("gang.decision.hand", { hand: handName(d.value.category) });
    default: return "?";
  }
}

export function scanGuessText(challenge: ChallengeCard, value: number): string {
  return challenge === ChallengeCard.RETINA_SCAN ? capital(rankName(value)) : handName(value);
}

export function board(g: TheGangView): TemplateResult {
  const slots: Key[] = ["gang.street.flop", "gang.street.flop", "gang.street.flop", "gang.street.turn", "gang.street.river"];
  return html`<div class="gang-board" data-testid="board" role="group" aria-label="${t("gang.board")}">
    ${slots.map((street, i) => {
      const c = g.board[i];
      return c ? playing(c) : html`<div class="gang-slot">${t(street)}</div>`;
    })}
  </div>`;
}

export function cardsInPlay(v: View, g: TheGangView): TemplateResult {
  const pile = (label: Key, p: TheGangView["challengePile"], name: (n: number) => string) =>
    p && p.size
      ? html`<span class="gang-pile">${t(label, { count: p.size })}${p.known && p.cards.length
          ? ` · ${t("gang.pile.next", { name: name(p.cards[0] ?? 0) })}` : ""}${p.known ? "" : ` · ${t("gang.pile.shuffled")}`}</span>`
      : nothing;
  // Piles matter only in the modes; Master Thief plays without specialists.
  const specialists = g.mode === TheGangMode.ADVANCED || g.mode === TheGangMode.PROFESSIONAL;
  return html`<div class="gang-specials">
    ${g.challenges.map((c) => html`<span class="gang-special gang-challenge" data-testid="challenge"
      title="${challengeRule(c)}">${t("gang.challengeCard", { number: c, name: challengeName(c) })}${
        g.standingChallenges.includes(c) ? html` <i>${t("gang.wholeGame")}</i>` : nothing}</span>`)}
    ${g.specialist !== SpecialistCard.UNSPECIFIED
      ? html`<span class="gang-special gang-specialist" data-testid="specialist"
          title="${specialistRule(g.specialist)}">${t("gang.specialistCard", { number: g.specialist, name: specialistName(g.specialist) })}${
            g.specialistUse ? ` — ${useText(v, g.specialistUse)}` : ""}</span>`
      : nothing}
    ${g.mode > TheGangMode.BASIC ? pile("gang.pile.challenges", g.challengePile, challengeName) : nothing}
    ${specialists ? pile("gang.pile.specialists", g.specialistPile, specialistName) : nothing}
  </div>`;
}

/** The line above the felt: heist, mode, vaults and alarms, the round, the deck. */
export function statusBar(v: View, g: TheGangView): TemplateResult {
  return html`<header class="gang-status">
    <span class="gang-heist">${t("gang.heist", { heist: g.heist })}</span>
    <span class="gang-mode">${modeName(g.mode)}</span>
    ${icons("vault", g.vaults, g.vaultsToWin)} ${icons("alarm", g.alarms, g.alarmsToLose)}
    <span class="gang-round">${v.outcome ? t("gang.gameOver")
      : html`<span class="gang-chip gang-swatch gang-${colourId(g.round)}" aria-hidden="true"></span>
        ${t("gang.round", { colour: colourName(g.round), street: streetName(g.round) })}`}</span>
    <span class="gang-deck">${t("gang.deck", { count: g.deckSize })}${g.discardCount
      ? ` · ${t("gang.discards", { count: g.discardCount })}` : ""}</span>
  </header>`;
}

/** The notes beside the board: rounds without chips, Blackout's chips off the table. */
export function feltNotes(g: TheGangView): TemplateResult {
  return html`<div class="gang-felt-notes">
    ${g.skippedColours.map((c) => html`<span>${t("gang.skipped", { colour: colourName(c) })}</span>`)}
    ${g.setAsideColours.length
      ? html`<span>${t("gang.setAside", { colours: g.setAsideColours.map(colourName).join(", ") })}</span>`
      : nothing}
  </div>`;
}

/** The chips in the middle, named by the round's colour ("Middle: white chips"). */
export function middleLabel(g: TheGangView): string {
  return t("gang.middle", { colour: colourName(g.round) });
}
