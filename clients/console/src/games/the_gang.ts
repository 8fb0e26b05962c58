/**
 * The Gang: the public table as a spectator sees it. The board with slots for the streets
 * still to come, every seat's pocket (backs until a showdown shows it) with its chip per
 * round, the chips still in the middle, vaults and alarms, the challenge and specialist
 * cards in play, the group decisions in progress and the last heist's showdown.
 */
import {
  Announcement_Kind, ChallengeCard, ChipColour, Pending_Kind, PlayingCardSchema, SpecialistCard,
  Suit, TheGangMode, type Announcement, type Chip, type Event, type HeistResult, type Move,
  type PlayingCard, type Proposal, type Reveal, type TheGangView, type UseSpecialist, type View,
} from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";
import { card, cardBack, cardKey, type CardOptions } from "../cards.js";
import { seatLabel } from "../table.js";
import type { GameRenderer } from "./types.js";
import "./the_gang.css";

// Names indexed by enum value (index 0 is the unspecified value).
const COLOUR = ["?", "white", "yellow", "orange", "red"];
const STREET = ["?", "pre-flop", "flop", "turn", "river"];
const MODE = ["Basic", "Basic", "Advanced", "Professional", "Master Thief"];
const HAND = ["?", "high card", "pair", "two pair", "three of a kind", "straight", "flush",
  "full house", "four of a kind", "straight flush", "royal flush"];
const CHALLENGE = ["?", "Quick Access", "Noise Sensors", "Motion Detector", "Retina Scan",
  "Hasty Getaway", "Ventilation Shaft", "Laser Tripwires", "Blackout", "Fingerprint Scan",
  "Security Cameras"];
const CHALLENGE_RULE = ["", "no white chips: the flop comes at once",
  "the 1★ chips of rounds 1-3 are dark", "J/Q/K on the flop: the 1★ white holder redraws",
  "guess a rank in the top red hand", "no orange chips", "the top chips of rounds 1-3 are dark",
  "no J/Q/K on the flop: the top white holder redraws", "earlier rounds' chips leave the table",
  "guess the top red hand's category", "three pocket cards each"];
const SPECIALIST = ["?", "Informant", "Getaway Driver", "Investor", "Mastermind", "Hacker",
  "Coordinator", "Jack", "Math Whiz", "Con Artist", "Muscle"];
const SPECIALIST_RULE = ["", "a chosen seat shows one pocket card to another",
  "a chosen seat's hand so far is announced", "everyone's J/Q/K count is announced",
  "a chosen seat tells how many of a rank he holds", "a chosen seat draws a card, then discards one",
  "everyone passes a card to the left", "a chosen seat takes the suitless Jack, then discards one",
  "everyone's pocket sum is announced", "all pockets are gathered and dealt again",
  "a chosen seat's hand beats others of its category"];

const SUIT: Record<Suit, { glyph: string; colour: string; name: string }> = {
  [Suit.UNSPECIFIED]: { glyph: "★", colour: "gold", name: "" },
  [Suit.CLUBS]: { glyph: "♣", colour: "black", name: "clubs" },
  [Suit.DIAMONDS]: { glyph: "♦", colour: "red", name: "diamonds" },
  [Suit.HEARTS]: { glyph: "♥", colour: "red", name: "hearts" },
  [Suit.SPADES]: { glyph: "♠", colour: "black", name: "spades" },
};
const FACES: Record<number, [string, string]> = {
  11: ["J", "jack"], 12: ["Q", "queen"], 13: ["K", "king"], 14: ["A", "ace"],
};

const named = (names: string[], value: number): string => names[value] ?? String(value);
const rankText = (rank: number): string => FACES[rank]?.[0] ?? String(rank);
const rankName = (rank: number): string => FACES[rank]?.[1] ?? String(rank);
const seats = (list: number[]): string => list.map((n) => `seat ${n}`).join(", ");
const chipText = (colour: ChipColour, stars: number): string =>
  `${stars}★ ${named(COLOUR, colour)}`;

