/**
 * The Gang at one seat: the seat's own view with its legal moves on it, in the game's
 * terms. A chip in the middle or before another seat is taken by a tap on it, your own chip
 * of the round goes back by a tap; a card you owe (Informant, Hacker, Jack, Coordinator) is
 * picked in your pocket and then shown, discarded or passed; a specialist's use is proposed
 * by choosing its user (then the viewer or the rank, when it needs one); a scan's guess by
 * tapping a rank or a hand; open proposals are accepted or withdrawn where they are listed.
 *
 * Nothing here decides what is legal: every control is an entry of `controls.legal`
 * (ListLegalMoves) found by what it names, and a control without one is not drawn. Every
 * card of the view is drawn exactly once, where the view puts it (your pocket, the board, a
 * showdown, an announcement, the pass you chose, the heists so far); once the game is over
 * what it hid is in the reveal below the table (`board.ts`).
 */
import {
  Announcement_Kind, ChipColour, Pending_Kind, SpecialistCard, type Announcement, type Chip,
  type HeistResult, type Move, type PlayingCard, type Reveal, type TheGangMove, type TheGangView,
  type View,
} from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";
import { cardBack } from "../cards.js";
import { seatLabel } from "../table.js";
import {
  CHALLENGE, COLOUR, HAND, SPECIALIST, announced, board, cardText, cardsInPlay, chip, chipText,
  decisionText, emptyChip, feltNotes, handText, named, playing, pocketSize, rankName, rankText,
  scanGuessText, statusBar, tableChip,
} from "./the_gang_parts.js";
import type { SeatControls } from "./types.js";
import "./the_gang_seat.css";

type Action = TheGangMove["action"];
type Kind = NonNullable<Action["case"]>;
type Of<K extends Kind> = Extract<Action, { case: K }>["value"];

/** A listed move and its action, so controls can be found by what they do. */
interface Listed {
  move: Move;
  action: Action;
}

/** The seat's table as drawn: the view, the seat's legal moves and the page's controls. */
interface Seat {
  v: View;
  g: TheGangView;
  me: number;
  c: SeatControls;
  listed: Listed[];
}

const sameCard = (a: PlayingCard | undefined, b: PlayingCard | undefined): boolean =>
  a !== undefined && b !== undefined && a.rank === b.rank && a.suit === b.suit;

/** Every listed move of `kind` (with its action's value) that `match` accepts. */
function listed<K extends Kind>(s: Seat, kind: K, match: (value: Of<K>) => boolean = () => true): { move: Move; value: Of<K> }[] {
  return s.listed.flatMap(({ move, action }) =>
    action.case === kind && match(action.value as Of<K>) ? [{ move, value: action.value as Of<K> }] : [],
  );
}

/** A button that makes `move`; its kind is the move's oneof case, for tests and styles. */
function moveButton(s: Seat, move: Move, kind: Kind, testid: string, label: string | TemplateResult, extra = ""): TemplateResult {
  return html`<button type="button" class="gang-act ${extra}" data-testid="${testid}" data-move-kind="${kind}"
    ?disabled=${s.c.busy} @click=${() => s.c.submit(move)}>${label}</button>`;
}

/** A chip as drawn at the seat: a button when a listed move takes or returns it. */
function seatChip(s: Seat, c: Chip, from: "middle" | "seat"): TemplateResult {
  const drawn = tableChip(s.g, c);
  const mine = c.holder === s.me;
  const kind = mine ? "returnChip" : "takeChip";
  const found = listed(s, kind, (m) => m.colour === c.colour && m.stars === c.stars)[0];
  if (found === undefined) return drawn;
  const what = chipText(c.colour, c.stars);
  const label = mine ? `return the ${what} chip to the middle` : `take the ${what} chip${from === "seat" ? ` from ${seatLabel(s.v, c.holder ?? -1)}` : ""}`;
  return html`<button type="button" class="gang-chip-button${mine ? " gang-return" : ""}"
    data-testid="${mine ? "return-chip" : "take-chip"}" data-move-kind="${kind}" data-from="${mine ? "mine" : from}"
    data-colour="${named(COLOUR, c.colour)}" data-stars="${c.stars}" aria-label="${label}" title="${label}"
    ?disabled=${s.c.busy} @click=${() => s.c.submit(found.move)}>${drawn}</button>`;
}

