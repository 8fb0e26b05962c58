/**
 * The Gang at one seat: the seat's own view with its legal moves on it, in the game's
 * terms. A chip in the middle or before another seat is taken by a tap on it, your own chip
 * of the round goes back by a tap; a card you owe (Informant, Hacker, Jack, Coordinator) is
 * picked in your pocket and then shown, discarded or passed; a specialist's use is proposed
 * by choosing its user (then the viewer or the rank, when it needs one); a scan's guess by
 * tapping a rank or a hand; open proposals are accepted or withdrawn where they are listed.
 *
 * Every control is a button named in words ("Take the white chip with 3 stars from the
 * middle"), reached by Tab in the order of the table (the felt, your seat, your moves, the
 * others) and made by Enter or Space.
 *
 * Nothing here decides what is legal: every control is an entry of `controls.legal`
 * (ListLegalMoves) found by what it names, and a control without one is not drawn. Every
 * card of the view is drawn exactly once, where the view puts it (your pocket, the board, a
 * showdown, an announcement, the pass you chose, the heists so far); once the game is over
 * what it hid is in the reveal below the table (`board.ts`).
 */
import {
  Announcement_Kind, ChallengeCard, SpecialistCard, type Announcement, type Chip, type Move, type PlayingCard,
  type TheGangMove, type TheGangView, type View,
} from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";
import { t } from "../i18n/index.js";
import { seatLabel } from "../table.js";
import {
  announced, board, capital, cardText, cardsInPlay, challengeName, chipText, colourId, emptyChip, feltNotes,
  handName, namesOf, playing, pocketSize, rankName, rankText, scanGuessText, specialistName, statusBar, tableChip,
} from "./the_gang_parts.js";
import {
  facedown, heistResult, leftOf, middle, notesList, proposalText, revealLine, seatHead, seatNotes, showingTo,
} from "./the_gang_shared.js";
import type { SeatControls } from "./types.js";
import "./the_gang_seat.css";

type Action = TheGangMove["action"];
type Kind = NonNullable<Action["case"]>;
type Of<K extends Kind> = Extract<Action, { case: K }>["value"];
type CardKind = "showCard" | "discardCard" | "passCard";

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

