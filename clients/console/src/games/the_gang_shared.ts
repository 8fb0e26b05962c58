/**
 * The Gang's parts that the spectator's table (`the_gang.ts`) and the seat's own table
 * (`the_gang_seat.ts`) both lay out: a seat's head, its face-down pocket and its notes, a
 * proposal in words, a finished heist's showdown, the chips in the middle; and who sits to
 * the left and whom a card is owed, which the seat's prompt also needs.
 */
import { ChipColour, Pending_Kind, type HeistResult, type TheGangView, type View } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";
import { cardBack } from "../cards.js";
import { t } from "../i18n/index.js";
import { seatLabel } from "../table.js";
import {
  challengeName, chip, decisionText, handText, middleLabel, namesOf, playing, scanGuessText, specialistName,
} from "./the_gang_parts.js";

/** A seat's face-down pocket: its backs, named "2 cards, face down" as one picture. */
export function facedown(count: number): TemplateResult {
  const label = t("gang.faceDown", { count });
  return html`<div class="gang-pocket" role="img" aria-label="${label}">${Array.from({ length: count }, () => cardBack(label))}</div>`;
}

/** A seat's name and its badges: to act, ready, guessed about. */
export function seatHead(v: View, g: TheGangView, n: number, name: string): TemplateResult {
  return html`<div class="gang-seat-head">
    <span class="gang-seat-name" data-testid="seat-label">${name}</span>
    ${v.toAct.includes(n) && !v.outcome ? html`<span class="gang-badge">${t("gang.badge.toAct")}</span>` : nothing}
    ${g.confirmedSeats.includes(n) ? html`<span class="gang-badge gang-ok">${t("gang.badge.ready")} ✓</span>` : nothing}
    ${g.guessedSeat === n ? html`<span class="gang-badge gang-warn">${t("gang.badge.guessed")}</span>` : nothing}
  </div>`;
}

/** What the view says of seat `n` in words: announcements, a card owed, a pass, the specialist. */
export function seatNotes(v: View, g: TheGangView, n: number): string[] {
  return [
    ...g.pending.filter((p) => p.seat === n).map((p) => p.kind === Pending_Kind.SHOW_CARD
      ? t("gang.note.mustShow", { name: seatLabel(v, p.toSeat ?? -1) }) : t("gang.note.mustDiscard")),
    ...(n !== v.seat && g.passedSeats.includes(n) ? [t("gang.note.passChosen")] : []),
    ...(g.specialistUse?.seat === n ? [t("gang.note.uses", { name: specialistName(g.specialist) })] : []),
  ];
}

export function notesList(lines: TemplateResult[]): TemplateResult | typeof nothing {
  return lines.length ? html`<ul class="gang-notes">${lines.map((line) => html`<li>${line}</li>`)}</ul>` : nothing;
}

/** "#2 Ada proposes: Bo uses the specialist — accepted by Ada". */
export function proposalText(v: View, p: TheGangView["proposals"][number]): string {
  return t("gang.proposal", {
    id: p.id, name: seatLabel(v, p.proposer), decision: decisionText(v, p.decision), accepted: namesOf(v, p.accepted),
  });
}

/** One hand of a showdown: its red chip, who, the pocket, what it makes (and the best five). */
export function revealLine(v: View, r: HeistResult["reveals"][number], best: boolean): TemplateResult {
  return html`<li class="${r.inOrder ? "" : "gang-out"}" data-testid="reveal" data-seat="${r.seat}">
    ${chip(ChipColour.RED, r.redStars)} <span class="gang-who">${seatLabel(v, r.seat)}</span>
    <span class="gang-pocket">${r.pocket.map((c) => playing(c, { small: true }))}</span>
    <span class="gang-hand-line">${handText(r)}${r.inOrder ? "" : ` ✗ ${t("gang.outOfOrder")}`}</span>
    ${best ? html`<span class="gang-best" title="${t("gang.bestFive")}">${r.bestFive.map((c) => playing(c, { small: true }))}</span>` : nothing}
  </li>`;
}

/** A finished heist: vault or alarm, its board, every hand in red-chip order, the scans. */
export function heistResult(v: View, h: HeistResult, testid: string, best: boolean): TemplateResult {
  return html`<section class="gang-last ${h.success ? "gang-success" : "gang-failure"}" data-testid="${testid}" data-heist="${h.heist}">
    <div class="gang-last-head"><h3>${t(h.success ? "gang.heistWon" : "gang.heistLost", { heist: h.heist })}</h3>
      <div class="gang-last-board">${h.board.map((c) => playing(c, { small: true }))}</div></div>
    <ol class="gang-reveals">${h.reveals.map((r) => revealLine(v, r, best))}</ol>
    ${h.scans.map((s) => html`<div class="${s.correct ? "" : "gang-out"}">${t("gang.scan", {
      challenge: challengeName(s.challenge), name: seatLabel(v, s.seat), guess: scanGuessText(s.challenge, s.guess),
      actual: s.actual.map((a) => scanGuessText(s.challenge, a)).join(", "),
    })} ${s.correct ? "✓" : "✗"}</div>`)}
  </section>`;
}

/** The chips still in the middle: the round's colour in words, then the chips. */
export function middle(g: TheGangView, chips: TemplateResult[]): TemplateResult {
  return html`<div class="gang-middle" data-testid="middle" role="group" aria-label="${middleLabel(g)}">
    <span class="gang-label">${middleLabel(g)}</span>${chips}
  </div>`;
}

/** Who sits to the left of `seat` (the Coordinator's passes go there). */
export const leftOf = (v: View, seat: number): number => (seat + 1) % v.seats;

/** Whom this seat owes a card to show (the Informant), as the view says. */
export const showingTo = (g: TheGangView, me: number): number =>
  g.pending.find((p) => p.seat === me && p.kind === Pending_Kind.SHOW_CARD)?.toSeat ?? -1;