/** The chips a seat holds, one per round shown; the current round's may be taken or returned. */
function heldChips(s: Seat, n: number): TemplateResult {
  return html`<div class="gang-seat-chips">
    ${s.g.chips.map((row) => {
      const held = row.chips.find((c) => c.holder === n);
      return held ? seatChip(s, held, "seat") : emptyChip(row.colour);
    })}
  </div>`;
}

/** The card moves owed now (show, discard, pass): at most one kind at a time. */
function cardMoves(s: Seat): { kind: "showCard" | "discardCard" | "passCard"; moves: { move: Move; value: { card?: PlayingCard } }[] } | undefined {
  for (const kind of ["showCard", "discardCard", "passCard"] as const) {
    const moves = listed(s, kind);
    if (moves.length) return { kind, moves };
  }
  return undefined;
}

/** What the card move does, in words, for the button that makes it. */
function cardMoveText(s: Seat, kind: "showCard" | "discardCard" | "passCard", c: PlayingCard): string {
  if (kind === "showCard") {
    const owed = s.g.pending.find((p) => p.seat === s.me && p.kind === Pending_Kind.SHOW_CARD);
    return `Show ${cardText(c)} to ${seatLabel(s.v, owed?.toSeat ?? -1)}`;
  }
  if (kind === "discardCard") return `Discard ${cardText(c)} face down`;
  return `Pass ${cardText(c)} to ${seatLabel(s.v, (s.me + 1) % s.v.seats)} (left)`;
}

/** Your pocket, face up; while a card move is owed each listed card is picked by a tap. */
function myPocket(s: Seat): TemplateResult {
  const owed = cardMoves(s);
  const picked = s.c.picked.get("card") as PlayingCard | undefined;
  const chosen = owed?.moves.find((m) => sameCard(m.value.card, picked));
  const cards = s.g.pocket.map((c) => {
    const move = owed?.moves.find((m) => sameCard(m.value.card, c));
    if (move === undefined) return playing(c);
    const on = sameCard(c, picked);
    return html`<button type="button" class="gang-card-pick${on ? " gang-picked" : ""}" data-testid="pocket-pick"
      aria-pressed="${on}" aria-label="${`choose ${cardText(c)}`}" ?disabled=${s.c.busy}
      @click=${() => { s.c.picked.set("card", on ? undefined : c); s.c.redraw(); }}>${playing(c, { highlight: on })}</button>`;
  });
  return html`<div class="gang-pocket gang-my-pocket" data-testid="my-pocket">${cards}</div>
    ${owed
      ? html`<div class="gang-card-move" data-testid="card-move-bar">
          ${chosen?.value.card
            ? moveButton(s, chosen.move, owed.kind, "card-action", cardMoveText(s, owed.kind, chosen.value.card), "gang-primary")
            : html`<span class="gang-prompt">${owed.kind === "passCard" ? "Choose the card you pass left" : owed.kind === "showCard" ? "Choose the card you show" : "Choose the card you discard"}</span>`}
        </div>`
      : nothing}`;
}

/** An announcement, with the card it shows when the view gives it (the Informant's). */
function announcement(a: Announcement): TemplateResult {
  if (a.kind === Announcement_Kind.INFORMANT && a.card) {
    return html`<li>Informant: seat ${a.seat} shows ${playing(a.card, { small: true })} to seat ${a.toSeat ?? "?"}</li>`;
  }
  return html`<li>${announced(a)}</li>`;
}

/** What the view says of seat `n`: announcements, a card owed, a pass chosen, the specialist. */
function seatNotes(s: Seat, n: number): TemplateResult | typeof nothing {
  const g = s.g;
  const lines = [
    ...g.announcements.filter((a) => a.seat === n).map(announcement),
    ...g.pending.filter((p) => p.seat === n).map((p) => html`<li>${p.kind === Pending_Kind.SHOW_CARD
      ? `must show a card to ${seatLabel(s.v, p.toSeat ?? -1)}` : "must discard a card"}</li>`),
    ...(n === s.me && g.myPass ? [html`<li>passes ${playing(g.myPass, { small: true })} to the left</li>`] : []),
    ...(n !== s.me && g.passedSeats.includes(n) ? [html`<li>has chosen a card to pass</li>`] : []),
    ...(g.specialistUse?.seat === n ? [html`<li>uses the ${named(SPECIALIST, g.specialist)}</li>`] : []),
  ];
  return lines.length ? html`<ul class="gang-notes">${lines}</ul>` : nothing;
}

