/**
 * Pinched!: a seat's own table with its legal moves on it, in the game's terms. The
 * location card is laid from the location's tile, a take is the open card itself, the
 * passage's cards are picked one by one on the other mansions, Gordie's card likewise, a
 * river card is taken from the river, a card is stored by picking it in the hand and then
 * its slot, a set is sold from its slot; the dog, the curses, the passage and the end of a
 * sale are buttons of the prompt.
 *
 * Every control stands for entries of `controls.legal` and nothing else: the drawing never
 * works out a move. A pick in steps (the passage's cards, a card to store) is kept in
 * `controls.picked` and submits the listed move it completes. Each card is drawn once: a
 * card you can click is the card itself inside its button. Test hooks: each control has a
 * `data-testid` and `data-move-kind` (the move's oneof case), plus what it names
 * (`data-location`, `data-field`, `data-slot`, `data-card-id`, `data-dog`, `data-curse`,
 * `data-to-seat`).
 */
import {
  Dog,
  Location,
  PinchedPhase,
  type Move,
  type OpenField,
  type PinchedMove,
  type PinchedView,
  type Valuable,
  type View,
} from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";
import { seatLabel } from "../table.js";
import {
  DOGS,
  kindLabel,
  locationTile,
  PLACES,
  place,
  progress,
  salesTable,
  saleValue,
  scores,
  stash,
  statusBar,
  token,
  valuable,
  type Maybe,
} from "./pinched_parts.js";
import type { SeatControls } from "./types.js";

type Action = PinchedMove["action"];
type Kind = NonNullable<Action["case"]>;
type ValueOf<K extends Kind> = Extract<Action, { case: K }>["value"];

/** A listed move of one kind: the move to submit and its action's fields. */
interface Entry<K extends Kind> {
  move: Move;
  value: ValueOf<K>;
}

/** Where a control's card lies, for its test hooks. */
interface Where {
  location?: Location;
  field?: number;
  slot?: number;
  cardId?: number;
  dog?: string;
  curse?: number;
  toSeat?: number;
  /** For screen readers, when the control shows a card. */
  label?: string;
}

const PASSAGE = "passage";
const STORE = "store";

const locationName = (location: Location): string => Location[location].toLowerCase();
const refKey = (location: Location, field: number): string => `${location}:${field}`;

/** The listed moves by kind. */
class Legal {
  /** Keyed by kind: each list holds entries of its own kind only. */
  private readonly byKind = new Map<Kind, { move: Move; value: unknown }[]>();

  constructor(moves: readonly Move[]) {
    for (const move of moves) {
      if (move.game.case !== "pinched" || move.game.value.action.case === undefined) continue;
      const action = move.game.value.action;
      const list = this.byKind.get(action.case) ?? [];
      list.push({ move, value: action.value });
      this.byKind.set(action.case, list);
    }
  }

  of<K extends Kind>(kind: K): Entry<K>[] {
    return (this.byKind.get(kind) ?? []) as Entry<K>[];
  }

  has(kind: Kind): boolean {
    return this.byKind.has(kind);
  }
}

class SeatDrawing {
  private readonly legal: Legal;
  private readonly me: number;

  constructor(
    private readonly view: View,
    private readonly v: PinchedView,
    private readonly c: SeatControls,
  ) {
    this.legal = new Legal(c.legal);
    this.me = c.seat;
  }

  draw(): TemplateResult {
    const v = this.v;
    const others = Array.from({ length: v.players }, (_, s) => s).filter((s) => s !== this.me);
    return html`<div class="pinched-table pinched-seat" data-testid="pinched-seat">
      ${statusBar(this.view, v)} ${this.prompt()} ${progress(v)}
      <div class="pinched-locations">
        ${v.locations.map((l) =>
          locationTile(v, l, {
            field: (location, f) => this.mansionField(location, f),
            controls: (location) => this.chooseButton(location),
          }),
        )}
      </div>
      <div class="pinched-middle">
        <section class="pinched-river" data-testid="river">
          <header>The river</header>
          <div class="pinched-fields">${v.river.map((f) => this.riverField(f))}</div>
        </section>
        ${this.piles()} ${salesTable(v)}
      </div>
      <div class="pinched-mine">
        ${stash(this.view, v, this.me, { slot: (i) => this.slotControls(i), own: this.ownCards() })}
      </div>
      <div class="pinched-stashes">${others.map((s) => stash(this.view, v, s))}</div>
      ${scores(this.view, v)}
    </div>`;
  }