/** The Jack specialist card: a jack without a suit ("J*"). */
const isJackCard = (c: PlayingCard): boolean => c.suit === Suit.UNSPECIFIED;

/** A card as log text: "A♠", "10♦", "J*". */
function cardText(c: PlayingCard | undefined): string {
  if (!c) return "a card";
  return isJackCard(c) ? "J*" : `${rankText(c.rank)}${SUIT[c.suit].glyph}`;
}

/** A face-up playing card; the Jack card is gold with a star in place of a suit. */
function playing(c: PlayingCard, options: CardOptions = {}): TemplateResult {
  const suit = SUIT[c.suit] ?? SUIT[Suit.UNSPECIFIED];
  const title = isJackCard(c) ? "the Jack card (no suit)" : `${rankName(c.rank)} of ${suit.name}`;
  const key = cardKey(PlayingCardSchema, c);
  return card({ key, rank: rankText(c.rank), symbol: suit.glyph, colour: suit.colour, title }, options);
}

/** A round chip: a disc of its colour with its stars; a dark one is turned to its dark side. */
function chip(colour: ChipColour, stars: number, dark = false): TemplateResult {
  const name = named(COLOUR, colour);
  const tip = `${stars}★ ${name} chip${dark ? " (dark: stays with whoever takes it)" : ""}`;
  return html`<span class="gang-chip gang-${name}${dark ? " gang-dark" : ""}" data-testid="chip"
    data-colour="${name}" data-stars="${stars}" title="${tip}"
    ><b>${stars}</b><span class="gang-star">★</span></span>`;
}

/** A chip on the table, dark when the view lists it among the dark chips. */
const tableChip = (g: TheGangView, c: Chip): TemplateResult =>
  chip(c.colour, c.stars, g.darkChips.some((d) => d.colour === c.colour && d.stars === c.stars));

/** A round whose chip this seat does not hold (yet). */
const emptyChip = (colour: ChipColour): TemplateResult =>
  html`<span class="gang-chip gang-empty gang-${named(COLOUR, colour)}"
    title="no ${named(COLOUR, colour)} chip"></span>`;

function icons(kind: "vault" | "alarm", count: number, total: number): TemplateResult {
  const label = kind === "vault" ? `${count} of ${total} vaults cracked` : `${count} of ${total} alarms set off`;
  return html`<span class="gang-counter" data-testid="${kind}s" data-count="${count}" title="${label}"
    >${Array.from({ length: Math.max(total, count) }, (_, i) =>
      html`<span class="gang-${kind}${i < count ? " gang-on" : ""}"></span>`)}
    <span class="gang-count">${count}/${total}</span></span>`;
}

/** How many pocket cards a seat holds, as the view says (`pocketSizes`, public). */
function pocketSize(g: TheGangView, seat: number): number {
  return g.pocketSizes[seat] ?? 0;
}

function handText(r: Reveal): string {
  return (r.description || named(HAND, r.category)) + (r.muscle ? " (Muscle)" : "");
}