function seatHead(s: Seat, n: number): TemplateResult {
  const g = s.g;
  return html`<div class="gang-seat-head">
    <span class="gang-seat-name" data-testid="seat-label">${seatLabel(s.v, n)}${n === s.me ? " (you)" : ""}</span>
    ${s.v.toAct.includes(n) ? html`<span class="gang-badge">to act</span>` : nothing}
    ${g.confirmedSeats.includes(n) ? html`<span class="gang-badge gang-ok">ready ✓</span>` : nothing}
    ${g.guessedSeat === n ? html`<span class="gang-badge gang-warn">guessed about</span>` : nothing}
  </div>`;
}

/** Another seat: its pocket face down (sizes are public), its chips, its notes. */
function otherSeat(s: Seat, n: number): TemplateResult {
  const backs = s.v.outcome ? [] : Array.from({ length: pocketSize(s.g, n) }, () => cardBack());
  return html`<div class="gang-seat${s.v.toAct.includes(n) ? " gang-to-act" : ""}" data-testid="seat" data-seat="${n}">
    ${seatHead(s, n)}<div class="gang-pocket">${backs}</div>${heldChips(s, n)}${seatNotes(s, n)}
  </div>`;
}

/** Your own place: your pocket face up (pickable when a card is owed), chips, notes. */
function mySeat(s: Seat): TemplateResult {
  return html`<section class="gang-seat gang-me${s.v.toAct.includes(s.me) ? " gang-to-act" : ""}" data-testid="seat" data-seat="${s.me}">
    ${seatHead(s, s.me)} ${myPocket(s)} ${heldChips(s, s.me)} ${seatNotes(s, s.me)}
  </section>`;
}

/** The chips in the middle, each a button when a listed move takes it. */
function middle(s: Seat): TemplateResult {
  const chips = s.g.chips.flatMap((row) => row.chips.filter((c) => c.holder === undefined));
  return html`<div class="gang-middle" data-testid="middle" title="chips still in the middle">
    <span class="gang-label">middle</span>${chips.map((c) => seatChip(s, c, "middle"))}
  </div>`;
}

/** "Ready: end the round" while the round waits for every seat's confirmation. */
function confirmRound(s: Seat): TemplateResult | typeof nothing {
  const found = listed(s, "confirmRoundEnd")[0];
  if (!s.g.roundNeedsConfirmation && found === undefined) return nothing;
  const ready = s.g.confirmedSeats.map((n) => seatLabel(s.v, n));
  return html`<div class="gang-confirm">
    ${found ? moveButton(s, found.move, "confirmRoundEnd", "confirm-round-end", "Ready: end the round", "gang-primary") : nothing}
    <span class="gang-prompt">${ready.length ? `ready: ${ready.join(", ")}` : "the round ends once everyone is ready"}</span>
  </div>`;
}

/** The open proposals, each with Accept or Withdraw where those are listed. */
function proposals(s: Seat): TemplateResult | typeof nothing {
  if (!s.g.proposals.length) return nothing;
  return html`<ul class="gang-decisions">
    ${s.g.proposals.map((p) => {
      const accept = listed(s, "accept", (m) => m.proposal === p.id)[0];
      const withdraw = listed(s, "withdraw", (m) => m.proposal === p.id)[0];
      return html`<li data-testid="proposal" data-proposal="${p.id}">
        <span>#${p.id} ${seatLabel(s.v, p.proposer)} proposes ${decisionText(p.decision)} — accepted by
          ${p.accepted.map((n) => seatLabel(s.v, n)).join(", ")}</span>
        ${accept ? moveButton(s, accept.move, "accept", "accept", "Accept", "gang-primary") : nothing}
        ${withdraw ? moveButton(s, withdraw.move, "withdraw", "withdraw", "Withdraw") : nothing}
      </li>`;
    })}
  </ul>`;
}