  // --- picks ------------------------------------------------------------------------

  private get passagePicks(): string[] {
    const picked = this.c.picked.get(PASSAGE);
    return Array.isArray(picked) ? (picked as string[]) : [];
  }

  private get storePick(): number | undefined {
    const picked = this.c.picked.get(STORE);
    return typeof picked === "number" ? picked : undefined;
  }

  private repick(key: string, value: unknown): void {
    if (value === undefined) this.c.picked.delete(key);
    else this.c.picked.set(key, value);
    this.c.redraw();
  }

  /** The passage entries that start with the cards picked so far. */
  private passageEntries(): Entry<"usePassage">[] {
    const picks = this.passagePicks;
    return this.legal
      .of("usePassage")
      .filter((e) => picks.every((key, i) => e.value.cards[i] && refKey(e.value.cards[i].location, e.value.cards[i].field) === key));
  }

  /** A passage card picked or unpicked; a pick that completes a listed move submits it. */
  private pickPassage(key: string): void {
    const picks = this.passagePicks;
    if (picks.includes(key)) {
      this.repick(PASSAGE, picks.filter((k) => k !== key));
      return;
    }
    const next = [...picks, key];
    this.c.picked.set(PASSAGE, next);
    const fitting = this.passageEntries();
    const done = fitting.find((e) => e.value.cards.length === next.length);
    if (done && fitting.every((e) => e.value.cards.length === next.length)) {
      this.c.picked.delete(PASSAGE);
      this.c.submit(done.move);
    } else {
      this.c.redraw();
    }
  }

  // --- controls ---------------------------------------------------------------------

  /** A control making (or picking towards) a listed move of `kind`; `inner` is its label or card. */
  private control(
    kind: Kind,
    testid: string,
    inner: TemplateResult | string,
    onClick: () => void,
    where: Where = {},
    picked = false,
  ): TemplateResult {
    const cls = typeof inner === "string" ? "pinched-control" : "pinched-pick";
    return html`<button
      type="button"
      class="${cls} ${picked ? "pinched-picked" : ""}"
      data-testid="${testid}"
      data-move-kind="${kind}"
      data-location="${where.location === undefined ? nothing : locationName(where.location)}"
      data-field="${where.field ?? nothing}"
      data-slot="${where.slot ?? nothing}"
      data-card-id="${where.cardId ?? nothing}"
      data-dog="${where.dog ?? nothing}"
      data-curse="${where.curse ?? nothing}"
      data-to-seat="${where.toSeat ?? nothing}"
      aria-pressed="${picked ? "true" : nothing}"
      aria-label="${where.label ?? nothing}"
      ?disabled=${this.c.busy}
      @click=${onClick}
    >
      ${inner}
    </button>`;
  }

  /** A card that is also a control: the card itself inside the button. */
  private cardButton(kind: Kind, testid: string, card: Valuable, onClick: () => void, where: Where, picked = false): TemplateResult {
    return this.control(kind, testid, valuable(card), onClick, { ...where, label: kindLabel(card.kind) }, picked);
  }

  /** An open mansion card: a take, a passage pick or Gordie's card when one is listed. */
  private mansionField(location: Location, f: OpenField): TemplateResult {
    const card = f.card;
    if (!card) return html`<div class="pinched-bare" title="bare field">—</div>`;
    const where = { location, field: f.field };
    const take = this.legal.of("takeCard").find((e) => this.v.heist === location && e.value.field === f.field);
    if (take) return this.cardButton("takeCard", "field-card", card, () => this.c.submit(take.move), where);
    const gordie = this.legal.of("takeWithGordie").find((e) => e.value.card?.location === location && e.value.card.field === f.field);
    if (gordie) return this.cardButton("takeWithGordie", "field-card", card, () => this.c.submit(gordie.move), where);
    const key = refKey(location, f.field);
    const picks = this.passagePicks;
    const reachable = this.passageEntries().some((e) => {
      const ref = e.value.cards[picks.length];
      return ref !== undefined && refKey(ref.location, ref.field) === key;
    });
    if (reachable || picks.includes(key)) {
      return this.cardButton("usePassage", "field-card", card, () => this.pickPassage(key), where, picks.includes(key));
    }
    return valuable(card);
  }