/** An announcement without its seat, e.g. "Investor: 1 J/Q/K". */
function announced(a: Announcement): string {
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

function useText(u: UseSpecialist | undefined): string {
  if (!u) return "?";
  const viewer = u.viewer === undefined ? "" : ` (shows seat ${u.viewer})`;
  const rank = u.rank === undefined ? "" : ` (asks about ${rankName(u.rank)}s)`;
  return `seat ${u.seat} uses the specialist${viewer}${rank}`;
}

function decisionText(d: Proposal["decision"]): string {
  switch (d.case) {
    case "useSpecialist": return useText(d.value);
    case "guessRank": return `guess: a ${rankName(d.value.rank)} in the top red hand`;
    case "guessHand": return `guess: the top red hand is ${named(HAND, d.value.category)}`;
    default: return "?";
  }
}

function scanGuessText(challenge: ChallengeCard, value: number): string {
  return challenge === ChallengeCard.RETINA_SCAN ? `a ${rankName(value)}` : named(HAND, value);
}

function seatArea(v: View, g: TheGangView, n: number): TemplateResult {
  const toAct = v.toAct.includes(n);
  // A pocket is face up only where the view reveals it: the hands shown before the scan
  // guesses, once the game is over the final showdown, or a seat's own view of its pocket.
  const reveal =
    g.shown.find((r) => r.seat === n) ??
    (v.outcome ? g.heists.at(-1)?.reveals.find((r) => r.seat === n) : undefined);
  const own = v.seat === n && g.pocket.length ? g.pocket : undefined;
  const pocket = (reveal?.pocket ?? own)?.map((c) => playing(c)) ??
    (v.outcome ? [] : Array.from({ length: pocketSize(g, n) }, () => cardBack()));
  const notes = [
    ...g.announcements.filter((a) => a.seat === n).map(announced),
    ...g.pending.filter((p) => p.seat === n).map((p) =>
      p.kind === Pending_Kind.SHOW_CARD ? `must show a card to seat ${p.toSeat ?? "?"}` : "must discard a card"),
    ...(g.passedSeats.includes(n) ? ["has chosen a card to pass"] : []),
    ...(g.specialistUse?.seat === n ? [`uses the ${named(SPECIALIST, g.specialist)}`] : []),
  ];
  return html`<div class="gang-seat${toAct ? " gang-to-act" : ""}" data-testid="seat" data-seat="${n}">
    <div class="gang-seat-head">
      <span class="gang-seat-name" data-testid="seat-label">${seatLabel(v, n)}</span>
      ${toAct ? html`<span class="gang-badge">to act</span>` : nothing}
      ${g.confirmedSeats.includes(n) ? html`<span class="gang-badge gang-ok">ready ✓</span>` : nothing}
      ${g.guessedSeat === n ? html`<span class="gang-badge gang-warn">guessed about</span>` : nothing}
    </div>
    <div class="gang-pocket">${pocket}</div>
    ${reveal ? html`<div class="gang-hand">${handText(reveal)}</div>` : nothing}
    <div class="gang-seat-chips">
      ${g.chips.map((row) => {
        const held = row.chips.find((c) => c.holder === n);
        return held ? tableChip(g, held) : emptyChip(row.colour);
      })}
    </div>
    ${notes.length ? html`<ul class="gang-notes">${notes.map((t) => html`<li>${t}</li>`)}</ul>` : nothing}
  </div>`;
}

function board(g: TheGangView): TemplateResult {
  const slots = ["flop", "flop", "flop", "turn", "river"];
  return html`<div class="gang-board" data-testid="board">
    ${slots.map((street, i) => {
      const c = g.board[i];
      return c ? playing(c) : html`<div class="gang-slot" title="${street}">${street}</div>`;
    })}
  </div>`;
}

function cardsInPlay(g: TheGangView): TemplateResult {
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

function decisions(g: TheGangView): TemplateResult | typeof nothing {
  const lines: TemplateResult[] = [
    ...g.proposals.map((p) => html`<li data-testid="proposal">#${p.id} seat ${p.proposer} proposes
      ${decisionText(p.decision)} — accepted by ${seats(p.accepted)}</li>`),
    ...g.guesses.map((s) => html`<li>${named(CHALLENGE, s.challenge)} agreed:
      ${scanGuessText(s.challenge, s.value)}</li>`),
  ];
  if (g.awaitingGuesses) {
    lines.unshift(html`<li class="gang-warn">Showdown paused: the others must agree on their guess
      about seat ${g.guessedSeat ?? "?"}'s hand</li>`);
  }
  return lines.length ? html`<ul class="gang-decisions">${lines}</ul>` : nothing;
}

function lastHeist(h: HeistResult | undefined): TemplateResult | typeof nothing {
  if (!h) return nothing;
  return html`<section class="gang-last ${h.success ? "gang-success" : "gang-failure"}"
    data-testid="last-heist">
    <div class="gang-last-head"><h3>Heist ${h.heist}: ${h.success ? "vault cracked" : "alarm!"}</h3>
      <div class="gang-last-board">${h.board.map((c) => playing(c, { small: true }))}</div></div>
    <ol class="gang-reveals">
      ${h.reveals.map((r) => html`<li class="${r.inOrder ? "" : "gang-out"}">
        ${chip(ChipColour.RED, r.redStars)} <span class="gang-who">seat ${r.seat}</span>
        <span class="gang-pocket">${r.pocket.map((c) => playing(c, { small: true }))}</span>
        <span class="gang-hand-line">${handText(r)}${r.inOrder ? "" : " ✗ out of order"}</span></li>`)}
    </ol>
    ${h.scans.map((s) => html`<div class="${s.correct ? "" : "gang-out"}">${named(CHALLENGE, s.challenge)}
      on seat ${s.seat}: guessed ${scanGuessText(s.challenge, s.guess)}, actual
      ${s.actual.map((a) => scanGuessText(s.challenge, a)).join(", ")} ${s.correct ? "✓" : "✗"}</div>`)}
  </section>`;
}

function table(v: View): TemplateResult {
  if (v.gameView.case !== "theGang") return html`<div class="gang-table">No view of The Gang.</div>`;
  const g = v.gameView.value;
  const middle = g.chips.flatMap((row) => row.chips.filter((c) => c.holder === undefined));
  return html`<div class="gang-table" data-testid="the-gang">
    <header class="gang-status">
      <span class="gang-heist">Heist ${g.heist}</span>
      <span class="gang-mode">${named(MODE, g.mode)}</span>
      ${icons("vault", g.vaults, g.vaultsToWin)} ${icons("alarm", g.alarms, g.alarmsToLose)}
      <span class="gang-round">${v.outcome ? "game over" : html`round <span class="gang-chip gang-swatch gang-${named(COLOUR, g.round)}"></span>
        ${named(COLOUR, g.round)} · ${named(STREET, g.round)}`}</span>
      <span class="gang-deck">deck ${g.deckSize}${g.discardCount ? ` · discards ${g.discardCount}` : ""}</span>
    </header>
    ${cardsInPlay(g)}
    <section class="gang-felt">
      ${board(g)}
      <div class="gang-middle" data-testid="middle" title="chips still in the middle">
        <span class="gang-label">middle</span>${middle.map((c) => tableChip(g, c))}
      </div>
      <div class="gang-felt-notes">
        ${g.skippedColours.map((c) => html`<span>no ${named(COLOUR, c)} chips this heist</span>`)}
        ${g.setAsideColours.length
          ? html`<span>Blackout, off the table: ${g.setAsideColours.map((c) => named(COLOUR, c)).join(", ")}</span>`
          : nothing}
      </div>
    </section>
    <section class="gang-seats">${Array.from({ length: v.seats }, (_, n) => seatArea(v, g, n))}</section>
    ${v.outcome ? nothing : decisions(g)} ${lastHeist(g.heists.at(-1))}
  </div>`;
}

function move(m: Move | undefined): string {
  if (!m) return "(secret)";
  if (m.game.case !== "theGang") return "";
  const a = m.game.value.action;
  switch (a.case) {
    case "takeChip": return `takes the ${chipText(a.value.colour, a.value.stars)} chip`;
    case "returnChip": return `returns the ${chipText(a.value.colour, a.value.stars)} chip to the middle`;
    case "confirmRoundEnd": return "is ready to end the round";
    case "propose": return `proposes ${decisionText(a.value.decision)}`;
    case "accept": return `accepts proposal #${a.value.proposal}`;
    case "withdraw": return `withdraws proposal #${a.value.proposal}`;
    case "showCard": return `shows ${cardText(a.value.card)}`;
    case "discardCard": return `discards ${cardText(a.value.card)} face down`;
    case "passCard": return `chooses ${cardText(a.value.card)} to pass left`;
    default: return "";
  }
}

function event(e: Event): string {
  if (e.game.case !== "theGang") return "";
  const k = e.game.value.kind;
  switch (k.case) {
    case "boardDealt": {
      const cards = k.value.cards.map(cardText).join(" ");
      return k.value.cards.length === 3 ? `flop dealt: ${cards}` : `board card dealt: ${cards}`;
    }
    case "roundStarted":
      return `heist ${k.value.heist}: ${named(COLOUR, k.value.colour)} round (${named(STREET, k.value.colour)})`;
    case "chipTaken": {
      const from = k.value.fromSeat === undefined ? "the middle" : `seat ${k.value.fromSeat}`;
      return `seat ${k.value.seat} takes the ${chipText(k.value.colour, k.value.stars)} chip from ${from}`;
    }
    case "chipReturned":
      return `seat ${k.value.seat} returns the ${chipText(k.value.colour, k.value.stars)} chip`;
    case "roundEndConfirmed": return `seat ${k.value.seat} is ready to end the round`;
    case "heistEnded": {
      const r = k.value.result;
      const what = r?.success ? "vault cracked" : "alarm!";
      return `heist ${r?.heist ?? "?"}: ${what} (${k.value.vaults} vaults, ${k.value.alarms} alarms)`;
    }
    case "gameEnded": return k.value.won ? "the gang wins: three vaults cracked" : "the gang is caught";
    case "cardsActive": {
      const cards = [
        ...k.value.challenges.map((c) => `challenge ${named(CHALLENGE, c)}`),
        ...(k.value.specialist ? [`specialist ${named(SPECIALIST, k.value.specialist)}`] : []),
      ];
      return cards.length ? `heist ${k.value.heist}: ${cards.join(", ")}` : "";
    }
    case "pileShuffled": return `the ${k.value.specialistPile ? "specialist" : "challenge"} pile is shuffled`;
    case "pocketsGathered": return "Con Artist: all pockets gathered and dealt again";
    case "pocketRedrawn":
      return `${named(CHALLENGE, k.value.challenge)}: seat ${k.value.seat} discards his pocket and draws anew`;
    case "chipsSetAside": return `Blackout: the ${named(COLOUR, k.value.colour)} chips leave the table`;
    case "proposalMade": {
      const p = k.value.proposal;
      return p ? `seat ${p.proposer} proposes ${decisionText(p.decision)} (#${p.id})` : "";
    }
    case "proposalAccepted": return `seat ${k.value.seat} accepts proposal #${k.value.proposal}`;
    case "proposalWithdrawn": return `proposal #${k.value.proposal} withdrawn`;
    case "decisionTaken": return k.value.proposal ? `agreed: ${decisionText(k.value.proposal.decision)}` : "";
    case "announced": {
      const a = k.value.announcement;
      return a ? `seat ${a.seat} · ${announced(a)}` : "";
    }
    case "cardDrawn": return `Hacker: seat ${k.value.seat} draws ${cardText(k.value.card)}`;
    case "jackTaken": return `seat ${k.value.seat} takes the Jack card (J*)`;
    case "cardDiscarded": return `seat ${k.value.seat} discards ${cardText(k.value.card)} face down`;
    case "passChosen": return `seat ${k.value.seat} has chosen a card to pass`;
    case "cardPassed":
      return `seat ${k.value.fromSeat} passes ${cardText(k.value.card)} to seat ${k.value.toSeat}`;
    case "guessesDue":
      return `showdown: the gang must guess seat ${k.value.seat}'s hand (${k.value.challenges.map((c) => named(CHALLENGE, c)).join(", ")})`;
    default: return ""; // pocketDealt (never a spectator's), roundEnded
  }
}

export const theGang: GameRenderer = { game: "the_gang", title: "The Gang", table, move, event };
