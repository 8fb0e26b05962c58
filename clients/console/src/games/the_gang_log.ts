/**
 * The Gang's history in words: one line per move and per event, with every seat named by
 * `seatLabel` and every card and chip by its name ("Ada takes the white chip with 3 stars
 * from the middle").
 */
import type { Event, Move, View } from "@referee/client/web";
import { t } from "../i18n/index.js";
import { seatLabel } from "../table.js";
import {
  announced, cardText, challengeName, chipText, colourName, decisionText, specialistName, streetName,
} from "./the_gang_parts.js";

/** A logged move, without its seat (the log names who made it). */
export function move(m: Move | undefined, v?: View): string {
  if (!m) return t("gang.move.secret");
  if (m.game.case !== "theGang") return "";
  const a = m.game.value.action;
  switch (a.case) {
    case "takeChip": return t("gang.move.take", { chip: chipText(a.value.colour, a.value.stars) });
    case "returnChip": return t("gang.move.return", { chip: chipText(a.value.colour, a.value.stars) });
    case "confirmRoundEnd": return t("gang.move.confirm");
    case "propose": return t("gang.move.propose", { decision: decisionText(v, a.value.decision) });
    case "accept": return t("gang.move.accept", { id: a.value.proposal });
    case "withdraw": return t("gang.move.withdraw", { id: a.value.proposal });
    case "showCard": return t("gang.move.show", { card: cardText(a.value.card) });
    case "discardCard": return t("gang.move.discard", { card: cardText(a.value.card) });
    case "passCard": return t("gang.move.pass", { card: cardText(a.value.card) });
    default: return "";
  }
}

type Kind = Extract<Event["game"], { case: "theGang" }>["value"]["kind"];

/** The events of the deal and the rounds. */
function roundEvent(k: Kind, v: View | undefined): string | undefined {
  const name = (n: number): string => seatLabel(v, n);
  switch (k.case) {
    case "boardDealt": {
      const cards = k.value.cards.map(cardText).join(", ");
      return t(k.value.cards.length === 3 ? "gang.event.flop" : "gang.event.board", { cards });
    }
    case "roundStarted":
      return t("gang.event.round", { heist: k.value.heist, colour: colourName(k.value.colour), street: streetName(k.value.colour) });
    case "chipTaken": {
      const chip = chipText(k.value.colour, k.value.stars);
      return k.value.fromSeat === undefined
        ? t("gang.event.takeMiddle", { name: name(k.value.seat), chip })
        : t("gang.event.takeFrom", { name: name(k.value.seat), chip, from: name(k.value.fromSeat) });
    }
    case "chipReturned": return t("gang.event.return", { name: name(k.value.seat), chip: chipText(k.value.colour, k.value.stars) });
    case "roundEndConfirmed": return t("gang.event.confirmed", { name: name(k.value.seat) });
    case "heistEnded": {
      const r = k.value.result;
      const params = { heist: r?.heist ?? "?", vaults: k.value.vaults, alarms: k.value.alarms };
      return t(r?.success ? "gang.event.heistWon" : "gang.event.heistLost", params);
    }
    case "gameEnded": return t(k.value.won ? "gang.event.won" : "gang.event.lost");
    case "chipsSetAside": return t("gang.event.setAside", { colour: colourName(k.value.colour) });
    default: return undefined;
  }
}

/** The events of the challenge and specialist cards and of the gang's decisions. */
function cardEvent(k: Kind, v: View | undefined): string {
  const name = (n: number): string => seatLabel(v, n);
  switch (k.case) {
    case "cardsActive": {
      const cards = [
        ...k.value.challenges.map((c) => t("gang.event.challenge", { name: challengeName(c) })),
        ...(k.value.specialist ? [t("gang.event.specialist", { name: specialistName(k.value.specialist) })] : []),
      ];
      return cards.length ? t("gang.event.cards", { heist: k.value.heist, cards: cards.join(", ") }) : "";
    }
    case "pileShuffled": return t(k.value.specialistPile ? "gang.event.specialistsShuffled" : "gang.event.challengesShuffled");
    case "pocketsGathered": return t("gang.event.gathered");
    case "pocketRedrawn":
      return t("gang.event.redrawn", { challenge: challengeName(k.value.challenge), name: name(k.value.seat) });
    case "proposalMade": {
      const p = k.value.proposal;
      return p ? t("gang.event.proposed", { name: name(p.proposer), decision: decisionText(v, p.decision), id: p.id }) : "";
    }
    case "proposalAccepted": return t("gang.event.accepted", { name: name(k.value.seat), id: k.value.proposal });
    case "proposalWithdrawn": return t("gang.event.withdrawn", { id: k.value.proposal });
    case "decisionTaken": return k.value.proposal ? t("gang.event.agreed", { decision: decisionText(v, k.value.proposal.decision) }) : "";
    case "announced": {
      const a = k.value.announcement;
      return a ? `${name(a.seat)} · ${announced(v, a)}` : "";
    }
    case "cardDrawn": return t("gang.event.drawn", { name: name(k.value.seat), card: cardText(k.value.card) });
    case "jackTaken": return t("gang.event.jack", { name: name(k.value.seat) });
    case "cardDiscarded": return t("gang.event.discarded", { name: name(k.value.seat), card: cardText(k.value.card) });
    case "passChosen": return t("gang.event.passChosen", { name: name(k.value.seat) });
    case "cardPassed":
      return t("gang.event.passed", { name: name(k.value.fromSeat), card: cardText(k.value.card), to: name(k.value.toSeat) });
    case "guessesDue":
      return t("gang.event.guessesDue", {
        name: name(k.value.seat), challenges: k.value.challenges.map(challengeName).join(", "),
      });
    default: return ""; // pocketDealt (never a spectator's), roundEnded
  }
}

/** One line for an event, or "" to leave it out; `v` names the seats. */
export function event(e: Event, v?: View): string {
  if (e.game.case !== "theGang") return "";
  const k = e.game.value.kind;
  return roundEvent(k, v) ?? cardEvent(k, v);
}