/** Propose who uses the specialist: the user, then (Informant, Mastermind) the viewer or rank. */
function proposeUse(s: Seat): TemplateResult | typeof nothing {
  const uses = listed(s, "propose", (m) => m.decision.case === "useSpecialist").map(({ move, value }) => ({
    move, use: value.decision.case === "useSpecialist" ? value.decision.value : undefined,
  }));
  if (!uses.length) return nothing;
  const name = named(SPECIALIST, s.g.specialist);
  const users = [...new Set(uses.map((u) => u.use?.seat ?? -1))];
  const twoSteps = s.g.specialist === SpecialistCard.INFORMANT || s.g.specialist === SpecialistCard.MASTERMIND;
  const user = s.c.picked.get("use-seat") as number | undefined;
  const pick = (n: number): void => { s.c.picked.set("use-seat", n === user ? undefined : n); s.c.redraw(); };
  const whoLabel = (n: number): string => (n === s.me ? "You" : seatLabel(s.v, n));
  const first = users.map((n) => {
    if (!twoSteps) {
      const found = uses.find((u) => u.use?.seat === n);
      return found ? html`<button type="button" class="gang-act" data-testid="propose-use" data-move-kind="propose"
        data-decision="useSpecialist" data-seat="${n}" ?disabled=${s.c.busy} @click=${() => s.c.submit(found.move)}
        >${whoLabel(n)}</button>` : nothing;
    }
    return html`<button type="button" class="gang-act${n === user ? " gang-picked" : ""}" data-testid="use-seat"
      data-seat="${n}" aria-pressed="${n === user}" ?disabled=${s.c.busy} @click=${() => pick(n)}>${whoLabel(n)}</button>`;
  });
  const second = twoSteps && user !== undefined
    ? uses.filter((u) => u.use?.seat === user).map(({ move, use }) => {
        const viewer = use?.viewer;
        const label = viewer !== undefined ? `shows ${whoLabel(viewer)}` : `${rankName(use?.rank ?? 0)}s?`;
        return html`<button type="button" class="gang-act" data-testid="propose-use" data-move-kind="propose"
          data-decision="useSpecialist" data-seat="${user}" data-viewer="${viewer ?? nothing}" data-rank="${use?.rank ?? nothing}"
          ?disabled=${s.c.busy} @click=${() => s.c.submit(move)}>${viewer !== undefined ? label : rankText(use?.rank ?? 0)}</button>`;
      })
    : [];
  const ask = s.g.specialist === SpecialistCard.INFORMANT ? "…shows a pocket card to" : "…tells how many of";
  return html`<div class="gang-propose" data-testid="propose-specialist">
    <span class="gang-prompt">Propose who uses the ${name}:</span>
    <div class="gang-choices">${first}</div>
    ${second.length ? html`<span class="gang-prompt">${ask}</span><div class="gang-choices">${second}</div>` : nothing}
  </div>`;
}

/** The scan guesses due: a rank (Retina Scan) or a hand (Fingerprint Scan), one tap each. */
function proposeGuess(s: Seat): TemplateResult | typeof nothing {
  const ranks = listed(s, "propose", (m) => m.decision.case === "guessRank");
  const hands = listed(s, "propose", (m) => m.decision.case === "guessHand");
  if (!ranks.length && !hands.length) return nothing;
  const about = seatLabel(s.v, s.g.guessedSeat ?? -1);
  const choice = (move: Move, decision: string, value: number, label: string): TemplateResult =>
    html`<button type="button" class="gang-act" data-testid="propose-guess" data-move-kind="propose"
      data-decision="${decision}" data-value="${value}" ?disabled=${s.c.busy} @click=${() => s.c.submit(move)}>${label}</button>`;
  return html`<div class="gang-propose" data-testid="propose-guesses">
    ${ranks.length ? html`<span class="gang-prompt">${named(CHALLENGE, 4)}: propose a rank in ${about}'s pocket</span>
      <div class="gang-choices">${ranks.map(({ move, value }) => {
        const rank = value.decision.case === "guessRank" ? value.decision.value.rank : 0;
        return choice(move, "guessRank", rank, rankText(rank));
      })}</div>` : nothing}
    ${hands.length ? html`<span class="gang-prompt">${named(CHALLENGE, 9)}: propose ${about}'s hand</span>
      <div class="gang-choices">${hands.map(({ move, value }) => {
        const hand = value.decision.case === "guessHand" ? value.decision.value.category : 0;
        return choice(move, "guessHand", hand, named(HAND, hand));
      })}</div>` : nothing}
  </div>`;
}

