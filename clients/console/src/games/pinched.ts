/**
 * Pinched! (Gekraakt!): the public table of a spectator's view. The locations ("locatie-
 * tableaus") with their open cards and what lies on them (treasures, the sealed letter,
 * the vault, the dogs, the secret passage), the river, deck and discard pile, and every
 * burglar's stash ("voorraad") face up with its hand and sold cards as backs and its
 * tokens. Sealed location cards show only that a seat has chosen, never what.
 */
import {
  Dog,
  DrawReason,
  Location,
  PinchedPhase,
  Side,
  Treasure,
  ValuableSchema,
  type Event,
  type LocationSide,
  type Move,
  type OpenField,
  type PinchedComponents,
  type PinchedView,
  type StashSlot,
  type Valuable,
  type View,
} from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";
import { card, cardBack, cardKey } from "../cards.js";
import { seatLabel } from "../table.js";
import type { GameRenderer } from "./types.js";
import "./pinched.css";

type Maybe = TemplateResult | typeof nothing;

/** Each location's suit, name and mansion name (from the Dutch rules). */
const PLACES: Record<Location, { suit: string; name: string; house: string }> = {
  [Location.UNSPECIFIED]: { suit: "", name: "the river", house: "" },
  [Location.DIAMONDS]: { suit: "♦", name: "the diamonds mansion", house: "Huize Zilversteen" },
  [Location.CLUBS]: { suit: "♣", name: "the clubs mansion", house: "Burcht Tonnengoud" },
  [Location.SPADES]: { suit: "♠", name: "the spades mansion", house: "Castello Verdeggianti" },
  [Location.HEARTS]: { suit: "♥", name: "the hearts mansion", house: "Château Mille-feuille" },
  [Location.BANK]: { suit: "$", name: "Stonewall Bank", house: "" },
};

const PHASES: Record<PinchedPhase, string> = {
  [PinchedPhase.UNSPECIFIED]: "", [PinchedPhase.DOGS]: "morning: the dogs", [PinchedPhase.PLAN]: "morning: the plan",
  [PinchedPhase.NIGHT]: "night: the heist", [PinchedPhase.AFTER]: "after the heist",
  [PinchedPhase.FINAL_DOGS]: "game end: the dogs", [PinchedPhase.FINAL_SALE]: "game end: the final sale",
  [PinchedPhase.OVER]: "game over",
};

const DOGS: Record<Dog, string> = { [Dog.UNSPECIFIED]: "a dog", [Dog.RUFUS]: "Rufus", [Dog.GORDIE]: "Gordie" };
const TREASURES: Record<Treasure, string> = { [Treasure.UNSPECIFIED]: "a treasure",
  [Treasure.LISA_MONA]: "the Lisa Mona", [Treasure.DIAMOND]: "a diamond", [Treasure.CLUE]: "a clue" };
const DRAWS: Record<DrawReason, string> = { [DrawReason.UNSPECIFIED]: "", [DrawReason.START]: " (starting valuables)",
  [DrawReason.LAST_TAKE]: " (the location was bare)", [DrawReason.VAULT]: " from the cracked vault",
  [DrawReason.BANK]: " from the bank" };

/** How the known kinds look; other kinds (a custom component table) get a letter. */
const FACES: Record<string, { glyph: string; colour: string }> = {
  coins: { glyph: "◉", colour: "gold" }, gold_bars: { glyph: "▬", colour: "yellow" },
  paintings: { glyph: "▣", colour: "purple" }, jewels: { glyph: "◆", colour: "blue" },
  statues: { glyph: "♜", colour: "green" }, document: { glyph: "✉", colour: "black" },
};
const OTHER_COLOURS = ["red", "green", "blue", "purple"];

const seatName = (seat: number): string => `seat ${seat}`;
const cap = (line: string): string => line.charAt(0).toUpperCase() + line.slice(1);
const seats = (list: readonly number[]): string => list.map(seatName).join(", ");
const kindLabel = (kind: string): string => kind.replaceAll("_", " ");
const place = (location: Location): string => PLACES[location].name;
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** What events and moves name by id only: the kind of every card id, and the kinds in table order. */
interface Kinds {
  ofId: readonly string[];
  names: readonly string[];
}

