/**
 * Gang of Four: the public table of a spectator's view. Every seat with its hand as a
 * count and a fan of backs, its badges (leads, to act, passed, last card) and its total;
 * the play to beat in the middle, face up; the exchange before the hand; the scores per
 * hand. The view keeps only the play to beat, not the earlier plays of the trick. A seat's
 * own table, with its moves, is `gang_of_four_seat.ts`; the parts both draw are in
 * `gang_of_four_draw.ts`.
 */
import type { Event, GangOfFourCard, Move, View } from "@referee/client/web";
import { html, type TemplateResult } from "lit-html";
import {
  backs,
  cap,
  cardName,
  centre,
  classify,
  direction,
  drawCard,
  playText,
  scores,
  seatBox,
  seatName,
  statusLine,
  winnersText,
} from "./gang_of_four_draw.js";
import { seat } from "./gang_of_four_seat.js";
import { seatLabel } from "../table.js";
import type { GameRenderer, Reveal } from "./types.js";

function table(view: View): TemplateResult {
  if (view.gameView.case !== "gangOfFour") return html`<p>Not a Gang of Four view.</p>`;
  const g = view.gameView.value;
  const seats = Array.from({ length: g.players }, (_, n) => n);
  return html`<div class="gof-table gof-players-${g.players}">
    ${statusLine(g)}
    <div class="gof-felt">${seats.map((n) => seatBox(view, g, n, n, backs(g, n)))}${centre(view, g)}</div>
    ${scores(view, g)}
  </div>`;
}

function move(m: Move | undefined): string {
  if (!m) return "(secret)";
  if (m.game.case !== "gangOfFour") return "";
  const a = m.game.value.action;
  switch (a.case) {
    case "play":
      return `plays ${playText(a.value.cards, classify(a.value.cards))}` +
        (a.value.announceLastCard ? ", announcing the last card" : "");
    case "pass": return "passes";
    case "giveBack": return a.value.card ? `gives back the ${cardName(a.value.card)}` : "gives back a card";
    default:
      return "";
  }
}

function event(e: Event, view?: View): string {
  return cap(eventText(e, view ? (n) => seatLabel(view, n) : seatName));
}

/** An event in words; `seatName` names a seat (by its name when the page has a view). */
function eventText(e: Event, seatName: (seat: number) => string): string {
  if (e.game.case !== "gangOfFour") return "";
  const k = e.game.value.kind;
  switch (k.case) {
    case "handStarted":
      return `Hand ${k.value.hand} starts (dealer ${seatName(k.value.dealer)}, ${direction(k.value.direction)}): ` +
        `${seatName(k.value.leader)} leads`;
    case "cardGiven":
      return `${seatName(k.value.loser)} gives the highest card${k.value.card ? `, the ${cardName(k.value.card)},` : ""} ` +
        `to ${seatName(k.value.winner)}`;
    case "cardReturned":
      return `${seatName(k.value.winner)} gives back ${k.value.card ? `the ${cardName(k.value.card)}` : "a card"} ` +
        `to ${seatName(k.value.loser)}`;
    case "played":
      return `${seatName(k.value.seat)} plays ${playText(k.value.cards, k.value.kind)} (${k.value.cardsLeft} left)`;
    case "passed": return `${seatName(k.value.seat)} passes`;
    case "trickWon": return k.value.winner === k.value.leader
        ? `${seatName(k.value.winner)} wins the trick and leads`
        : `${seatName(k.value.winner)} wins the trick; ${seatName(k.value.leader)} leads`;
    case "lastCardAnnounced": return `${seatName(k.value.seat)}: last card!`;
    case "lastCardForgotten":
      return `${seatName(k.value.seat)} forgot to announce the last card: out of the hand (1 point)`;
    case "handEnded": {
      const r = k.value.result;
      if (!r) return "the hand is over";
      return `Hand ${r.hand} won by ${seatName(r.winner)}; points ${r.points.join(" / ")}, totals ${k.value.totals.join(" / ")}`;
    }
    case "gameEnded":
      return `Game over: ${winnersText(k.value.winners.map(seatName))} (totals ${k.value.totals.join(" / ")})`;
    default:
      // HandDealt only reaches the seat dealt to, never a spectator.
      return "";
  }
}

/** The post-game reveal: every hand, and the cards dealt to nobody. */
function revealed(view: View): Reveal | undefined {
  if (view.gameView.case !== "gangOfFour") return undefined;
  const g = view.gameView.value;
  const draw = (c: GangOfFourCard) => drawCard(c);
  return {
    seats: g.revealedHands.map((hand) => ({ seat: hand.seat, cards: hand.cards.map(draw), notes: [] })),
    more: [{ label: "dealt to nobody", cards: g.revealedSetAside.map(draw), testid: "revealed-set-aside" }],
  };
}

export const gangOfFour: GameRenderer = {
  game: "gang_of_four",
  title: "Gang of Four",
  table,
  move,
  event,
  seat,
  revealed,
};