/** One hand shown at a showdown: its red chip, pocket, best five and what it makes. */
function reveal(s: Seat, r: Reveal): TemplateResult {
  return html`<li class="${r.inOrder ? "" : "gang-out"}" data-testid="reveal" data-seat="${r.seat}">
    ${chip(ChipColour.RED, r.redStars)} <span class="gang-who">${seatLabel(s.v, r.seat)}</span>
    <span class="gang-pocket">${r.pocket.map((c) => playing(c, { small: true }))}</span>
    <span class="gang-hand-line">${handText(r)}${r.inOrder ? "" : " ✗ out of order"}</span>
    <span class="gang-best" title="the best five">${r.bestFive.map((c) => playing(c, { small: true }))}</span>
  </li>`;
}

function heist(s: Seat, h: HeistResult): TemplateResult {
  return html`<section class="gang-last ${h.success ? "gang-success" : "gang-failure"}" data-testid="heist" data-heist="${h.heist}">
    <div class="gang-last-head"><h3>Heist ${h.heist}: ${h.success ? "vault cracked" : "alarm!"}</h3>
      <div class="gang-last-board">${h.board.map((c) => playing(c, { small: true }))}</div></div>
    <ol class="gang-reveals">${h.reveals.map((r) => reveal(s, r))}</ol>
    ${h.scans.map((x) => html`<div class="${x.correct ? "" : "gang-out"}">${named(CHALLENGE, x.challenge)} on
      ${seatLabel(s.v, x.seat)}: guessed ${scanGuessText(x.challenge, x.guess)}, actual
      ${x.actual.map((a) => scanGuessText(x.challenge, a)).join(", ")} ${x.correct ? "✓" : "✗"}</div>`)}
  </section>`;
}

/** The showdown paused for the guesses: the hands shown so far, and the guesses agreed. */
function shown(s: Seat): TemplateResult | typeof nothing {
  const g = s.g;
  if (!g.awaitingGuesses && !g.guesses.length) return nothing;
  return html`<section class="gang-shown" data-testid="shown">
    <h3>Showdown: the gang guesses about ${seatLabel(s.v, g.guessedSeat ?? -1)}'s hand</h3>
    <ol class="gang-reveals">${g.shown.map((r) => reveal(s, r))}</ol>
    ${g.guesses.map((x) => html`<div>${named(CHALLENGE, x.challenge)} agreed: ${scanGuessText(x.challenge, x.value)}</div>`)}
  </section>`;
}

/** Every finished heist: the last one open, the earlier ones folded away. */
function heists(s: Seat): TemplateResult | typeof nothing {
  const done = s.g.heists;
  const last = done.at(-1);
  if (last === undefined) return nothing;
  return html`${heist(s, last)}
    ${done.length > 1 ? html`<details class="gang-earlier"><summary>Earlier heists (${done.length - 1})</summary>
      ${done.slice(0, -1).map((h) => heist(s, h))}</details>` : nothing}`;
}

/** The seat's table: status, cards in play, felt, your seat and moves, the others, heists. */
export function seat(v: View, c: SeatControls): TemplateResult {
  if (v.gameView.case !== "theGang") return html`<div class="gang-table">No view of The Gang.</div>`;
  const g = v.gameView.value;
  const list = c.legal.flatMap((move) => (move.game.case === "theGang" ? [{ move, action: move.game.value.action }] : []));
  const s: Seat = { v, g, me: c.seat, c, listed: list };
  const others = Array.from({ length: v.seats }, (_, n) => n).filter((n) => n !== c.seat);
  return html`<div class="gang-table gang-at-seat" data-testid="the-gang">
    ${statusBar(v, g)} ${cardsInPlay(g)}
    <section class="gang-felt">${board(g)} ${middle(s)} ${feltNotes(g)}</section>
    ${mySeat(s)}
    <section class="gang-actions" data-testid="actions">
      ${confirmRound(s)} ${proposals(s)} ${proposeUse(s)} ${proposeGuess(s)}
    </section>
    ${shown(s)}
    <section class="gang-seats">${others.map((n) => otherSeat(s, n))}</section>
    ${heists(s)}
  </div>`;
}
