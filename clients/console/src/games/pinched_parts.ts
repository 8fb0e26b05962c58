/**
 * Pinched!: the parts of the table both drawings use, the spectator's (`pinched.ts`) and
 * the seat's (`pinched_seat.ts`): names of locations, phases, dogs and valuables, cards,
 * the location tiles, stashes and what the night waits for. Where the seat drawing puts
 * its controls the parts take hooks (a field's card, a tile's button, a slot's button), so
 * each card is drawn once, whether it is clickable or not.
 *
 * Every word goes through the catalogue (`pinched.` keys; the Dutch ones are Gekraakt!'s
 * own: brein, overval, voorraad, rivier, vloek) and every burglar is named by `seatLabel`.
 */
import {
  Dog,
  Location,
  PinchedPhase,
  Side,
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
import { num, t, type Key } from "../i18n/index.js";
import { seatLabel } from "../table.js";
import "./pinched.css";

export type Maybe = TemplateResult | typeof nothing;

/** A location's words: its name ("the hearts mansion"), where ("at …"), whence ("from …"), its tile's title. */
interface PlaceWords {
  suit: string;
  name: Key;
  at: Key;
  from: Key;
  title: Key;
  /** The mansion's own name in the rules (a proper name, the same in every language). */
  house: string;
}

const PLACES: Record<Location, PlaceWords> = {
  [Location.UNSPECIFIED]: {
    suit: "≈", name: "pinched.place.river", at: "pinched.at.river", from: "pinched.from.river", title: "pinched.title.river", house: "",
  },
  [Location.DIAMONDS]: {
    suit: "♦", name: "pinched.place.diamonds", at: "pinched.at.diamonds", from: "pinched.from.diamonds",
    title: "pinched.title.diamonds", house: "Huize Zilversteen",
  },
  [Location.CLUBS]: {
    suit: "♣", name: "pinched.place.clubs", at: "pinched.at.clubs", from: "pinched.from.clubs",
    title: "pinched.title.clubs", house: "Burcht Tonnengoud",
  },
  [Location.SPADES]: {
    suit: "♠", name: "pinched.place.spades", at: "pinched.at.spades", from: "pinched.from.spades",
    title: "pinched.title.spades", house: "Castello Verdeggianti",
  },
  [Location.HEARTS]: {
    suit: "♥", name: "pinched.place.hearts", at: "pinched.at.hearts", from: "pinched.from.hearts",
    title: "pinched.title.hearts", house: "Château Mille-feuille",
  },
  [Location.BANK]: {
    suit: "$", name: "pinched.place.bank", at: "pinched.at.bank", from: "pinched.from.bank", title: "pinched.title.bank", house: "",
  },
};

/** "the hearts mansion" */
export const place = (location: Location): string => t(PLACES[location].name);
/** "at the hearts mansion" */
export const placeAt = (location: Location): string => t(PLACES[location].at);
/** "from the hearts mansion" */
export const placeFrom = (location: Location): string => t(PLACES[location].from);
/** "Hearts mansion", for a tile or a button */
export const placeTitle = (location: Location): string => t(PLACES[location].title);
/** The location's symbol: its suit, "$" for the bank. */
export const suitOf = (location: Location): string => PLACES[location].suit;
export const houseOf = (location: Location): string => PLACES[location].house;

const PHASES: Record<PinchedPhase, Key | undefined> = {
  [PinchedPhase.UNSPECIFIED]: undefined,
  [PinchedPhase.DOGS]: "pinched.phase.dogs",
  [PinchedPhase.PLAN]: "pinched.phase.plan",
  [PinchedPhase.NIGHT]: "pinched.phase.night",
  [PinchedPhase.AFTER]: "pinched.phase.after",
  [PinchedPhase.FINAL_DOGS]: "pinched.phase.finalDogs",
  [PinchedPhase.FINAL_SALE]: "pinched.phase.finalSale",
  [PinchedPhase.OVER]: "pinched.phase.over",
};

export const phaseName = (phase: PinchedPhase): string => {
  const key = PHASES[phase];
  return key ? t(key) : "";
};

/** A dog's name (Rufus, Gordie: the same in every language). */
export const dogName = (dog: Dog): string => (dog === Dog.RUFUS ? "Rufus" : dog === Dog.GORDIE ? "Gordie" : t("pinched.dog"));

/** The known kinds' nouns, one and many; a kind of a custom component table is named as it is spelled. */
const KINDS: Record<string, { one: Key; many: Key }> = {
  coins: { one: "pinched.kind.coin", many: "pinched.kind.coins" },
  gold_bars: { one: "pinched.kind.goldBar", many: "pinched.kind.goldBars" },
  paintings: { one: "pinched.kind.painting", many: "pinched.kind.paintings" },
  jewels: { one: "pinched.kind.jewel", many: "pinched.kind.jewels" },
  statues: { one: "pinched.kind.statue", many: "pinched.kind.statues" },
  document: { one: "pinched.kind.document", many: "pinched.kind.documents" },
};

/** The kind's noun: "painting" (`count` 1) or "paintings". */
export function kindName(kind: string, count = 2): string {
  const words = KINDS[kind];
  if (words === undefined) return kind.replaceAll("_", " ");
  return t(count === 1 ? words.one : words.many);
}

/** "1 painting", "3 paintings". */
export const kindCount = (kind: string, count: number): string => `${num(count)} ${kindName(kind, count)}`;

/** "1 card", "3 cards"; "1 point", "3 points"; "1 week", "3 weeks". */
export const cardsN = (n: number): string => t(n === 1 ? "pinched.card.one" : "pinched.card.many", { count: num(n) });
export const pointsN = (n: number): string => t(n === 1 ? "pinched.point.one" : "pinched.point.many", { count: num(n) });
export const weeksN = (n: number): string => t(n === 1 ? "pinched.week.one" : "pinched.week.many", { count: num(n) });

/** Who sits at `seat`, by name. */
export const who = (view: View | undefined, seat: number): string => seatLabel(view, seat);

/** "Ada", "Ada and Bo", "Ada, Bo and Cy". */
export function whom(view: View | undefined, seats: readonly number[]): string {
  const names = seats.map((seat) => seatLabel(view, seat));
  if (names.length < 2) return names.join("");
  return t("pinched.and", { some: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

export const cap = (line: string): string => line.charAt(0).toUpperCase() + line.slice(1);

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

/** A card named by id, in words: its kind ("painting"), or "a card" when the table is not known. */
export function cardName(id: number, kinds: Kinds = NO_KINDS): string {
  const kind = kinds.ofId[id];
  return kind ? kindName(kind, 1) : t("pinched.aCard");
}

/** Cards named by id, grouped by kind: "2 paintings, 1 coin". */
export function cardsNamed(ids: readonly number[], kinds: Kinds = NO_KINDS): string {
  const counts = new Map<string, number>();
  for (const id of ids) {
    const kind = kinds.ofId[id] ?? "";
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([kind, n]) => (kind ? kindCount(kind, n) : cardsN(n))).join(", ");
}

/** How the known kinds look; other kinds (a custom component table) get a letter. */
const FACES: Record<string, { glyph: string; colour: string }> = {
  coins: { glyph: "◉", colour: "gold" }, gold_bars: { glyph: "▬", colour: "yellow" },
  paintings: { glyph: "▣", colour: "purple" }, jewels: { glyph: "◆", colour: "blue" },
  statues: { glyph: "♜", colour: "green" }, document: { glyph: "✉", colour: "black" },
};
const OTHER_COLOURS = ["red", "green", "blue", "purple"];

/** A valuable's name for a tooltip or a button: "painting", "document (joker)". */
export const valuableName = (v: Valuable): string => (v.kind === "document" ? t("pinched.joker") : kindName(v.kind, 1));

export function valuable(v: Valuable, small = false): TemplateResult {
  const face = FACES[v.kind] ?? {
    glyph: v.kind.charAt(0).toUpperCase() || "?",
    colour: OTHER_COLOURS[v.kind.length % OTHER_COLOURS.length],
  };
  return card({ key: cardKey(ValuableSchema, v), rank: face.glyph, symbol: face.glyph, colour: face.colour, title: valuableName(v) }, { small });
}

export const bare = (): TemplateResult => html`<div class="pinched-bare" title="${t("pinched.bare")}">—</div>`;

export function field(f: OpenField): TemplateResult {
  return f.card ? valuable(f.card) : bare();
}

/** A face-down pile drawn as a few stacked backs and its count in words. */
export function pile(count: number, label: string): Maybe {
  if (count <= 0) return nothing;
  return html`<span class="pinched-pile"
    ><span class="pinched-stack">${Array.from({ length: Math.min(count, 5) }, () => cardBack(t("pinched.faceDown"), { small: true }))}</span
    ><span class="pinched-pile-label">${label}</span></span
  >`;
}

export const token = (text: string, cls: string, title = text): TemplateResult =>
  html`<span class="pinched-token pinched-${cls}" title="${title}">${text}</span>`;

/** Where a treasure or dog is: with a burglar (by name), else `where`. */
const holder = (view: View, seat: number | undefined, where: string): string =>
  seat === undefined ? where : t("pinched.with", { name: who(view, seat) });

/** What lies on a location besides its open cards. */
export function special(view: View, v: PinchedView, l: LocationSide): Maybe {
  const crown = l.side === Side.CROWN;
  switch (l.location) {
    case Location.DIAMONDS: {
      // The view sets the points once taken; before that, the rules' 3 (5 on the crown side).
      const points = v.lisaMonaPoints || (crown ? 5 : 3);
      const where = holder(view, v.lisaMonaHolder, t(crown ? "pinched.hidden" : "pinched.here"));
      const lisa = token(t("pinched.lisaToken", { points: pointsN(points), where }), "lisa");
      if (!crown) return html`${lisa}${token(t("pinched.diamondsLeft", { count: num(v.diamondsLeft) }), "diamond")}`;
      const letter = v.letterOpened && v.letter
        ? t("pinched.letterOpenedToken", { at: placeAt(v.letter) })
        : v.letterReadBy.length
          ? t("pinched.letterReadBy", { names: whom(view, v.letterReadBy) })
          : t("pinched.letterSealed");
      return html`${lisa}${token(letter, "letter")}${token(t("pinched.cluesLeft", { count: num(v.cluesLeft) }), "clue")}`;
    }
    case Location.CLUBS: {
      const track = (crown ? v.components?.vaultCrown : v.components?.vaultStandard) ?? [];
      const now = track[v.vault] ?? 0;
      return html`<span class="pinched-vault" title="${t("pinched.vaultHint")}"
        >${t("pinched.vault")}
        ${track.map((n, i) => html`<span class="pinched-step ${i === v.vault ? "pinched-here" : ""}" aria-hidden="true">${n}</span>`)}
        <span class="sr-only">${t("pinched.vaultNow", { cards: cardsN(now) })}</span></span
      >`;
    }
    case Location.SPADES:
      return html`${token(`Rufus: ${holder(view, v.rufusHolder, t("pinched.here"))}`, "dog")}${crown
        ? token(`Gordie: ${holder(view, v.gordieHolder, t("pinched.here"))}`, "dog")
        : nothing}`;
    case Location.HEARTS:
      return html`${token(t(v.passageOpen ? "pinched.passageOpen" : "pinched.passageClosed"), "passage")}${crown
        ? token(t("pinched.cursesFaceDown", { count: num(v.cursePile) }), "curse")
        : nothing}`;
    case Location.BANK:
      return token(t("pinched.bankHint"), "bank");
    default:
      return nothing;
  }
}

/** Where the seat drawing puts its controls on a location tile. */
export interface TileHooks {
  /** An open field drawn with its control (a card in a button), instead of the plain card. */
  field?(location: Location, f: OpenField): TemplateResult;
  /** Marks below the tile's cards, e.g. the seat's own sealed location card. */
  controls?(location: Location): Maybe;
}

export function locationTile(view: View, v: PinchedView, l: LocationSide, hooks: TileHooks = {}): TemplateResult {
  const drawField = hooks.field ? (f: OpenField) => hooks.field?.(l.location, f) : field;
  const fields = v.fields.find((f) => f.location === l.location)?.fields ?? [];
  const here = v.choices.flatMap((c, seat) => (c === l.location ? [seat] : []));
  const heist = v.heist === l.location;
  const house = houseOf(l.location);
  const names = here.map((s) => (s === v.mastermind ? t("pinched.asMastermind", { name: who(view, s) }) : who(view, s)));
  return html`<section
    class="pinched-location ${heist ? "pinched-heist" : ""}"
    data-testid="location"
    data-location="${Location[l.location].toLowerCase()}"
    aria-label="${placeTitle(l.location)}"
  >
    <header>
      <span class="pinched-name"
        ><span class="pinched-suit" aria-hidden="true">${suitOf(l.location)}</span> ${placeTitle(l.location)}
        ${l.side === Side.CROWN ? html`<span class="pinched-crown" title="${t("pinched.crownSide")}"
              ><span aria-hidden="true">♛</span><span class="sr-only">${t("pinched.crownSide")}</span></span
            >` : nothing}</span
      >
      ${heist ? html`<span class="pinched-badge pinched-act">${t("pinched.heistBadge")}</span>` : nothing}
      ${house ? html`<small>${house}</small>` : nothing}
    </header>
    ${fields.length ? html`<div class="pinched-fields">${fields.map(drawField)}</div>` : nothing}
    <div class="pinched-special">${special(view, v, l)}</div>
    ${hooks.controls?.(l.location) ?? nothing}
    ${here.length
      ? html`<div class="pinched-visitors">${t(heist ? "pinched.heistHere" : "pinched.chosenBy", { names: names.join(", ") })}</div>`
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

/** A burglar's marks: [words, class]. */
function badges(view: View, v: PinchedView, seat: number): [string, string][] {
  const marks: [string, string][] = [];
  const choice = v.choices[seat];
  if (v.mastermind === seat) marks.push([t("pinched.badge.mastermind"), "mastermind"]);
  if (v.firstMastermind === seat) marks.push([t("pinched.badge.watch"), "watch"]);
  if (view.toAct.includes(seat)) marks.push([t("pinched.badge.toAct"), "act"]);
  if (choice) marks.push([t("pinched.badge.chose", { place: `${suitOf(choice)} ${placeTitle(choice)}` }), "choice"]);
  else if (v.chosenSeats.includes(seat)) marks.push([t("pinched.badge.sealed"), "sealed"]);
  if (v.present.includes(seat)) marks.push([t("pinched.badge.present"), "present"]);
  if (v.selling.includes(seat)) marks.push([t("pinched.badge.selling"), "selling"]);
  if (view.outcome?.winners.includes(seat)) marks.push([t("pinched.badge.winner"), "winner"]);
  return marks;
}

function slotLabel(v: PinchedView, slot: StashSlot): Maybe {
  if (!slot.kind) return html`${t("pinched.slotEmpty")}`;
  return html`<b>${kindName(slot.kind)}</b><br /><span title="${t("pinched.slotHint")}"
      >${t("pinched.slotWorth", { count: num(slot.cards.length), points: pointsN(saleValue(v, slot)) })}</span
    >`;
}

export function stash(view: View, v: PinchedView, seat: number, hooks: StashHooks = {}): TemplateResult {
  const slots = v.stashes[seat]?.slots ?? [];
  const count = (list: readonly number[]) => list[seat] ?? 0;
  const acting = view.toAct.includes(seat) ? "pinched-acting" : "";
  const name = who(view, seat);
  return html`<section class="pinched-stash ${acting}" data-testid="stash" data-seat="${seat}" aria-label="${t("pinched.stashOf", { name })}">
    <header>
      <span class="pinched-seat" data-testid="seat-label">${name}</span>
      ${badges(view, v, seat).map(([text, cls]) => html`<span class="pinched-badge pinched-${cls}">${text}</span>`)}
    </header>
    <div class="pinched-slots">
      ${slots.map((slot, i) => html`<div class="pinched-slot" data-slot="${i}">
        <div class="pinched-slot-label">${slotLabel(v, slot)}</div>
        <div class="pinched-slot-cards">${slot.cards.map((c) => valuable(c, true))}</div>
        ${hooks.slot?.(i) ?? nothing}
      </div>`)}
    </div>
    <div class="pinched-extras">
      ${hooks.own === undefined
        ? html`${pile(count(v.handSizes), t("pinched.inHand", { cards: cardsN(count(v.handSizes)) }))}
          ${pile(count(v.soldCounts), t("pinched.soldCount", { cards: cardsN(count(v.soldCounts)) }))}`
        : nothing}
      ${v.rufusHolder === seat ? token("Rufus", "dog") : nothing}
      ${v.gordieHolder === seat ? token("Gordie", "dog") : nothing}
      ${v.lisaMonaHolder === seat ? token(t("pinched.lisaHeld", { points: pointsN(v.lisaMonaPoints) }), "lisa") : nothing}
      ${count(v.diamonds) ? token(t("pinched.diamondsHeld", { count: num(count(v.diamonds)) }), "diamond") : nothing}
      ${count(v.clues) ? token(t("pinched.cluesHeld", { count: num(count(v.clues)) }), "clue") : nothing}
      ${count(v.curseCounts)
        ? token(t("pinched.cursesHeld", { count: num(count(v.curseCounts)) }), "curse", t("pinched.cursesSecret"))
        : nothing}
      ${v.letterReadBy.includes(seat) && !v.letterOpened ? token(t("pinched.readLetter"), "letter") : nothing}
    </div>
    ${hooks.own ?? nothing}
  </section>`;
}

/** The river (undefined: drawn elsewhere), the deck and the discard pile, and what sets sell for. */
export function middle(river: TemplateResult | undefined, piles: TemplateResult, sales: TemplateResult): TemplateResult {
  return html`<div class="pinched-middle">
    ${river === undefined
      ? nothing
      : html`<section class="pinched-river" data-testid="river" aria-label="${t("pinched.river")}">
          <header>${t("pinched.river")}</header>
          <div class="pinched-fields">${river}</div>
        </section>`}
    ${piles} ${sales}
  </div>`;
}

/** The day, the watch, the phase and the mastermind. */
export function statusBar(view: View, v: PinchedView): TemplateResult {
  return html`<div class="pinched-status" data-testid="pinched-status">
    <span>${t("pinched.day", { day: num(v.day) })}</span>
    <span title="${t("pinched.watchHint")}">${t("pinched.watch", { weeks: weeksN(v.watch) })}</span>
    <span><b>${phaseName(v.phase)}</b></span>
    <span>${t("pinched.mastermindIs", { name: who(view, v.mastermind) })}</span>
  </div>`;
}

/** What a set of each kind sells for. */
export function salesTable(v: PinchedView): TemplateResult {
  return html`<section class="pinched-sales" data-testid="sales" title="${t("pinched.salesHint")}">
    <header>${t("pinched.sales")}</header>
    ${(v.components?.kinds ?? []).map(
      (k) => html`<div><b>${cap(kindName(k.name))}</b> ${k.sales.map((s) => t("pinched.saleStep", { set: num(s.threshold), points: num(s.value) })).join(", ")}</div>`,
    )}
    ${v.components?.jokers ? html`<div><b>${cap(kindName("document"))}</b> ${t("pinched.jokers")}</div>` : nothing}
  </section>`;
}

/** Who the night or the afternoon waits for. */
export function progress(view: View, v: PinchedView): Maybe {
  const lines: string[] = [];
  const names = (seats: readonly number[]) => whom(view, seats);
  if (v.heist) {
    const key = v.present.length === 1 ? "pinched.progress.heistAlone" : "pinched.progress.heist";
    lines.push(t(key, { place: place(v.heist), names: names(v.present) }));
  }
  if (v.takes.length) {
    const takes = v.takes.map((take) => (take.last ? t("pinched.progress.last", { name: who(view, take.seat) }) : who(view, take.seat)));
    lines.push(t("pinched.progress.takes", { names: takes.join(", ") }));
  }
  if (v.passageDue) lines.push(t("pinched.progress.passage"));
  if (v.dogDue) lines.push(t("pinched.progress.dog"));
  if (v.curseTurns.length) lines.push(t("pinched.progress.curses", { names: names(v.curseTurns) }));
  if (v.gordieDue.length) lines.push(t("pinched.progress.gordie", { names: names(v.gordieDue) }));
  if (v.riverTurns.length) lines.push(t("pinched.progress.river", { names: names(v.riverTurns) }));
  if (v.selling.length) lines.push(t("pinched.progress.selling", { names: names(v.selling) }));
  return lines.length ? html`<ul class="pinched-progress">${lines.map((l) => html`<li>${cap(l)}</li>`)}</ul>` : nothing;
}

export function scores(view: View, v: PinchedView): Maybe {
  const rows = v.result?.scores ?? [];
  if (!rows.length) return nothing;
  // A region that scrolls sideways on a phone, so it takes the focus (keys scroll it).
  return html`<div class="pinched-scores-wrap" role="region" aria-labelledby="pinched-scores-caption" tabindex="0">
    <table class="pinched-scores" data-testid="scores">
    <caption id="pinched-scores-caption">${t("pinched.scores")}</caption>
    <thead><tr><th scope="col">${t("pinched.score.burglar")}</th><th scope="col">${t("pinched.score.sold")}</th>
      <th scope="col">Lisa Mona</th><th scope="col">${t("pinched.score.diamonds")}</th><th scope="col">${t("pinched.score.clues")}</th>
      <th scope="col">${t("pinched.score.curses")}</th><th scope="col">${t("pinched.score.total")}</th>
      <th scope="col" title="${t("pinched.score.tiebreakHint")}">${t("pinched.score.tiebreak")}</th></tr></thead>
    <tbody>${rows.map((s) => {
      const won = view.outcome?.winners.includes(s.seat) ?? false;
      return html`<tr class="${won ? "pinched-won" : ""}" data-testid="score-row" data-seat="${s.seat}">
        <th scope="row">${who(view, s.seat)}${won ? html` <span class="pinched-badge pinched-winner">${t("pinched.badge.winner")}</span>` : nothing}</th>
        <td>${s.sold}</td><td>${s.lisaMona}</td><td>${s.diamonds}</td><td>${s.clues}</td>
        <td>${s.curses ? -s.curses : 0}</td><td><b>${s.total}</b></td><td>${s.tiebreak}</td></tr>`;
    })}</tbody>
    </table>
  </div>`;
}