const NO_KINDS: Kinds = { ofId: [], names: [] };
const kindsCache = new WeakMap<PinchedComponents, Kinds>();

/**
 * The kinds of `view`'s component table (fixed for a game): ids are the copies of each kind
 * in table order, then the documents.
 */
function kindsOf(view: View | undefined): Kinds {
  const components = view?.gameView.case === "pinched" ? view.gameView.value.components : undefined;
  if (!components) return NO_KINDS;
  let kinds = kindsCache.get(components);
  if (kinds === undefined) {
    const ofId = components.kinds.flatMap((k) => Array<string>(k.copies).fill(k.name));
    ofId.push(...Array<string>(components.jokers).fill("document"));
    kinds = { ofId, names: components.kinds.map((k) => k.name) };
    kindsCache.set(components, kinds);
  }
  return kinds;
}

/** A card named by id in words, e.g. "coins (#12)": its kind from the view's table. */
function cardName(id: number, kinds: Kinds = NO_KINDS): string {
  const kind = kinds.ofId[id];
  return kind ? `${kind === "document" ? "a document" : kindLabel(kind)} (#${id})` : `card #${id}`;
}

function valuable(v: Valuable, small = false): TemplateResult {
  const face = FACES[v.kind] ?? {
    glyph: v.kind.charAt(0).toUpperCase() || "?",
    colour: OTHER_COLOURS[v.kind.length % OTHER_COLOURS.length],
  };
  const title = v.kind === "document" ? "document (joker)" : kindLabel(v.kind);
  return card({ key: cardKey(ValuableSchema, v), rank: face.glyph, symbol: face.glyph, colour: face.colour, title }, { small });
}

function field(f: OpenField): TemplateResult {
  return f.card ? valuable(f.card) : html`<div class="pinched-bare" title="bare field">—</div>`;
}

/** A face-down pile drawn as a few stacked backs and its count. */
function pile(count: number, title: string, label: string): Maybe {
  if (count <= 0) return nothing;
  return html`<span class="pinched-pile" title="${title}"
    ><span class="pinched-stack">${Array.from({ length: Math.min(count, 5) }, () => cardBack(title, { small: true }))}</span
    ><span class="pinched-pile-label">${count} ${label}</span></span
  >`;
}

const token = (text: string, cls: string, title = text): TemplateResult =>
  html`<span class="pinched-token pinched-${cls}" title="${title}">${text}</span>`;

/** What lies on a location besides its open cards. */
function special(v: PinchedView, l: LocationSide): Maybe {
  const crown = l.side === Side.CROWN;
  const holder = (seat: number | undefined, where: string) => (seat === undefined ? where : `with ${seatName(seat)}`);
  switch (l.location) {
    case Location.DIAMONDS: {
      // The view sets the points once taken; before that, the rules' 3 (5 on the crown side).
      const points = v.lisaMonaPoints || (crown ? 5 : 3);
      const lisa = token(`Lisa Mona (${points} pts): ${holder(v.lisaMonaHolder, crown ? "hidden" : "here")}`, "lisa");
      if (!crown) return html`${lisa}${token(`diamonds left: ${v.diamondsLeft}`, "diamond")}`;
      const letter = v.letterOpened && v.letter
        ? `letter opened: ${place(v.letter)}`
        : `sealed letter${v.letterReadBy.length ? ` (read by ${seats(v.letterReadBy)})` : ""}`;
      return html`${lisa}${token(letter, "letter")}${token(`clues left: ${v.cluesLeft}`, "clue")}`;
    }
    case Location.CLUBS: {
      const track = (crown ? v.components?.vaultCrown : v.components?.vaultStandard) ?? [];
      return html`<span class="pinched-vault" title="the vault: a mastermind alone draws this many cards"
        >vault ${track.map((n, i) => html`<span class="pinched-step ${i === v.vault ? "pinched-here" : ""}">${n}</span>`)}</span
      >`;
    }
    case Location.SPADES:
      return html`${token(`Rufus: ${holder(v.rufusHolder, "here")}`, "dog")}${crown
        ? token(`Gordie: ${holder(v.gordieHolder, "here")}`, "dog")
        : nothing}`;
    case Location.HEARTS:
      return html`${token(v.passageOpen ? "secret passage open" : "secret passage closed", "passage")}${crown
        ? token(`curses face down: ${v.cursePile}`, "curse")
        : nothing}`;
    case Location.BANK:
      return token("no open cards: the loot comes from the deck", "bank");
    default:
      return nothing;
  }
}

