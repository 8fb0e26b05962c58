/**
 * Pinched!: a seat's own table with its legal moves on it, in the game's terms, and the
 * one-line prompt saying what the seat may do now. The seat's own area comes first (its
 * moves, its stash and hand; on a phone the board is one tap further down): the location
 * card is a button of the area, and the part of the board a move is made on (the
 * mansions for a take, the passage or Gordie; the river) moves up into it while that move
 * is due. A take is the open card itself, the passage's cards are picked one by one on the
 * other mansions, Gordie's card likewise, a river card is taken from the river, a card is
 * stored by picking it in the hand and then its slot, a set is sold from its slot; the
 * dog, the curses, the passage and the end of a sale are buttons of the area. Every
 * control is a button named in words (a card's button says what taking it does).
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
import { num, t } from "../i18n/index.js";
import { tableState } from "../table.js";
import {
  bare,
  cardsN,
  dogName,
  kindName,
  locationTile,
  middle,
  place,
  placeAt,
  placeFrom,
  placeTitle,
  pointsN,
  progress,
  salesTable,
  saleValue,
  scores,
  stash,
  statusBar,
  suitOf,
  token,
  valuable,
  valuableName,
  who,
  whom,
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


/** A button's look: a labelled control, or a card that is itself the button. */
type Look = "control" | "pick";

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

  /** True while a move on the mansions' open cards is listed (a take, the passage, Gordie). */
  private get onMansions(): boolean {
    return this.legal.has("takeCard") || this.legal.has("usePassage") || this.legal.has("takeWithGordie");
  }

  private get onRiver(): boolean {
    return this.legal.has("takeFromRiver");
  }

  draw(): TemplateResult {
    const v = this.v;
    const over = this.view.outcome !== undefined;
    const others = Array.from({ length: v.players }, (_, s) => s).filter((s) => s !== this.me);
    return html`<div class="pinched-table pinched-seat" data-testid="pinched-seat">
      <section class="pinched-mine" data-testid="pinched-mine" aria-label="${t("pinched.yourArea")}">
        ${statusBar(this.view, v)} ${over ? scores(this.view, v) : nothing} ${this.actions()}
        ${this.onMansions ? this.mansions() : nothing} ${this.onRiver ? this.river() : nothing}
        ${stash(this.view, v, this.me, { slot: (i) => this.slotControls(i), own: this.ownCards() })}
        <button type="button" class="pinched-control pinched-jump" data-testid="to-board" @click=${toBoard}>
          ${t("pinched.toBoard")} <span aria-hidden="true">↓</span>
        </button>
      </section>
      <section class="pinched-board" id="pinched-board" data-testid="pinched-board" tabindex="-1" aria-labelledby="pinched-board-title">
        <h2 id="pinched-board-title" class="pinched-board-title">${t("pinched.board")}</h2>
        ${progress(this.view, v)} ${this.onMansions ? nothing : this.mansions()}
        ${middle(this.onRiver ? undefined : html`${v.river.map((f) => (f.card ? valuable(f.card) : bare()))}`, this.piles(), salesTable(v))}
        <div class="pinched-stashes">${others.map((s) => stash(this.view, v, s))}</div>
      </section>
    </div>`;
  }

  private mansions(): TemplateResult {
    return html`<div class="pinched-locations" data-testid="locations">
      ${this.v.locations.map((l) =>
        locationTile(this.view, this.v, l, {
          field: (location, f) => this.mansionField(location, f),
          controls: (location) => this.sealedMark(location),
        }),
      )}
    </div>`;
  }

  private river(): TemplateResult {
    return html`<section class="pinched-river" data-testid="river" aria-label="${t("pinched.river")}">
      <header>${t("pinched.river")}</header>
      <div class="pinched-fields">${this.v.river.map((f) => this.riverField(f))}</div>
    </section>`;
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

  /** A button making (or picking towards) a listed move of `kind`; `inner` is its words or card. */
  private control(
    kind: Kind,
    testid: string,
    inner: TemplateResult | string,
    onClick: () => void,
    where: Where = {},
    picked = false,
    look: Look = typeof inner === "string" ? "control" : "pick",
  ): TemplateResult {
    return html`<button
      type="button"
      class="pinched-${look} ${picked ? "pinched-picked" : ""}"
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

  /** A card that is also a button, named by what pressing it does (`label`). */
  private cardButton(kind: Kind, testid: string, card: Valuable, onClick: () => void, where: Where, picked = false): TemplateResult {
    return this.control(kind, testid, valuable(card), onClick, where, picked, "pick");
  }

  /** An open mansion card: a take, a passage pick or Gordie's card when one is listed. */
  private mansionField(location: Location, f: OpenField): TemplateResult {
    const card = f.card;
    if (!card) return bare();
    const name = valuableName(card);
    const from = placeFrom(location);
    const where = { location, field: f.field };
    const take = this.legal.of("takeCard").find((e) => this.v.heist === location && e.value.field === f.field);
    if (take) {
      return this.cardButton("takeCard", "field-card", card, () => this.c.submit(take.move), { ...where, label: t("pinched.do.take", { card: name, from }) });
    }
    const gordie = this.legal.of("takeWithGordie").find((e) => e.value.card?.location === location && e.value.card.field === f.field);
    if (gordie) {
      const label = t("pinched.do.gordie", { card: name, from });
      return this.cardButton("takeWithGordie", "field-card", card, () => this.c.submit(gordie.move), { ...where, label });
    }
    const key = refKey(location, f.field);
    const picks = this.passagePicks;
    const reachable = this.passageEntries().some((e) => {
      const ref = e.value.cards[picks.length];
      return ref !== undefined && refKey(ref.location, ref.field) === key;
    });
    if (reachable || picks.includes(key)) {
      const label = t("pinched.do.passage", { card: name, from });
      return this.cardButton("usePassage", "field-card", card, () => this.pickPassage(key), { ...where, label }, picks.includes(key));
    }
    return valuable(card);
  }

  private riverField(f: OpenField): TemplateResult {
    const card = f.card;
    if (!card) return bare();
    const take = this.legal.of("takeFromRiver").find((e) => e.value.field === f.field);
    if (!take) return valuable(card);
    const label = t("pinched.do.take", { card: valuableName(card), from: placeFrom(Location.UNSPECIFIED) });
    return this.cardButton("takeFromRiver", "river-card", card, () => this.c.submit(take.move), { field: f.field, label });
  }

  /** The seat's own location card on its tile, while it lies sealed. */
  private sealedMark(location: Location): Maybe {
    const sealed = this.v.phase === PinchedPhase.PLAN && this.v.myChoice === location;
    return sealed ? token(t("pinched.yourSealedCard"), "choice") : nothing;
  }

  /** A slot's sale, and the slot a picked hand card may be stored on. */
  private slotControls(slot: number): Maybe {
    const sell = this.legal.of("sell").find((e) => e.value.slot === slot);
    const picked = this.storePick;
    const store = this.legal.of("store").find((e) => picked !== undefined && e.value.card === picked && e.value.slot === slot);
    const set = this.v.stashes[this.me]?.slots[slot];
    const worth = set ? t("pinched.do.sell", { kind: kindName(set.kind), points: pointsN(saleValue(this.v, set)) }) : "";
    return html`${sell && set ? this.control("sell", "sell-slot", worth, () => this.c.submit(sell.move), { slot }) : nothing}${store
      ? this.control("store", "store-slot", t("pinched.do.storeHere"), () => this.c.submit(store.move), {
          slot,
          label: t("pinched.do.storeOn", { slot: num(slot + 1) }),
        })
      : nothing}`;
  }

  /** The seat's own hand (a card to store is picked here), sold cards, curses and letter. */
  private ownCards(): TemplateResult {
    const v = this.v;
    const picked = this.storePick;
    const stores = this.legal.of("store");
    const hand = v.hand.map((card) =>
      stores.some((e) => e.value.card === card.id)
        ? this.cardButton(
            "store",
            "hand-card",
            card,
            () => this.repick(STORE, picked === card.id ? undefined : card.id),
            { cardId: card.id, label: t("pinched.do.pickStore", { card: valuableName(card) }) },
            picked === card.id,
          )
        : valuable(card),
    );
    return html`<div class="pinched-own">
      <div class="pinched-hand" data-testid="hand">
        <span class="pinched-own-label">${t("pinched.yourHand")}</span>
        ${hand.length ? hand : html`<span class="muted">${t("pinched.empty")}</span>`}
      </div>
      ${v.sold.length
        ? html`<div class="pinched-sold" data-testid="sold" title="${t("pinched.soldHint")}">
            <span class="pinched-own-label">${t("pinched.yourSold", { points: pointsN(v.sold.length) })}</span>
            ${v.sold.map((card) => valuable(card, true))}
          </div>`
        : nothing}
      ${v.curses.length
        ? html`<div class="pinched-curses" data-testid="curses">
            <span class="pinched-own-label">${t("pinched.yourCurses")}</span>
            ${v.curses.map((curse) => token(`−${curse.points}`, "curse", t("pinched.curseWorth", { points: pointsN(curse.points) })))}
          </div>`
        : nothing}
      ${v.letter && !v.letterOpened ? token(t("pinched.letterSays", { at: placeAt(v.letter) }), "letter") : nothing}
    </div>`;
  }

  // --- the prompt and the buttons of the area ---------------------------------------

  /** What the seat may do now, in one line. */
  prompt(): string {
    const view = this.view;
    const v = this.v;
    if (view.outcome !== undefined) {
      const winners = view.outcome.winners;
      return t(winners.length > 1 ? "pinched.prompt.overTie" : "pinched.prompt.over", { names: whom(view, winners) });
    }
    const state = tableState(view);
    if (state === "open") return t("pinched.prompt.open");
    if (state !== "live") return t("pinched.prompt.stopped");
    const lines = this.promptLines();
    if (lines.length) return lines.join(" ");
    if (view.toAct.includes(this.me)) return t("pinched.prompt.loading");
    const sealed = v.phase === PinchedPhase.PLAN && v.myChoice ? `${t("pinched.prompt.sealed", { place: place(v.myChoice) })} ` : "";
    return sealed + this.waiting(view.toAct.filter((s) => s !== this.me));
  }

  /** "Waiting for Ada and Bo to choose a location in secret." */
  private waiting(seats: readonly number[]): string {
    if (!seats.length) return t("pinched.prompt.nothing");
    const names = whom(this.view, seats);
    const v = this.v;
    switch (v.phase) {
      case PinchedPhase.PLAN: return t("pinched.wait.plan", { names });
      case PinchedPhase.DOGS:
      case PinchedPhase.FINAL_DOGS: return t("pinched.wait.dogs", { names });
      case PinchedPhase.NIGHT: return t("pinched.wait.night", { names, at: placeAt(v.heist) });
      case PinchedPhase.AFTER: return t(v.riverTurns.length ? "pinched.wait.river" : "pinched.wait.after", { names });
      case PinchedPhase.FINAL_SALE: return t("pinched.wait.finalSale", { names });
      default: return t("pinched.wait", { names });
    }
  }

  private promptLines(): string[] {
    const has = (kind: Kind) => this.legal.has(kind);
    const v = this.v;
    const lines: string[] = [];
    if (has("store")) lines.push(t(this.storePick === undefined ? "pinched.prompt.store" : "pinched.prompt.storeSlot"));
    if (has("takeWithGordie")) lines.push(t("pinched.prompt.gordie"));
    if (has("chooseLocation")) lines.push(t(v.mastermind === this.me ? "pinched.prompt.chooseMastermind" : "pinched.prompt.choose"));
    if (has("takeCard") && v.heist) lines.push(t("pinched.prompt.take", { at: placeAt(v.heist) }));
    if (has("usePassage")) {
      const most = Math.max(...this.legal.of("usePassage").map((e) => e.value.cards.length));
      const left = most - this.passagePicks.length;
      lines.push(t(left === 1 ? "pinched.prompt.passageOne" : "pinched.prompt.passageMany", { count: num(left) }));
    }
    if (has("skipPassage") && !has("usePassage")) lines.push(t("pinched.prompt.skipPassage"));
    if (has("takeDog")) lines.push(t("pinched.prompt.dog"));
    if (has("passCurse") || has("keepCurses")) lines.push(t("pinched.prompt.curses"));
    if (has("sell") || has("endSelling")) lines.push(t(v.phase === PinchedPhase.AFTER ? "pinched.prompt.sellAfter" : "pinched.prompt.sell"));
    if (has("takeFromRiver")) lines.push(t("pinched.prompt.river"));
    return lines;
  }

  /** The moves that are not a card: the location cards, dogs, passage, curses, the end of a sale. */
  private actions(): Maybe {
    const buttons: TemplateResult[] = [];
    for (const e of this.legal.of("chooseLocation")) {
      const location = e.value.location;
      const label = html`<span class="pinched-suit" aria-hidden="true">${suitOf(location)}</span> ${placeTitle(location)}`;
      buttons.push(this.control("chooseLocation", "choose-location", label, () => this.c.submit(e.move), { location }, false, "control"));
    }
    for (const e of this.legal.of("takeDog")) {
      const dog = e.value.dog;
      buttons.push(this.control("takeDog", "take-dog", t("pinched.do.dog", { dog: dogName(dog) }), () => this.c.submit(e.move), { dog: Dog[dog].toLowerCase() }));
    }
    for (const e of this.legal.of("skipPassage")) {
      buttons.push(this.control("skipPassage", "skip-passage", t("pinched.do.skipPassage"), () => this.c.submit(e.move)));
    }
    for (const e of this.legal.of("passCurse")) {
      const points = this.v.curses.find((curse) => curse.id === e.value.curse)?.points ?? 0;
      const label = t("pinched.do.passCurse", { points: num(points), name: who(this.view, e.value.toSeat) });
      const where = { curse: e.value.curse, toSeat: e.value.toSeat };
      buttons.push(this.control("passCurse", "pass-curse", label, () => this.c.submit(e.move), where));
    }
    for (const e of this.legal.of("keepCurses")) {
      buttons.push(this.control("keepCurses", "keep-curses", t("pinched.do.keepCurses"), () => this.c.submit(e.move)));
    }
    for (const e of this.legal.of("endSelling")) {
      buttons.push(this.control("endSelling", "end-selling", t("pinched.do.endSelling"), () => this.c.submit(e.move)));
    }
    if (this.passagePicks.length || this.storePick !== undefined) {
      buttons.push(html`<button type="button" class="pinched-control" data-testid="cancel-pick" ?disabled=${this.c.busy}
        @click=${() => { this.c.picked.clear(); this.c.redraw(); }}>${t("pinched.do.cancel")}</button>`);
    }
    if (!buttons.length) return nothing;
    return html`<div class="pinched-buttons" data-testid="pinched-actions" role="group" aria-label="${t("pinched.yourMoves")}">${buttons}</div>`;
  }

  // --- piles --------------------------------------------------------------------------

  /** The deck, and the whole discard pile: its top card in view, the rest folded away. */
  private piles(): TemplateResult {
    const v = this.v;
    const top = v.discard.at(-1);
    return html`<section class="pinched-piles">
      <div class="pinched-deck">${v.deckSize ? t("pinched.deck", { cards: cardsN(v.deckSize) }) : t("pinched.deckEmpty")}</div>
      <details class="pinched-discards" data-testid="discard-pile">
        <summary>${top ? valuable(top, true) : nothing}<span>${t("pinched.discarded", { count: num(v.discard.length) })}</span></summary>
        <div class="pinched-discard-cards">${v.discard.slice(0, -1).reverse().map((card) => valuable(card, true))}</div>
      </details>
    </section>`;
  }
}

/** Scrolls to the board and moves the focus there (a phone's way down past the seat's own area). */
function toBoard(): void {
  const board = document.getElementById("pinched-board");
  board?.scrollIntoView({ block: "start" });
  board?.focus({ preventScroll: true });
}

/** The seat drawing of the Pinched! renderer. */
export function seat(view: View, controls: SeatControls): TemplateResult {
  if (view.gameView.case !== "pinched") return html`<p>${t("pinched.notPinched")}</p>`;
  return new SeatDrawing(view, view.gameView.value, controls).draw();
}

/** The Pinched! renderer's prompt: what the seat may do now, or whom the table waits for. */
export function prompt(view: View, controls: SeatControls): string {
  if (view.gameView.case !== "pinched") return "";
  return new SeatDrawing(view, view.gameView.value, controls).prompt();
}
