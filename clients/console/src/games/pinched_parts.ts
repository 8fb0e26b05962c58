/**
 * Pinched!: the parts of the table both drawings use, the spectator's (`pinched.ts`) and
 * the seat's (`pinched_seat.ts`): names of locations, phases and dogs, cards, the location
 * tiles, stashes and what the night waits for. Where the seat drawing puts its controls the
 * parts take hooks (a field's card, a tile's button, a slot's button), so each card is
 * drawn once, whether it is clickable or not.
 */
import {
  Dog,
  DrawReason,
  Location,
  PinchedPhase,
  Side,
  Treasure,
  ValuableSchema,
  type LocationSide,
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
import "./pinched.css";

export type Maybe = TemplateResult | typeof nothing;

/** Each location's suit, name and mansion name (from the Dutch rules). */
export const PLACES: Record<Location, { suit: string; name: string; house: string }> = {
  [Location.UNSPECIFIED]: { suit: "", name: "the river", house: "" },
  [Location.DIAMONDS]: { suit: "♦", name: "the diamonds mansion", house: "Huize Zilversteen" },
  [Location.CLUBS]: { suit: "♣", name: "the clubs mansion", house: "Burcht Tonnengoud" },
  [Location.SPADES]: { suit: "♠", name: "the spades mansion", house: "Castello Verdeggianti" },
  [Location.HEARTS]: { suit: "♥", name: "the hearts mansion", house: "Château Mille-feuille" },
  [Location.BANK]: { suit: "$", name: "Stonewall Bank", house: "" },
};

export const PHASES: Record<PinchedPhase, string> = {
  [PinchedPhase.UNSPECIFIED]: "", [PinchedPhase.DOGS]: "morning: the dogs", [PinchedPhase.PLAN]: "morning: the plan",
  [PinchedPhase.NIGHT]: "night: the heist", [PinchedPhase.AFTER]: "after the heist",
  [PinchedPhase.FINAL_DOGS]: "game end: the dogs", [PinchedPhase.FINAL_SALE]: "game end: the final sale",
  [PinchedPhase.OVER]: "game over",
};

export const DOGS: Record<Dog, string> = { [Dog.UNSPECIFIED]: "a dog", [Dog.RUFUS]: "Rufus", [Dog.GORDIE]: "Gordie" };
export const TREASURES: Record<Treasure, string> = { [Treasure.UNSPECIFIED]: "a treasure",
  [Treasure.LISA_MONA]: "the Lisa Mona", [Treasure.DIAMOND]: "a diamond", [Treasure.CLUE]: "a clue" };
export const DRAWS: Record<DrawReason, string> = { [DrawReason.UNSPECIFIED]: "", [DrawReason.START]: " (starting valuables)",
  [DrawReason.LAST_TAKE]: " (the location was bare)", [DrawReason.VAULT]: " from the cracked vault",
  [DrawReason.BANK]: " from the bank" };

/** How the known kinds look; other kinds (a custom component table) get a letter. */
const FACES: Record<string, { glyph: string; colour: string }> = {
  coins: { glyph: "◉", colour: "gold" }, gold_bars: { glyph: "▬", colour: "yellow" },
  paintings: { glyph: "▣", colour: "purple" }, jewels: { glyph: "◆", colour: "blue" },
  statues: { glyph: "♜", colour: "green" }, document: { glyph: "✉", colour: "black" },
};
const OTHER_COLOURS = ["red", "green", "blue", "purple"];

export const seatName = (seat: number): string => `seat ${seat}`;
export const cap = (line: string): string => line.charAt(0).toUpperCase() + line.slice(1);
export const seats = (list: readonly number[]): string => list.map(seatName).join(", ");
export const kindLabel = (kind: string): string => kind.replaceAll("_", " ");
export const place = (location: Location): string => PLACES[location].name;
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** What events and moves name by id only: the kind of every card id, and the kinds in table order. */
export interface Kinds {
  ofId: readonly string[];
  names: readonly string[];
}

const NO_KINDS: Kinds = { ofId: [], names: [] };
const kindsCache = new WeakMap<PinchedComponents, Kinds>();

/**
 * The kinds of `view`'s component table (fixed for a game): ids are the copies of each kind
 * in table order, then the documents.
 */
export function kindsOf(view: View | undefined): Kinds {
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
export function cardName(id: number, kinds: Kinds = NO_KINDS): string {
  const kind = kinds.ofId[id];
  return kind ? `${kind === "document" ? "a document" : kindLabel(kind)} (#${id})` : `card #${id}`;
}

export function valuable(v: Valuable, small = false): TemplateResult {
  const face = FACES[v.kind] ?? {
    glyph: v.kind.charAt(0).toUpperCase() || "?",
    colour: OTHER_COLOURS[v.kind.length % OTHER_COLOURS.length],
  };
  const title = v.kind === "document" ? "document (joker)" : kindLabel(v.kind);
  return card({ key: cardKey(ValuableSchema, v), rank: face.glyph, symbol: face.glyph, colour: face.colour, title }, { small });
}

export function field(f: OpenField): TemplateResult {
  return f.card ? valuable(f.card) : html`<div class="pinched-bare" title="bare field">—</div>`;
}

/** A face-down pile drawn as a few stacked backs and its count. */
export function pile(count: number, title: string, label: string): Maybe {
  if (count <= 0) return nothing;
  return html`<span class="pinched-pile" title="${title}"
    ><span class="pinched-stack">${Array.from({ length: Math.min(count, 5) }, () => cardBack(title, { small: true }))}</span
    ><span class="pinched-pile-label">${count} ${label}</span></span
  >`;
}

export const token = (text: string, cls: string, title = text): TemplateResult =>
  html`<span class="pinched-token pinched-${cls}" title="${title}">${text}</span>`;

/** What lies on a location besides its open cards. */
export function special(v: PinchedView, l: LocationSide): Maybe {
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

/** Where the seat drawing puts its controls on a location tile. */
export interface TileHooks {
  /** An open field drawn with its control (a card in a button), instead of the plain card. */
  field?(location: Location, f: OpenField): TemplateResult;
  /** Controls below the tile's cards, e.g. the button that chooses this location. */
  controls?(location: Location): Maybe;
}

export function locationTile(v: PinchedView, l: LocationSide, hooks: TileHooks = {}): TemplateResult {
  const p = PLACES[l.location];
  const drawField = hooks.field ? (f: OpenField) => hooks.field?.(l.location, f) : field;
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
    ${fields.length ? html`<div class="pinched-fields">${fields.map(drawField)}</div>` : nothing}
    <div class="pinched-special">${special(v, l)}</div>
    ${hooks.controls?.(l.location) ?? nothing}
    ${here.length
      ? html`<div class="pinched-visitors">${v.heist === l.location ? "tonight's heist: " : "chosen by "}${here
          .map((s) => (s === v.mastermind ? `${seatName(s)} (mastermind)` : seatName(s)))
          .join(", ")}</div>`
      : nothing}
  </section>`;
}

/** The set a slot would sell for now (the highest threshold reached), from the component table. */
export function saleValue(v: PinchedView, slot: StashSlot): number {
  const kind = v.components?.kinds.find((k) => k.name === slot.kind);
  return (kind?.sales ?? []).filter((s) => s.threshold <= slot.cards.length).reduce((best, s) => Math.max(best, s.value), 0);
}

/** What the seat drawing adds to its own stash: a control per slot, its own cards. */
export interface StashHooks {
  /** Controls on slot `slot` (sell it, store the picked card on it). */
  slot?(slot: number): Maybe;
  /** Drawn instead of the hand and sold piles of backs: the seat's own cards, face up. */
  own?: TemplateResult;
}

export function stash(view: View, v: PinchedView, seat: number, hooks: StashHooks = {}): TemplateResult {
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
        ${hooks.slot?.(i) ?? nothing}
      </div>`)}
    </div>
    <div class="pinched-extras">
      ${hooks.own === undefined
        ? html`${pile(count(v.handSizes), `${seatName(seat)}'s hand`, "in hand")}
          ${pile(count(v.soldCounts), `${seatName(seat)}'s sold cards`, "sold")}`
        : nothing}
      ${v.rufusHolder === seat ? token("Rufus", "dog") : nothing}
      ${v.gordieHolder === seat ? token("Gordie", "dog") : nothing}
      ${v.lisaMonaHolder === seat ? token(`Lisa Mona ${v.lisaMonaPoints}`, "lisa") : nothing}
      ${count(v.diamonds) ? token(`diamonds ×${count(v.diamonds)}`, "diamond") : nothing}
      ${count(v.clues) ? token(`clues ×${count(v.clues)}`, "clue") : nothing}
      ${count(v.curseCounts) ? token(`curses ×${count(v.curseCounts)}`, "curse", "curses (their points are secret)") : nothing}
      ${v.letterReadBy.includes(seat) && !v.letterOpened ? token("read the letter", "letter") : nothing}
    </div>
    ${hooks.own ?? nothing}
  </section>`;
}

/** The day, the watch, the phase and the mastermind. */
export function statusBar(view: View, v: PinchedView): TemplateResult {
  return html`<div class="pinched-status">
    <span>Day <b>${v.day}</b></span>
    <span title="weeks left; the game ends after week 1">Watch: <b>${plural(v.watch, "week")}</b> left</span>
    <span><b>${cap(PHASES[v.phase])}</b></span>
    <span>Mastermind: <b>${seatLabel(view, v.mastermind)}</b></span>
  </div>`;
}

/** What a set of each kind sells for. */
export function salesTable(v: PinchedView): TemplateResult {
  return html`<section class="pinched-sales" title="sales: set size → cards sold face down (1 point each)">
    <header>Sales</header>
    ${(v.components?.kinds ?? []).map((k) => html`<div><b>${kindLabel(k.name)}</b> ${k.sales.map((s) => `${s.threshold}→${s.value}`).join(", ")}</div>`)}
    ${v.components?.jokers ? html`<div><b>documents</b> jokers</div>` : nothing}
  </section>`;
}

/** Who the night or the afternoon waits for. */
export function progress(v: PinchedView): Maybe {
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

export function scores(view: View, v: PinchedView): Maybe {
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