function locationTile(v: PinchedView, l: LocationSide): TemplateResult {
  const p = PLACES[l.location];
  const fields = v.fields.find((f) => f.location === l.location)?.fields ?? [];
  const here = v.choices.flatMap((c, seat) => (c === l.location ? [seat] : []));
  return html`<section
    class="pinched-location ${v.heist === l.location ? "pinched-heist" : ""}"
    data-testid="location"
    data-location="${Location[l.location].toLowerCase()}"
  >
    <header>
      <span class="pinched-name"
        ><span class="pinched-suit">${p.suit}</span> ${cap(p.name.replace(/^the /, ""))}
        ${l.side === Side.CROWN ? html`<span class="pinched-crown" title="crown side">♛</span>` : nothing}</span
      >
      ${p.house ? html`<small>${p.house}</small>` : nothing}
    </header>
    ${fields.length ? html`<div class="pinched-fields">${fields.map(field)}</div>` : nothing}
    <div class="pinched-special">${special(v, l)}</div>
    ${here.length
      ? html`<div class="pinched-visitors">${v.heist === l.location ? "tonight's heist: " : "chosen by "}${here
          .map((s) => (s === v.mastermind ? `${seatName(s)} (mastermind)` : seatName(s)))
          .join(", ")}</div>`
      : nothing}
  </section>`;
}

/** The set a slot would sell for now (the highest threshold reached), from the component table. */
function saleValue(v: PinchedView, slot: StashSlot): number {
  const kind = v.components?.kinds.find((k) => k.name === slot.kind);
  return (kind?.sales ?? []).filter((s) => s.threshold <= slot.cards.length).reduce((best, s) => Math.max(best, s.value), 0);
}

function stash(view: View, v: PinchedView, seat: number): TemplateResult {
  const slots = v.stashes[seat]?.slots ?? [];
  const choice = v.choices[seat];
  const badges: [string, string][] = [];
  if (v.mastermind === seat) badges.push(["mastermind", "mastermind"]);
  if (v.firstMastermind === seat) badges.push(["has the watch", "watch"]);
  if (view.toAct.includes(seat)) badges.push(["to act", "act"]);
  if (choice) badges.push([`chose ${PLACES[choice].suit || place(choice)}`, "choice"]);
  else if (v.chosenSeats.includes(seat)) badges.push(["chosen (sealed)", "sealed"]);
  if (v.present.includes(seat)) badges.push(["at the heist", "present"]);
  if (v.selling.includes(seat)) badges.push(["selling", "selling"]);
  if (view.outcome?.winners.includes(seat)) badges.push(["winner", "winner"]);
  const count = (list: readonly number[]) => list[seat] ?? 0;
  const acting = view.toAct.includes(seat) ? "pinched-acting" : "";
  return html`<section class="pinched-stash ${acting}" data-testid="stash" data-seat="${seat}">
    <header>
      <span class="pinched-seat" data-testid="seat-label">${seatLabel(view, seat)}</span>
      ${badges.map(([text, cls]) => html`<span class="pinched-badge pinched-${cls}">${text}</span>`)}
    </header>
    <div class="pinched-slots">
      ${slots.map((slot, i) => html`<div class="pinched-slot" data-slot="${i}">
        <div class="pinched-slot-label">${slot.kind
          ? html`<b>${kindLabel(slot.kind)}</b><br /><span title="cards on the slot → points if sold now"
              >×${slot.cards.length} → ${saleValue(v, slot)} pts</span>`
          : "empty"}</div>
        <div class="pinched-slot-cards">${slot.cards.map((c) => valuable(c, true))}</div>
      </div>`)}
    </div>
    <div class="pinched-extras">
      ${pile(count(v.handSizes), `${seatName(seat)}'s hand`, "in hand")}
      ${pile(count(v.soldCounts), `${seatName(seat)}'s sold cards`, "sold")}
      ${v.rufusHolder === seat ? token("Rufus", "dog") : nothing}
      ${v.gordieHolder === seat ? token("Gordie", "dog") : nothing}
      ${v.lisaMonaHolder === seat ? token(`Lisa Mona ${v.lisaMonaPoints}`, "lisa") : nothing}
      ${count(v.diamonds) ? token(`diamonds ×${count(v.diamonds)}`, "diamond") : nothing}
      ${count(v.clues) ? token(`clues ×${count(v.clues)}`, "clue") : nothing}
      ${count(v.curseCounts) ? token(`curses ×${count(v.curseCounts)}`, "curse", "curses (their points are secret)") : nothing}
      ${v.letterReadBy.includes(seat) && !v.letterOpened ? token("read the letter", "letter") : nothing}
    </div>
  </section>`;
}

/** Who the night or the afternoon waits for. */
function progress(v: PinchedView): Maybe {
  const lines: string[] = [];
  if (v.heist) {
    const alone = v.present.length === 1 ? " (the mastermind alone)" : "";
    lines.push(`Tonight's heist: ${place(v.heist)}${alone}; present: ${seats(v.present)}`);
  }
  if (v.takes.length) lines.push(`Takes to come: ${v.takes.map((t) => seatName(t.seat) + (t.last ? " (last)" : "")).join(", ")}`);
  if (v.passageDue) lines.push("The mastermind decides on the secret passage");
  if (v.dogDue) lines.push("The mastermind chooses a dog");
  if (v.curseTurns.length) lines.push(`Curses to pass or keep: ${seats(v.curseTurns)}`);
  if (v.gordieDue.length) lines.push(`Gordie fetches a card for ${seats(v.gordieDue)}`);
  if (v.riverTurns.length) lines.push(`Taking from the river: ${seats(v.riverTurns)}`);
  if (v.selling.length) lines.push(`Selling: ${seats(v.selling)}`);
  return lines.length ? html`<ul class="pinched-progress">${lines.map((l) => html`<li>${l}</li>`)}</ul>` : nothing;
}

