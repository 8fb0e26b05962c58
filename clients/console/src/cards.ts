/**
 * Cards as HTML: one drawing for every game, so a face-up card is always
 * `<div class="card" data-testid="card" data-card="KEY">` and a face-down one
 * `<div class="card back" data-testid="card-back">` with no identity at all. `data-card`
 * is `cardKey` of the card's protobuf message: the end-to-end tests compare it with the
 * spectator view to prove the page draws nothing the view did not give it.
 */
import { toJson, type DescMessage, type MessageShape } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import "./cards.css";

/** How a face-up card looks. */
export interface CardFace {
  /** `cardKey` of the card's message. */
  key: string;
  /** What the corners show: "A", "10", "1", "P" (phoenix), "D" (dragon), ... */
  rank: string;
  /** The suit glyph or emblem in the middle, e.g. "♠", "♥", "★". */
  symbol?: string;
  /** The colour class: "black", "red", "green", "yellow", "blue", "purple", "multi", "gold". */
  colour: string;
  /** Full name, shown as a tooltip, e.g. "queen of hearts". */
  title?: string;
}

export interface CardOptions {
  /** A smaller card, e.g. in a stash or a log line. */
  small?: boolean;
  /** Outlined, e.g. the cards of the latest play. */
  highlight?: boolean;
}

function classes(base: string, { small, highlight }: CardOptions): string {
  return [base, small ? "small" : "", highlight ? "highlight" : ""].filter(Boolean).join(" ");
}

/** A face-up card. */
export function card(face: CardFace, options: CardOptions = {}): TemplateResult {
  return html`<div
    class="${classes(`card ${face.colour}`, options)}"
    data-testid="card"
    data-card="${face.key}"
    title="${face.title ?? nothing}"
  >
    <span class="rank">${face.rank}</span
    ><span class="symbol">${face.symbol ?? ""}</span
    ><span class="rank bottom">${face.rank}</span>
  </div>`;
}

/** A face-down card: no rank, no suit, no key. */
export function cardBack(title = "face down", options: CardOptions = {}): TemplateResult {
  return html`<div class="${classes("card back", options)}" data-testid="card-back" title="${title}"></div>`;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * A card's identity: its message in canonical proto3 JSON (enum names, defaults left
 * out) with sorted keys and no spaces, e.g. `{"rank":12,"suit":"SUIT_HEARTS"}`. Python's
 * `json.dumps(MessageToDict(card), sort_keys=True, separators=(",", ":"))` gives the same.
 */
export function cardKey<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): string {
  return JSON.stringify(sorted(toJson(schema, message)));
}
