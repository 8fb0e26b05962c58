/**
 * The Gang: the public table as a spectator sees it. The board with slots for the streets
 * still to come, every seat's pocket (backs until a showdown shows it) with its chip per
 * round, the chips still in the middle, vaults and alarms, the challenge and specialist
 * cards in play, the group decisions in progress and the last heist's showdown. The log's
 * lines are in `the_gang_log.ts`, the seat's own table in `the_gang_seat.ts` and its
 * prompt in `the_gang_prompt.ts`.
 */
import type { TheGangView, View } from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";
import { t } from "../i18n/index.js";
import { seatLabel } from "../table.js";
import { event, move } from "./the_gang_log.js";
import {
  announced, board, cardText, cardsInPlay, challengeName, emptyChip, feltNotes, handText, playing, pocketSize,
  scanGuessText, specialistName, statusBar, tableChip,
} from "./the_gang_parts.js";
import { prompt } from "./the_gang_prompt.js";
import { seat } from "./the_gang_seat.js";
import { facedown, heistResult, middle, notesList, proposalText, seatHead, seatNotes } from "./the_gang_shared.js";
import type { GameRenderer, MoreReveal, Reveal } from "./types.js";
import "./the_gang.css";

function seatArea(v: View, g: TheGangView, n: number): TemplateResult {
  const toAct = v.toAct.includes(n);
  // A pocket is face up only where the view reveals it: the hands shown before the scan
  // guesses, once the game is over the final showdown, or a seat's own view of its pocket.
  // A finished view with the post-game reveal has every pocket in it, drawn beside the
  // board, and the showdown's in the last heist: the seat then draws it neither time.
  const shown = g.shown.find((r) => r.seat === n);
  const reveal = shown ?? (v.outcome ? g.heists.at(-1)?.reveals.find((r) => r.seat === n) : undefined);
  const own = v.seat === n && g.pocket.length ? g.pocket : undefined;
  const face = shown ?? (g.revealedPockets.length ? undefined : reveal);
  const faces = (face?.pocket ?? own)?.map((c) => playing(c));
  const backs = v.outcome ? 0 : pocketSize(g, n);
  return html`<div class="gang-seat${toAct ? " gang-to-act" : ""}" data-testid="seat" data-seat="${n}">
    ${seatHead(v, g, n, seatLabel(v, n))}
    ${faces ? html`<div class="gang-pocket">${faces}</div>` : facedown(backs)}
    ${reveal ? html`<div class="gang-hand">${handText(reveal)}</div>` : nothing}
    <div class="gang-seat-chips">
      ${g.chips.map((row) => {
        const held = row.chips.find((c) => c.holder === n);
        return held ? tableChip(g, held) : emptyChip(row.colour);
      })}
    </div>
    ${notesList([...g.announcements.filter((a) => a.seat === n).map((a) => announced(v, a)), ...seatNotes(v, g, n)]
      .map((line) => html`${line}`))}
  </div>`;
}

function decisions(v: View, g: TheGangView): TemplateResult | typeof nothing {
  const lines: TemplateResult[] = [
    ...g.proposals.map((p) => html`<li data-testid="proposal">${proposalText(v, p)}</li>`),
    ...g.guesses.map((s) => html`<li>${t("gang.guessAgreed", { challenge: challengeName(s.challenge), guess: scanGuessText(s.challenge, s.value) })}</li>`),
  ];
  if (g.awaitingGuesses) {
    lines.unshift(html`<li class="gang-warn">${t("gang.paused", { name: seatLabel(v, g.guessedSeat ?? -1) })}</li>`);
  }
  return lines.length ? html`<ul class="gang-decisions">${lines}</ul>` : nothing;
}

function table(v: View): TemplateResult {
  if (v.gameView.case !== "theGang") return html`<div class="gang-table">${t("gang.noView")}</div>`;
  const g = v.gameView.value;
  const chips = g.chips.flatMap((row) => row.chips.filter((c) => c.holder === undefined)).map((c) => tableChip(g, c));
  const last = g.heists.at(-1);
  return html`<div class="gang-table" data-testid="the-gang">
    ${statusBar(v, g)}
    ${cardsInPlay(v, g)}
    <section class="gang-felt">${board(g)} ${middle(g, chips)} ${feltNotes(g)}</section>
    <section class="gang-seats">${Array.from({ length: v.seats }, (_, n) => seatArea(v, g, n))}</section>
    ${v.outcome ? nothing : decisions(v, g)} ${last ? heistResult(v, last, "last-heist", false) : nothing}
  </div>`;
}

/** The post-game reveal: every pocket (and a sealed pass), the deck, discards, piles. */
function revealed(view: View): Reveal | undefined {
  if (view.gameView.case !== "theGang") return undefined;
  const g = view.gameView.value;
  const passes = new Map(g.revealedPasses.map((p) => [p.seat, p.card]));
  const seats = g.revealedPockets.map((pocket) => {
    const sealed = passes.get(pocket.seat);
    return {
      seat: pocket.seat,
      cards: pocket.cards.map((c) => playing(c)),
      notes: sealed ? [t("gang.reveal.pass", { card: cardText(sealed) })] : [],
    };
  });
  const informant = g.revealedAnnouncements.flatMap((a) => (a.card ? [a.card] : []));
  const more: MoreReveal[] = [
    { label: t("gang.reveal.deck"), cards: g.revealedDeck.map((c) => playing(c)) },
    { label: t("gang.reveal.discards"), cards: g.revealedDiscards.map((c) => playing(c)) },
    { label: t("gang.reveal.informant"), cards: informant.map((c) => playing(c)) },
  ];
  if (g.revealedChallengePile.length || g.revealedSpecialistPile.length) {
    more.push({
      label: t("gang.reveal.piles"),
      cards: [],
      text: t("gang.reveal.pileOrder", {
        challenges: g.revealedChallengePile.map(challengeName).join(", ") || "—",
        specialists: g.revealedSpecialistPile.map(specialistName).join(", ") || "—",
      }),
    });
  }
  return { seats, more };
}

export const theGang: GameRenderer = { game: "the_gang", title: "The Gang", table, move, event, seat, prompt, revealed };