function scores(view: View, v: PinchedView): Maybe {
  const rows = v.result?.scores ?? [];
  if (!rows.length) return nothing;
  return html`<table class="pinched-scores" data-testid="scores">
    <thead><tr><th>Burglar</th><th>Sold</th><th>Lisa Mona</th><th>Diamonds</th><th>Clues</th><th>Curses</th>
      <th>Total</th><th title="sold gold bars: the tie-break">Gold bars</th></tr></thead>
    <tbody>${rows.map((s) => html`<tr class="${view.outcome?.winners.includes(s.seat) ? "pinched-won" : ""}">
      <td>${cap(seatName(s.seat))}</td><td>${s.sold}</td><td>${s.lisaMona}</td><td>${s.diamonds}</td><td>${s.clues}</td>
      <td>${s.curses ? -s.curses : 0}</td><th>${s.total}</th><td>${s.tiebreak}</td></tr>`)}</tbody>
  </table>`;
}

function table(view: View): TemplateResult {
  if (view.gameView.case !== "pinched") return html`<p>Not a Pinched! view.</p>`;
  const v = view.gameView.value;
  const top = v.discard.at(-1);
  const kinds = v.components?.kinds ?? [];
  return html`<div class="pinched-table">
    <div class="pinched-status">
      <span>Day <b>${v.day}</b></span>
      <span title="weeks left; the game ends after week 1">Watch: <b>${plural(v.watch, "week")}</b> left</span>
      <span><b>${cap(PHASES[v.phase])}</b></span>
      <span>Mastermind: <b>${seatName(v.mastermind)}</b></span>
    </div>
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
      <section class="pinched-sales" title="sales: set size → cards sold face down (1 point each)">
        <header>Sales</header>
        ${kinds.map((k) => html`<div><b>${kindLabel(k.name)}</b> ${k.sales.map((s) => `${s.threshold}→${s.value}`).join(", ")}</div>`)}
        ${v.components?.jokers ? html`<div><b>documents</b> jokers</div>` : nothing}
      </section>
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

export const pinched: GameRenderer = {
  game: "pinched",
  title: "Pinched!",
  table,
  move,
  event: (e: Event, view?: View): string => cap(eventText(e, kindsOf(view))),
};