  private riverField(f: OpenField): TemplateResult {
    const card = f.card;
    if (!card) return html`<div class="pinched-bare" title="bare field">—</div>`;
    const take = this.legal.of("takeFromRiver").find((e) => e.value.field === f.field);
    if (!take) return valuable(card);
    return this.cardButton("takeFromRiver", "river-card", card, () => this.c.submit(take.move), { field: f.field });
  }

  /** The location card laid face down from its tile. */
  private chooseButton(location: Location): Maybe {
    const choose = this.legal.of("chooseLocation").find((e) => e.value.location === location);
    const sealed = this.v.phase === PinchedPhase.PLAN && this.v.myChoice === location;
    if (!choose) return sealed ? token("your card (sealed)", "choice") : nothing;
    const label = `${PLACES[location].suit} Go here`;
    return this.control("chooseLocation", "choose-location", label, () => this.c.submit(choose.move), { location });
  }

  /** A slot's sale, and the slot a picked hand card may be stored on. */
  private slotControls(slot: number): Maybe {
    const sell = this.legal.of("sell").find((e) => e.value.slot === slot);
    const picked = this.storePick;
    const store = this.legal.of("store").find((e) => picked !== undefined && e.value.card === picked && e.value.slot === slot);
    const set = this.v.stashes[this.me]?.slots[slot];
    return html`${sell && set
      ? this.control("sell", "sell-slot", `Sell: ${saleValue(this.v, set)} pts`, () => this.c.submit(sell.move), { slot })
      : nothing}${store ? this.control("store", "store-slot", "Store here", () => this.c.submit(store.move), { slot }) : nothing}`;
  }

  /** The seat's own hand (a card to store is picked here), sold cards, curses and letter. */
  private ownCards(): TemplateResult {
    const v = this.v;
    const picked = this.storePick;
    const stores = this.legal.of("store");
    const hand = v.hand.map((card) =>
      stores.some((e) => e.value.card === card.id)
        ? this.cardButton("store", "hand-card", card, () => this.repick(STORE, picked === card.id ? undefined : card.id), { cardId: card.id }, picked === card.id)
        : valuable(card),
    );
    return html`<div class="pinched-own">
      <div class="pinched-hand" data-testid="hand">
        <span class="pinched-own-label">Your hand</span>
        ${hand.length ? hand : html`<span class="muted">empty</span>`}
      </div>
      ${v.sold.length
        ? html`<div class="pinched-sold" data-testid="sold" title="sold, face down: only you see them">
            <span class="pinched-own-label">Sold (${v.sold.length} pts)</span>
            ${v.sold.map((card) => valuable(card, true))}
          </div>`
        : nothing}
      ${v.curses.length
        ? html`<div class="pinched-curses" data-testid="curses">
            <span class="pinched-own-label">Your curses</span>
            ${v.curses.map((curse) => token(`−${curse.points}`, "curse", `curse #${curse.id}: −${curse.points}`))}
          </div>`
        : nothing}
      ${v.letter && !v.letterOpened ? token(`the letter says: ${place(v.letter)}`, "letter") : nothing}
    </div>`;
  }

  // --- the prompt -------------------------------------------------------------------

  /** What the seat may do now, in words, with the controls that are not a card. */
  private prompt(): Maybe {
    const lines = this.promptLines();
    const buttons = this.promptButtons();
    if (!lines.length && !buttons.length) return nothing;
    return html`<section class="pinched-prompt" data-testid="prompt">
      ${lines.map((line) => html`<p>${line}</p>`)}
      ${buttons.length ? html`<div class="pinched-buttons">${buttons}</div>` : nothing}
    </section>`;
  }

