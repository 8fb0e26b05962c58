/**
 * Pinched! (Gekraakt!): the public table of a spectator's view. The locations ("locatie-
 * tableaus") with their open cards and what lies on them (treasures, the sealed letter,
 * the vault, the dogs, the secret passage), the river, deck and discard pile, and every
 * burglar's stash ("voorraad") face up with its hand and sold cards as backs and its
 * tokens. Sealed location cards show only that a seat has chosen, never what. A seat's own
 * table, with its moves on it, and its prompt are `pinched_seat.ts`.
 *
 * Events and moves read as a player says them, burglars by name and cards by kind ("Ada
 * discards 2 paintings"); ids never show.
 */
import { DrawReason, Location, Treasure, type Event, type Move, type PinchedEvent, type Valuable, type View } from "@referee/client/web";
import { html, type TemplateResult } from "lit-html";
import { num, t } from "../i18n/index.js";
import {
  cap,
  cardName,
  cardsN,
  cardsNamed,
  dogName,
  field,
  kindCount,
  kindsOf,
  locationTile,
  middle,
  pile,
  place,
  placeAt,
  placeFrom,
  pointsN,
  progress,
  salesTable,
  scores,
  stash,
  statusBar,
  suitOf,
  valuable,
  weeksN,
  who,
  whom,
  type Kinds,
} from "./pinched_parts.js";
import { prompt, seat } from "./pinched_seat.js";
import type { GameRenderer, MoreReveal, Reveal } from "./types.js";

function table(view: View): TemplateResult {
  if (view.gameView.case !== "pinched") return html`<p>${t("pinched.notPinched")}</p>`;
  const v = view.gameView.value;
  const top = v.discard.at(-1);
  const piles = html`<section class="pinched-piles">
    <div class="pinched-deck">${v.deckSize ? pile(v.deckSize, t("pinched.deck", { cards: cardsN(v.deckSize) })) : t("pinched.deckEmpty")}</div>
    <div class="pinched-discard" title="${t("pinched.discardHint")}">
      ${top ? valuable(top, true) : html`<div class="pinched-bare">—</div>`}
      <span class="pinched-pile-label">${t("pinched.discarded", { count: num(v.discard.length) })}</span>
    </div>
  </section>`;
  return html`<div class="pinched-table">
    ${statusBar(view, v)}
    ${progress(view, v)}
    <div class="pinched-locations">${v.locations.map((l) => locationTile(view, v, l))}</div>
    ${middle(html`${v.river.map(field)}`, piles, salesTable(v))}
    <div class="pinched-stashes">${Array.from({ length: v.players }, (_, s) => stash(view, v, s))}</div>
    ${scores(view, v)}
  </div>`;
}

const fieldRef = (f: { location: Location; field: number } | undefined): string =>
  f ? t("pinched.fieldAt", { field: num(f.field + 1), at: placeAt(f.location) }) : t("pinched.anOpenCard");

function move(m: Move | undefined, view?: View): string {
  if (!m) return t("pinched.move.secret");
  if (m.game.case !== "pinched") return "";
  const a = m.game.value.action;
  switch (a.case) {
    case "chooseLocation":
      return a.value.location ? t("pinched.move.choose", { place: place(a.value.location) }) : t("pinched.move.chooseSealed");
    case "takeCard": return t("pinched.move.take", { field: num(a.value.field + 1) });
    case "usePassage": return t("pinched.move.passage", { cards: a.value.cards.map(fieldRef).join(", ") });
    case "skipPassage": return t("pinched.move.skipPassage");
    case "takeDog": return t("pinched.move.dog", { dog: dogName(a.value.dog) });
    case "passCurse": return t("pinched.move.passCurse", { name: who(view, a.value.toSeat) });
    case "keepCurses": return t("pinched.move.keepCurses");
    case "takeWithGordie": return t("pinched.move.gordie", { card: fieldRef(a.value.card) });
    case "store": return t("pinched.move.store", { card: cardName(a.value.card, kindsOf(view)), slot: num(a.value.slot + 1) });
    case "sell": return t("pinched.move.sell", { slot: num(a.value.slot + 1) });
    case "endSelling": return t("pinched.move.endSelling");
    case "takeFromRiver": return t("pinched.move.river", { field: num(a.value.field + 1) });
    default:
      return "";
  }
}

type Kind = NonNullable<PinchedEvent["kind"]["case"]>;
type ValueOf<K extends Kind> = Extract<PinchedEvent["kind"], { case: K }>["value"];

function drawn(view: View | undefined, e: ValueOf<"cardsDrawn">): string {
  const params = { name: who(view, e.seat), cards: cardsN(e.count) };
  switch (e.reason) {
    case DrawReason.START: return t("pinched.ev.drawnStart", params);
    case DrawReason.LAST_TAKE: return t("pinched.ev.drawnLastTake", params);
    case DrawReason.VAULT: return t("pinched.ev.drawnVault", params);
    case DrawReason.BANK: return t("pinched.ev.drawnBank", params);
    default: return t("pinched.ev.drawn", params);
  }
}

