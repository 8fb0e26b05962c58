/**
 * Gang of Four: the public table of a spectator's view. Every seat with its hand as a
 * count and a fan of backs, its badges (leads, to act, passed, last card) and its total;
 * the play to beat in the middle, face up; the exchange before the hand; the scores per
 * hand. The view keeps only the play to beat, not the earlier plays of the trick. A seat's
 * own table, with its moves and its prompt, is `gang_of_four_seat.ts`; the parts both draw
 * are in `gang_of_four_draw.ts`. Every word comes from the catalogue ("gof." keys), every
 * seat is named by `seatLabel`.
 */
import type { Event, GangOfFourCard, Move, View } from "@referee/client/web";
import { html, type TemplateResult } from "lit-html";
import { t } from "../i18n/index.js";
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
  statusLine,
  winnersText,
} from "./gang_of_four_draw.js";
import { prompt, seat } from "./gang_of_four_seat.js";
import { seatLabel } from "../table.js";
import type { GameRenderer, Reveal } from "./types.js";

function table(view: View): TemplateResult {
  if (view.gameView.case !== "gangOfFour") return html`<p>${t("gof.notThisGame")}</p>`;
  const g = view.gameView.value;
  const seats = Array.from({ length: g.players }, (_, n) => n);
  return html`<div class="gof-table gof-players-${g.players}">
    ${statusLine(g)}
    <div class="gof-felt">${seats.map((n) => seatBox(view, g, n, n, backs(view, g, n)))}${centre(view, g)}</div>
    ${scores(view, g)}
  </div>`;
}

function move(m: Move | undefined): string {
  if (!m) return t("gof.secret");
  if (m.game.case !== "gangOfFour") return "";
  const a = m.game.value.action;
  switch (a.case) {
    case "play": {
      const play = playText(a.value.cards, classify(a.value.cards));
      return t(a.value.announceLastCard ? "gof.move.playAnnounced" : "gof.move.play", { play });
    }
    case "pass":
      return t("gof.move.pass");
    case "giveBack":
      return a.value.card ? t("gof.move.giveBack", { card: cardName(a.value.card) }) : t("gof.move.giveBackAny");
    default:
      return "";
  }
}

function event(e: Event, view?: View): string {
  return cap(eventText(e, (n) => seatLabel(view, n)));
}

/** Points or totals by seat, with the seats' names: "Ann 0, Bo 12, Cy 5". */
function bySeat(values: readonly number[], name: (seat: number) => string): string {
  return values.map((points, n) => t("gof.scoreOf", { name: name(n), points })).join(", ");
}

/** An event in words; `name` names a seat. */
function eventText(e: Event, name: (seat: number) => string): string {
  if (e.game.case !== "gangOfFour") return "";
  const k = e.game.value.kind;
  switch (k.case) {
    case "handStarted": {
      const { hand, dealer, leader } = k.value;
      return t("gof.event.handStarted", {
        hand,
        dealer: name(dealer),
        direction: direction(k.value.direction),
        leader: name(leader),
      });
    }
    case "cardGiven": {
      const names = { loser: name(k.value.loser), winner: name(k.value.winner) };
      return k.value.card
        ? t("gof.event.cardGiven", { ...names, card: cardName(k.value.card) })
        : t("gof.event.cardGivenAny", names);
    }
    case "cardReturned": {
      const names = { loser: name(k.value.loser), winner: name(k.value.winner) };
      return k.value.card
        ? t("gof.event.cardReturned", { ...names, card: cardName(k.value.card) })
        : t("gof.event.cardReturnedAny", names);
    }
    case "played":
      return t("gof.event.played", {
        seat: name(k.value.seat),
        play: playText(k.value.cards, k.value.kind),
        left: k.value.cardsLeft,
      });
    case "passed":
      return t("gof.event.passed", { seat: name(k.value.seat) });
    case "trickWon": {
      const { winner, leader } = k.value;
      return winner === leader
        ? t("gof.event.trickLeads", { winner: name(winner) })
        : t("gof.event.trickOther", { winner: name(winner), leader: name(leader) });
    }
    case "lastCardAnnounced":
      return t("gof.event.lastCard", { seat: name(k.value.seat) });
    case "lastCardForgotten":
      return t("gof.event.forgot", { seat: name(k.value.seat) });
    case "handEnded": {
      const r = k.value.result;
      if (!r) return t("gof.event.handOver");
      return t("gof.event.handEnded", {
        hand: r.hand,
        winner: name(r.winner),
        points: bySeat(r.points, name),
        totals: bySeat(k.value.totals, name),
      });
    }
    case "gameEnded":
      return t("gof.event.gameEnded", {
        winners: winnersText(k.value.winners.map(name)),
        totals: bySeat(k.value.totals, name),
      });
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
    more: [{ label: t("gof.revealed.nobody"), cards: g.revealedSetAside.map(draw), testid: "revealed-set-aside" }],
  };
}

export const gangOfFour: GameRenderer = {
  game: "gang_of_four",
  title: "Gang of Four",
  table,
  move,
  event,
  seat,
  prompt,
  revealed,
};