  private promptLines(): string[] {
    const has = (kind: Kind) => this.legal.has(kind);
    const v = this.v;
    const lines: string[] = [];
    if (has("store")) {
      lines.push(this.storePick === undefined ? "Store a card: pick it in your hand, then its slot." : "Now pick the slot to store it on.");
    }
    if (has("takeWithGordie")) lines.push("Gordie fetches a card: pick an open card of any mansion.");
    if (has("chooseLocation")) lines.push("Lay your location card: pick where you go tonight (sealed until every seat has chosen).");
    if (v.phase === PinchedPhase.PLAN && v.myChoice && !has("chooseLocation")) {
      lines.push(`Your location card: ${place(v.myChoice)} (sealed).`);
    }
    if (has("takeCard") && v.heist) lines.push(`Your take: pick an open card of ${place(v.heist)}.`);
    if (has("usePassage")) {
      const most = Math.max(...this.legal.of("usePassage").map((e) => e.value.cards.length));
      const left = most - this.passagePicks.length;
      lines.push(`Or through the secret passage: pick ${left} more open card${left === 1 ? "" : "s"} of other mansions.`);
    }
    if (has("takeDog")) lines.push("Take a dog.");
    if (has("passCurse") || has("keepCurses")) lines.push("Pass one of your curses to a burglar at this heist, or keep them.");
    if (has("sell") || has("endSelling")) {
      const after = v.phase === PinchedPhase.AFTER ? " (stopping discards what is left in your hand)" : "";
      lines.push(`Sell a set from its slot, or stop selling${after}.`);
    }
    if (has("takeFromRiver")) lines.push("Take a card from the river.");
    return lines;
  }

  private promptButtons(): TemplateResult[] {
    const buttons: TemplateResult[] = [];
    for (const e of this.legal.of("takeDog")) {
      const dog = e.value.dog;
      buttons.push(this.control("takeDog", "take-dog", `Take ${DOGS[dog]}`, () => this.c.submit(e.move), { dog: Dog[dog].toLowerCase() }));
    }
    for (const e of this.legal.of("skipPassage")) {
      buttons.push(this.control("skipPassage", "skip-passage", "Leave the secret passage", () => this.c.submit(e.move)));
    }
    for (const e of this.legal.of("passCurse")) {
      const points = this.v.curses.find((curse) => curse.id === e.value.curse)?.points;
      const label = `Give curse −${points ?? "?"} to ${seatLabel(this.view, e.value.toSeat)}`;
      const where = { curse: e.value.curse, toSeat: e.value.toSeat };
      buttons.push(this.control("passCurse", "pass-curse", label, () => this.c.submit(e.move), where));
    }
    for (const e of this.legal.of("keepCurses")) {
      buttons.push(this.control("keepCurses", "keep-curses", "Keep my curses", () => this.c.submit(e.move)));
    }
    for (const e of this.legal.of("endSelling")) {
      buttons.push(this.control("endSelling", "end-selling", "Stop selling", () => this.c.submit(e.move)));
    }
    if (this.passagePicks.length || this.storePick !== undefined) {
      buttons.push(html`<button type="button" class="pinched-control" data-testid="cancel-pick" ?disabled=${this.c.busy}
        @click=${() => { this.c.picked.clear(); this.c.redraw(); }}>Cancel the pick</button>`);
    }
    return buttons;
  }

  // --- piles and the end --------------------------------------------------------------

  /** The deck, and the whole discard pile: its top card in view, the rest folded away. */
  private piles(): TemplateResult {
    const v = this.v;
    const top = v.discard.at(-1);
    return html`<section class="pinched-piles">
      <div class="pinched-deck">${v.deckSize ? html`${v.deckSize} in the deck` : "the deck is empty"}</div>
      <details class="pinched-discards" data-testid="discard-pile">
        <summary>${top ? valuable(top, true) : nothing}<span>${v.discard.length} discarded</span></summary>
        <div class="pinched-discard-cards">${v.discard.slice(0, -1).reverse().map((card) => valuable(card, true))}</div>
      </details>
    </section>`;
  }
}

/** The seat drawing of the Pinched! renderer. */
export function seat(view: View, controls: SeatControls): TemplateResult {
  if (view.gameView.case !== "pinched") return html`<p>Not a Pinched! view.</p>`;
  return new SeatDrawing(view, view.gameView.value, controls).draw();
}
