/**
 * The Gang: the public table as a spectator sees it. The board with slots for the streets
 * still to come, every seat's pocket (backs until a showdown shows it) with its chip per
 * round, the chips still in the middle, vaults and alarms, the challenge and specialist
 * cards in play, the group decisions in progress and the last heist's showdown.
 */
import { ChipColour, Pending_Kind, type Event, type HeistResult, type Move, type TheGangView, type View } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";
import { cardBack } from "../cards.js";
import { seatLabel } from "../table.js";
import {
  CHALLENGE, COLOUR, SPECIALIST, STREET, announced, board, cardText, cardsInPlay, chip, chipText,
  decisionText, emptyChip, feltNotes, handText, named, playing, pocketSize, scanGuessText, seats,
  statusBar, tableChip,
} from "./the_gang_parts.js";
import { seat } from "./the_gang_seat.js";
import type { GameRenderer, MoreReveal, Reveal } from "./types.js";
import "./the_gang.css";

function seatArea(v: View, g: TheGangView, n: number): TemplateResult {
  const toAct = v.toAct.includes(n);
  // A pocket is face up only where the view reveals it: the hands shown before the scan
  // guesses, once the game is over the final showdown, or a seat's own view of its pocket.
  // A finished view with the post-game reveal has every pocket in it, drawn beside the
  // board, and the showdown's in the last heist: the seat then draws it neither time.
  const shown = g.shown.find((r) => r.seat === n);
  const reveal = shown ?? (v.outcome ? g.heists.at(-1)?.reveals.find((r) => r.seat === n) : undefined);
  const own = v.seat === n && g.pocket.length ? g.pocket : undefined;
  const face = shown ?? (g.revealedPockets.length ? undefined : reveal);
  const pocket = (face?.pocket ?? own)?.map((c) => playing(c)) ??
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
    ${statusBar(v, g)}
    ${cardsInPlay(g)}
    <section class="gang-felt">
      ${board(g)}
      <div class="gang-middle" data-testid="middle" title="chips still in the middle">
        <span class="gang-label">middle</span>${middle.map((c) => tableChip(g, c))}
      </div>
      ${feltNotes(g)}
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

/** The post-game reveal: every pocket (and a sealed pass), the deck, discards, piles. */
function revealed(view: View): Reveal | undefined {
  if (view.gameView.case !== "theGang") return undefined;
  const g = view.gameView.value;
  const passes = new Map(g.revealedPasses.map((p) => [p.seat, p.card]));
  const seats = g.revealedPockets.map((pocket) => {
    const sealed = passes.get(pocket.seat);
    return { seat: pocket.seat, cards: pocket.cards.map((c) => playing(c)), notes: sealed ? [`chose to pass ${cardText(sealed)}`] : [] };
  });
  const informant = g.revealedAnnouncements.flatMap((a) => (a.card ? [a.card] : []));
  const more: MoreReveal[] = [
    { label: "the deck, top first", cards: g.revealedDeck.map((c) => playing(c)) },
    { label: "face-down discards", cards: g.revealedDiscards.map((c) => playing(c)) },
    { label: "shown by the Informant", cards: informant.map((c) => playing(c)) },
  ];
  if (g.revealedChallengePile.length || g.revealedSpecialistPile.length) {
    more.push({
      label: "the piles, top first",
      cards: [],
      text: `challenges ${g.revealedChallengePile.join(", ") || "—"}; specialists ${g.revealedSpecialistPile.join(", ") || "—"}`,
    });
  }
  return { seats, more };
}

export const theGang: GameRenderer = { game: "the_gang", title: "The Gang", table, move, event, seat, revealed };