function treasure(view: View | undefined, e: ValueOf<"treasureTaken">): string {
  const params = { name: who(view, e.seat), points: pointsN(e.points) };
  switch (e.treasure) {
    case Treasure.LISA_MONA: return t("pinched.ev.lisaTaken", params);
    case Treasure.DIAMOND: return t("pinched.ev.diamondTaken", params);
    case Treasure.CLUE: return t("pinched.ev.clueTaken", params);
    default: return t("pinched.ev.treasureTaken", params);
  }
}

function eventText(e: Event, view: View | undefined, kinds: Kinds): string {
  if (e.game.case !== "pinched") return "";
  const k = e.game.value.kind;
  switch (k.case) {
    case "dayStarted":
      return t("pinched.ev.day", { day: num(k.value.day), weeks: weeksN(k.value.watch), name: who(view, k.value.mastermind) });
    case "cardsDrawn": return drawn(view, k.value);
    case "cardTaken":
      return t("pinched.ev.taken", { name: who(view, k.value.seat), card: cardName(k.value.card, kinds), from: placeFrom(k.value.location) });
    case "deckReshuffled": return t("pinched.ev.reshuffled", { cards: cardsN(k.value.cards) });
    case "locationChosen": return t("pinched.ev.chosen", { name: who(view, k.value.seat) });
    case "locationsRevealed":
      return t("pinched.ev.revealed", {
        choices: k.value.choices.map((c, s) => `${who(view, s)} ${suitOf(c)}`).join(", "),
        at: placeAt(k.value.heist),
      });
    case "passageUsed": return t("pinched.ev.passage", { name: who(view, k.value.seat) });
    case "curseDrawn": return t("pinched.ev.curseDrawn", { name: who(view, k.value.seat) });
    case "cursePassed": return t("pinched.ev.cursePassed", { name: who(view, k.value.fromSeat), to: who(view, k.value.toSeat) });
    case "vaultMoved": return t("pinched.ev.vault", { cards: cardsN(k.value.value) });
    case "dogTaken":
      return k.value.fromSeat === undefined
        ? t("pinched.ev.dog", { name: who(view, k.value.seat), dog: dogName(k.value.dog) })
        : t("pinched.ev.dogFrom", { name: who(view, k.value.seat), dog: dogName(k.value.dog), from: who(view, k.value.fromSeat) });
    case "dogUsed": return t("pinched.ev.dogUsed", { name: who(view, k.value.seat), dog: dogName(k.value.dog) });
    case "treasureTaken": return treasure(view, k.value);
    case "letterRead": return t("pinched.ev.letterRead", { name: who(view, k.value.seat) });
    case "letterOpened": return t("pinched.ev.letterOpened", { at: placeAt(k.value.location) });
    case "bankFailed": return t("pinched.ev.bankFailed");
    case "sold": {
      const kind = kinds.names[k.value.kindIndex];
      return t("pinched.ev.sold", {
        name: who(view, k.value.seat),
        cards: kind ? kindCount(kind, k.value.count) : cardsN(k.value.count),
        points: pointsN(k.value.points),
      });
    }
    case "discarded": return t("pinched.ev.discarded", { name: who(view, k.value.seat), cards: cardsNamed(k.value.cards, kinds) });
    case "gameEnded":
      return t(k.value.winners.length > 1 ? "pinched.ev.endedTie" : "pinched.ev.ended", {
        names: whom(view, k.value.winners),
        scores: k.value.scores.map((s) => `${who(view, s.seat)} ${num(s.total)}`).join(", "),
      });
    default:
      // Refills, storing, kept curses and the day's end are routine; the table shows them.
      return "";
  }
}

const curseText = (curses: readonly { points: number }[]): string => curses.map((c) => `−${c.points}`).join(" ");

/** The post-game reveal: every hand with its sold pile, curses and location card; the deck, letter, curse pile. */
function revealed(view: View): Reveal | undefined {
  if (view.gameView.case !== "pinched") return undefined;
  const p = view.gameView.value;
  const draw = (c: Valuable) => valuable(c);
  const seats = p.revealedHands.map((hand, seat) => {
    const sold = p.revealedSold[seat]?.cards ?? [];
    const curses = p.revealedCurses[seat]?.curses ?? [];
    const choice = p.revealedChoices[seat];
    const notes = [
      sold.length ? t("pinched.reveal.sold", { count: num(sold.length) }) : "",
      curses.length ? t("pinched.reveal.curses", { curses: curseText(curses) }) : "",
      choice ? t("pinched.reveal.choice", { place: place(choice) }) : "",
    ].filter(Boolean);
    return { seat, cards: [...hand.cards, ...sold].map(draw), notes };
  });
  const more: MoreReveal[] = [{ label: t("pinched.reveal.deck"), cards: p.revealedDeck.map(draw) }];
  if (p.revealedLetter !== Location.UNSPECIFIED) more.push({ label: t("pinched.reveal.letter"), cards: [], text: place(p.revealedLetter) });
  if (p.revealedCursePile.length) more.push({ label: t("pinched.reveal.cursePile"), cards: [], text: curseText(p.revealedCursePile) });
  return { seats, more };
}

export const pinched: GameRenderer = {
  game: "pinched",
  get title(): string {
    return t("pinched.title");
  },
  table,
  move,
  event: (e: Event, view?: View): string => cap(eventText(e, view, kindsOf(view))),
  seat,
  prompt,
  revealed,
};