/** A chip as drawn at the seat: a button, named in words, when a listed move takes or returns it. */
function seatChip(s: Seat, c: Chip, from: "middle" | "seat"): TemplateResult {
  const drawn = tableChip(s.g, c);
  const mine = c.holder === s.me;
  const kind = mine ? "returnChip" : "takeChip";
  const found = listed(s, kind, (m) => m.colour === c.colour && m.stars === c.stars)[0];
  if (found === undefined) return drawn;
  const chip = chipText(c.colour, c.stars);
  const label = mine ? t("gang.do.return", { chip })
    : from === "seat" ? t("gang.do.takeFrom", { chip, name: seatLabel(s.v, c.holder ?? -1) })
    : t("gang.do.takeMiddle", { chip });
  // Named by its words alone: the chip's own drawing (its stars, its initial) is hidden
  // from screen readers, so the name a player hears is what the button does.
  return html`<button type="button" class="gang-chip-button${mine ? " gang-return" : ""}"
    data-testid="${mine ? "return-chip" : "take-chip"}" data-move-kind="${kind}" data-from="${mine ? "mine" : from}"
    data-colour="${colourId(c.colour)}" data-stars="${c.stars}" title="${capital(label)}"
    ?disabled=${s.c.busy} @click=${() => s.c.submit(found.move)}><span aria-hidden="true">${drawn}</span><span
      class="sr-only">${capital(label)}</span></button>`;
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
function cardMoves(s: Seat): { kind: CardKind; moves: { move: Move; value: { card?: PlayingCard } }[] } | undefined {
  for (const kind of ["showCard", "discardCard", "passCard"] as const) {
    const moves = listed(s, kind);
    if (moves.length) return { kind, moves };
  }
  return undefined;
}

/** A rank as a button shows it ("Q") and as it is heard ("Queen"). */
const rankLabel = (rank: number): TemplateResult =>
  html`<span aria-hidden="true">${rankText(rank)}</span><span class="sr-only">${capital(rankName(rank))}</span>`;

/** What the card move does, in words, for the button that makes it. */
function cardMoveText(s: Seat, kind: CardKind, c: PlayingCard): string {
  const card = cardText(c);
  if (kind === "showCard") return t("gang.do.show", { card, name: seatLabel(s.v, showingTo(s.g, s.me)) });
  if (kind === "discardCard") return t("gang.do.discard", { card });
  return t("gang.do.pass", { card, name: seatLabel(s.v, leftOf(s.v, s.me)) });
}

/** What to pick before a card move, in words. */
function cardAsk(s: Seat, kind: CardKind): string {
  if (kind === "showCard") return t("gang.ask.show", { name: seatLabel(s.v, showingTo(s.g, s.me)) });
  if (kind === "discardCard") return t("gang.ask.discard");
  return t("gang.ask.pass", { name: seatLabel(s.v, leftOf(s.v, s.me)) });
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
      aria-pressed="${on}" ?disabled=${s.c.busy}
      @click=${() => { s.c.picked.set("card", on ? undefined : c); s.c.redraw(); }}>${playing(c, { highlight: on })}</button>`;
  });
  return html`<div class="gang-pocket gang-my-pocket" data-testid="my-pocket" role="group"
      aria-label="${t("gang.yourPocket")}">${cards}</div>
    ${owed
      ? html`<div class="gang-card-move" data-testid="card-move-bar">
          ${chosen?.value.card
            ? moveButton(s, chosen.move, owed.kind, "card-action", cardMoveText(s, owed.kind, chosen.value.card), "gang-primary")
            : html`<span class="gang-prompt">${cardAsk(s, owed.kind)}</span>`}
        </div>`
      : nothing}`;
}

/** An announcement, with the card it shows when the view gives it (the Informant's). */
function announcement(s: Seat, a: Announcement): TemplateResult {
  if (a.kind === Announcement_Kind.INFORMANT && a.card) {
    return html`${t("gang.informantShows", { name: seatLabel(s.v, a.toSeat ?? -1) })} ${playing(a.card, { small: true })}`;
  }
  return html`${announced(s.v, a)}`;
}

/** What the view says of seat `n`: announcements, a card owed, a pass chosen, the specialist. */
function notes(s: Seat, n: number): TemplateResult | typeof nothing {
  const g = s.g;
  return notesList([
    ...g.announcements.filter((a) => a.seat === n).map((a) => announcement(s, a)),
    ...(n === s.me && g.myPass ? [html`${t("gang.note.youPass", { name: seatLabel(s.v, leftOf(s.v, s.me)) })}
      ${playing(g.myPass, { small: true })}`] : []),
    ...seatNotes(s.v, g, n).map((line) => html`${line}`),
  ]);
}

/** Another seat: its pocket face down (sizes are public), its chips, its notes. */
function otherSeat(s: Seat, n: number): TemplateResult {
  return html`<div class="gang-seat${s.v.toAct.includes(n) ? " gang-to-act" : ""}" data-testid="seat" data-seat="${n}">
    ${seatHead(s.v, s.g, n, seatLabel(s.v, n))} ${facedown(s.v.outcome ? 0 : pocketSize(s.g, n))}
    ${heldChips(s, n)} ${notes(s, n)}
  </div>`;
}

/** Your own place: your pocket face up (pickable when a card is owed), chips, notes. */
function mySeat(s: Seat): TemplateResult {
  const name = t("gang.you", { name: seatLabel(s.v, s.me) });
  return html`<section class="gang-seat gang-me${s.v.toAct.includes(s.me) ? " gang-to-act" : ""}" data-testid="seat"
    data-seat="${s.me}" aria-label="${name}">
    ${seatHead(s.v, s.g, s.me, name)} ${myPocket(s)} ${heldChips(s, s.me)} ${notes(s, s.me)}
  </section>`;
}

/** "Ready: end the round" while the round waits for every seat's confirmation. */
function confirmRound(s: Seat): TemplateResult | typeof nothing {
  const found = listed(s, "confirmRoundEnd")[0];
  if (!s.g.roundNeedsConfirmation && found === undefined) return nothing;
  const ready = s.g.confirmedSeats;
  return html`<div class="gang-confirm">
    ${found ? moveButton(s, found.move, "confirmRoundEnd", "confirm-round-end", t("gang.do.confirm"), "gang-primary") : nothing}
    <span class="gang-prompt">${ready.length ? t("gang.readySeats", { names: namesOf(s.v, ready) }) : t("gang.readyNobody")}</span>
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
        <span>${proposalText(s.v, p)}</span>
        ${accept ? moveButton(s, accept.move, "accept", "accept", t("gang.do.accept"), "gang-primary") : nothing}
        ${withdraw ? moveButton(s, withdraw.move, "withdraw", "withdraw", t("gang.do.withdraw")) : nothing}
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
  const name = specialistName(s.g.specialist);
  const users = [...new Set(uses.map((u) => u.use?.seat ?? -1))];
  const twoSteps = s.g.specialist === SpecialistCard.INFORMANT || s.g.specialist === SpecialistCard.MASTERMIND;
  const user = s.c.picked.get("use-seat") as number | undefined;
  const pick = (n: number): void => { s.c.picked.set("use-seat", n === user ? undefined : n); s.c.redraw(); };
  const whoLabel = (n: number): string => (n === s.me ? t("gang.youShort") : seatLabel(s.v, n));
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
        const label = viewer !== undefined ? whoLabel(viewer) : rankLabel(use?.rank ?? 0);
        return html`<button type="button" class="gang-act" data-testid="propose-use" data-move-kind="propose"
          data-decision="useSpecialist" data-seat="${user}" data-viewer="${viewer ?? nothing}" data-rank="${use?.rank ?? nothing}"
          ?disabled=${s.c.busy} @click=${() => s.c.submit(move)}>${label}</button>`;
      })
    : [];
  const ask = s.g.specialist === SpecialistCard.INFORMANT
    ? t("gang.ask.viewer", { name: whoLabel(user ?? -1) }) : t("gang.ask.rank", { name: whoLabel(user ?? -1) });
  return html`<div class="gang-propose" data-testid="propose-specialist">
    <span class="gang-prompt">${t("gang.ask.user", { name })}</span>
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
  const choice = (move: Move, decision: string, value: number, label: string | TemplateResult): TemplateResult =>
    html`<button type="button" class="gang-act" data-testid="propose-guess" data-move-kind="propose"
      data-decision="${decision}" data-value="${value}" ?disabled=${s.c.busy}
      @click=${() => s.c.submit(move)}>${label}</button>`;
  return html`<div class="gang-propose" data-testid="propose-guesses">
    ${ranks.length ? html`<span class="gang-prompt">${t("gang.ask.guessRank", { challenge: challengeName(ChallengeCard.RETINA_SCAN), name: about })}</span>
      <div class="gang-choices">${ranks.map(({ move, value }) => {
        const rank = value.decision.case === "guessRank" ? value.decision.value.rank : 0;
        return choice(move, "guessRank", rank, rankLabel(rank));
      })}</div>` : nothing}
    ${hands.length ? html`<span class="gang-prompt">${t("gang.ask.guessHand", { challenge: challengeName(ChallengeCard.FINGERPRINT_SCAN), name: about })}</span>
      <div class="gang-choices">${hands.map(({ move, value }) => {
        const hand = value.decision.case === "guessHand" ? value.decision.value.category : 0;
        return choice(move, "guessHand", hand, handName(hand));
      })}</div>` : nothing}
  </div>`;
}

/** The showdown paused for the guesses: the hands shown so far, and the guesses agreed. */
function shown(s: Seat): TemplateResult | typeof nothing {
  const g = s.g;
  if (!g.awaitingGuesses && !g.guesses.length) return nothing;
  return html`<section class="gang-shown" data-testid="shown">
    <h3>${t("gang.showdownGuess", { name: seatLabel(s.v, g.guessedSeat ?? -1) })}</h3>
    <ol class="gang-reveals">${g.shown.map((r) => revealLine(s.v, r, true))}</ol>
    ${g.guesses.map((x) => html`<div>${t("gang.guessAgreed", {
      challenge: challengeName(x.challenge), guess: scanGuessText(x.challenge, x.value),
    })}</div>`)}
  </section>`;
}

/** Every finished heist: the last one open, the earlier ones folded away. */
function heists(s: Seat): TemplateResult | typeof nothing {
  const done = s.g.heists;
  const last = done.at(-1);
  if (last === undefined) return nothing;
  return html`${heistResult(s.v, last, "heist", true)}
    ${done.length > 1 ? html`<details class="gang-earlier"><summary>${t("gang.earlier", { count: done.length - 1 })}</summary>
      ${done.slice(0, -1).map((h) => heistResult(s.v, h, "heist", true))}</details>` : nothing}`;
}

/** The seat's table: status, cards in play, felt, your seat and moves, the others, heists. */
export function seat(v: View, c: SeatControls): TemplateResult {
  if (v.gameView.case !== "theGang") return html`<div class="gang-table">${t("gang.noView")}</div>`;
  const g = v.gameView.value;
  const list = c.legal.flatMap((move) => (move.game.case === "theGang" ? [{ move, action: move.game.value.action }] : []));
  const s: Seat = { v, g, me: c.seat, c, listed: list };
  const others = Array.from({ length: v.seats }, (_, n) => n).filter((n) => n !== c.seat);
  const inMiddle = g.chips.flatMap((row) => row.chips.filter((chip) => chip.holder === undefined));
  return html`<div class="gang-table gang-at-seat" data-testid="the-gang">
    ${statusBar(v, g)} ${cardsInPlay(v, g)}
    <section class="gang-felt">${board(g)} ${middle(g, inMiddle.map((chip) => seatChip(s, chip, "middle")))} ${feltNotes(g)}</section>
    ${mySeat(s)}
    <section class="gang-actions" data-testid="actions">
      ${confirmRound(s)} ${proposals(s)} ${proposeUse(s)} ${proposeGuess(s)}
    </section>
    ${shown(s)}
    <section class="gang-seats">${others.map((n) => otherSeat(s, n))}</section>
    ${heists(s)}
  </div>`;
}
