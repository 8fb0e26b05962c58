/**
 * Pinched! (Gekraakt!): the public table of a spectator's view. The locations ("locatie-
 * tableaus") with their open cards and what lies on them (treasures, the sealed letter,
 * the vault, the dogs, the secret passage), the river, deck and discard pile, and every
 * burglar's stash ("voorraad") face up with its hand and sold cards as backs and its
 * tokens. Sealed location cards show only that a seat has chosen, never what. A seat's own
 * table, with its moves on it, is `pinched_seat.ts`.
 */
import { Location, type Event, type Move, type Valuable, type View } from "@referee/client/web";
import { html, type TemplateResult } from "lit-html";
import {
  cap,
  cardName,
  DOGS,
  DRAWS,
  field,
  kindLabel,
  kindsOf,
  locationTile,
  pile,
  place,
  PLACES,
  plural,
  progress,
  salesTable,
  scores,
  seatName,
  seats,
  stash,
  statusBar,
  TREASURES,
  valuable,
  type Kinds,
} from "./pinched_parts.js";
import { seat } from "./pinched_seat.js";
import type { GameRenderer, MoreReveal, Reveal } from "./types.js";

function table(view: View): TemplateResult {
  if (view.gameView.case !== "pinched") return html`<p>Not a Pinched! view.</p>`;
  const v = view.gameView.value;
  const top = v.discard.at(-1);
  return html`<div class="pinched-table">
    ${statusBar(view, v)}
    ${progress(v)}
    <div class="pinched-locations">${v.locations.map((l) => locationTile(v, l))}</div>
    <div class="pinched-middle">
      <section class="pinched-river" data-testid="river">
        <header>The river</header>
        <div class="pinched-fields">${v.river.map(field)}</div>
      </section>
      <section class="pinched-piles">
        <div class="pinched-deck">${v.deckSize ? pile(v.deckSize, "the deck", "in the deck") : "the deck is empty"}</div>
        <div class="pinched-discard" title="the discard pile, face up">
          ${top ? valuable(top, true) : html`<div class="pinched-bare">—</div>`}
          <span class="pinched-pile-label">${v.discard.length} discarded</span>
        </div>
      </section>
      ${salesTable(v)}
    </div>
    <div class="pinched-stashes">${Array.from({ length: v.players }, (_, seat) => stash(view, v, seat))}</div>
    ${scores(view, v)}
  </div>`;
}

const fieldRef = (f: { location: Location; field: number } | undefined): string =>
  f ? `field ${f.field} of ${place(f.location)}` : "an open card";

function move(m: Move | undefined, view?: View): string {
  if (!m) return "(secret)";
  if (m.game.case !== "pinched") return "";
  const a = m.game.value.action;
  switch (a.case) {
    case "chooseLocation":
      return a.value.location ? `chooses ${place(a.value.location)}` : "chooses a location (sealed)";
    case "takeCard": return `takes the card on field ${a.value.field}`;
    case "usePassage": return `uses the secret passage: ${a.value.cards.map(fieldRef).join(" and ")}`;
    case "skipPassage": return "leaves the secret passage alone";
    case "takeDog": return `takes ${DOGS[a.value.dog]}`;
    case "passCurse": return `passes a curse to ${seatName(a.value.toSeat)}`;
    case "keepCurses": return "passes no curse";
    case "takeWithGordie": return `sends Gordie for ${fieldRef(a.value.card)}`;
    case "store": return `stores ${cardName(a.value.card, kindsOf(view))} on slot ${a.value.slot}`;
    case "sell": return `sells the set on slot ${a.value.slot}`;
    case "endSelling": return "stops selling";
    case "takeFromRiver": return `takes the river card on field ${a.value.field}`;
    default:
      return "";
  }
}

function eventText(e: Event, kinds: Kinds): string {
  if (e.game.case !== "pinched") return "";
  const k = e.game.value.kind;
  switch (k.case) {
    case "dayStarted":
      return `Day ${k.value.day} (${plural(k.value.watch, "week")} left): ${seatName(k.value.mastermind)} is the mastermind`;
    case "cardsDrawn":
      return `${seatName(k.value.seat)} draws ${plural(k.value.count, "card")} face down${DRAWS[k.value.reason]}`;
    case "cardTaken":
      return `${seatName(k.value.seat)} takes ${cardName(k.value.card, kinds)} from ${place(k.value.location)}`;
    case "deckReshuffled": return `the discard pile is shuffled into a new deck of ${k.value.cards} cards`;
    case "locationChosen": return `${seatName(k.value.seat)} chooses a location (sealed)`;
    case "locationsRevealed":
      return `location cards turned: ${k.value.choices.map((c, s) => `${seatName(s)} ${PLACES[c].suit}`).join(", ")}; ` +
        `the heist is at ${place(k.value.heist)}`;
    case "passageUsed": return `${seatName(k.value.seat)} uses the secret passage`;
    case "curseDrawn": return `${seatName(k.value.seat)} draws a curse`;
    case "cursePassed": return `${seatName(k.value.fromSeat)} passes a curse to ${seatName(k.value.toSeat)}`;
    case "vaultMoved": return `the vault moves up: it now holds ${plural(k.value.value, "card")}`;
    case "dogTaken":
      return `${seatName(k.value.seat)} takes ${DOGS[k.value.dog]}` +
        (k.value.fromSeat === undefined ? "" : ` from ${seatName(k.value.fromSeat)}`);
    case "dogUsed": return `${seatName(k.value.seat)} uses ${DOGS[k.value.dog]}`;
    case "treasureTaken":
      return `${seatName(k.value.seat)} takes ${TREASURES[k.value.treasure]} (${plural(k.value.points, "point")})`;
    case "letterRead": return `${seatName(k.value.seat)} reads the sealed letter`;
    case "letterOpened": return `the letter is opened: the Lisa Mona hid at ${place(k.value.location)}`;
    case "bankFailed": return "every burglar went to the bank: nobody gets anything";
    case "sold": {
      const kind = kinds.names[k.value.kindIndex];
      return `${seatName(k.value.seat)} sells ${k.value.count} ${kind ? kindLabel(kind) : "cards"} ` +
        `from slot ${k.value.slot}: ${plural(k.value.points, "point")}`;
    }
    case "discarded":
      return `${seatName(k.value.seat)} discards ${k.value.cards.map((c) => cardName(c, kinds)).join(", ")}`;
    case "gameEnded":
      return `game over: ${seats(k.value.winners)} ${k.value.winners.length > 1 ? "win" : "wins"} ` +
        `(${k.value.scores.map((s) => `${seatName(s.seat)} ${s.total}`).join(", ")})`;
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
      sold.length ? `sold (last ${sold.length})` : "",
      curses.length ? `curses ${curseText(curses)}` : "",
      choice ? `location card: ${place(choice)}` : "",
    ].filter(Boolean);
    return { seat, cards: [...hand.cards, ...sold].map(draw), notes };
  });
  const more: MoreReveal[] = [{ label: "the draw pile, top first", cards: p.revealedDeck.map(draw) }];
  if (p.revealedLetter !== Location.UNSPECIFIED) more.push({ label: "the sealed letter", cards: [], text: place(p.revealedLetter) });
  if (p.revealedCursePile.length) more.push({ label: "the curse pile", cards: [], text: curseText(p.revealedCursePile) });
  return { seats, more };
}

export const pinched: GameRenderer = {
  game: "pinched",
  title: "Pinched!",
  table,
  move,
  event: (e: Event, view?: View): string => cap(eventText(e, kindsOf(view))),
  seat,
  revealed,
};
