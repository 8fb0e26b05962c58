/**
 * The Gang's one line for the seat page: what this seat may do now, in every phase (the
 * chips of a round, the round's end to confirm, a card owed to show, discard or pass, a
 * proposal to accept, the scans' guesses), or on whom the table waits. It reads the view
 * and the listed moves; it decides nothing.
 */
import { Pending_Kind, type TheGangView, type View } from "@referee/client/web";
import { t } from "../i18n/index.js";
import { seatLabel, tableState } from "../table.js";
import { aChip, colourName, decisionText, namesOf, specialistName } from "./the_gang_parts.js";
import { leftOf } from "./the_gang_shared.js";
import type { SeatControls } from "./types.js";

/** Every seat but `me` that is not in `done`. */
const others = (v: View, me: number, done: readonly number[]): number[] =>
  Array.from({ length: v.seats }, (_, n) => n).filter((n) => n !== me && !done.includes(n));

/** "Waiting for Ada and Bo", or plain "Waiting" when the view names nobody. */
function waiting(v: View, seats: readonly number[]): string {
  return seats.length ? t("gang.prompt.waitingFor", { names: namesOf(v, seats) }) : t("gang.prompt.waiting");
}

/** The seats holding a chip of the round being played. */
function holders(g: TheGangView): number[] {
  const row = g.chips.find((r) => r.colour === g.round);
  return row?.chips.flatMap((c) => (c.holder === undefined ? [] : [c.holder])) ?? [];
}

/** A card owed, a pass to choose, or the others' passes still to come. */
function cardPhase(v: View, g: TheGangView, c: SeatControls, can: Set<string>): string | undefined {
  const owed = g.pending.find((p) => p.seat === c.seat);
  if (owed) {
    return owed.kind === Pending_Kind.SHOW_CARD
      ? t("gang.prompt.show", { name: seatLabel(v, owed.toSeat ?? -1) })
      : t("gang.prompt.discard");
  }
  if (can.has("passCard")) return t("gang.prompt.pass", { name: seatLabel(v, leftOf(v, c.seat)) });
  if (g.myPass !== undefined) {
    return t("gang.prompt.passWait", { names: namesOf(v, others(v, c.seat, g.passedSeats)) });
  }
  const owing = g.pending.map((p) => p.seat);
  return owing.length ? waiting(v, owing) : undefined;
}

/** The showdown paused for the scans' guesses. */
function guessPhase(v: View, g: TheGangView, c: SeatControls, can: Set<string>): string | undefined {
  if (!g.awaitingGuesses) return undefined;
  const about = g.guessedSeat ?? -1;
  if (about === c.seat) return t("gang.prompt.guessedAboutYou", { names: namesOf(v, others(v, c.seat, [])) });
  if (can.has("propose") || can.has("accept")) return t("gang.prompt.guess", { name: seatLabel(v, about) });
  return t("gang.prompt.guessWait", { names: namesOf(v, v.toAct.filter((n) => n !== c.seat)) });
}

/** The chips of the round, its end to confirm, a proposal or the specialist's use. */
function chipPhase(v: View, g: TheGangView, c: SeatControls, can: Set<string>): string {
  const colour = colourName(g.round);
  const held = holders(g);
  const missing = others(v, -1, held);
  const open = g.proposals.find((p) => p.proposer !== c.seat && !p.accepted.includes(c.seat));
  if (open && can.has("accept")) {
    return t("gang.prompt.accept", { name: seatLabel(v, open.proposer), decision: decisionText(v, open.decision) });
  }
  if (!held.includes(c.seat)) {
    const middleEmpty = !g.chips.some((r) => r.colour === g.round && r.chips.some((x) => x.holder === undefined));
    return t(middleEmpty ? "gang.prompt.takeFromPlayer" : "gang.prompt.take", { chip: aChip(g.round) });
  }
  if (g.roundNeedsConfirmation && missing.length === 0) {
    if (can.has("confirmRoundEnd")) return t("gang.prompt.confirm", { colour });
    return t("gang.prompt.confirmWait", { names: namesOf(v, others(v, c.seat, g.confirmedSeats)) });
  }
  if (can.has("propose") && g.specialistUse === undefined) {
    return t("gang.prompt.propose", { name: specialistName(g.specialist) });
  }
  return missing.length
    ? t("gang.prompt.holding", { names: namesOf(v, missing) })
    : waiting(v, v.toAct.filter((n) => n !== c.seat));
}

/** What this seat may do now, in one line. */
export function prompt(v: View, c: SeatControls): string {
  if (v.gameView.case !== "theGang") return "";
  const g = v.gameView.value;
  if (v.outcome) return t(g.vaults >= g.vaultsToWin ? "gang.prompt.won" : "gang.prompt.lost");
  const state = tableState(v);
  if (state === "open") return t("gang.prompt.open");
  if (state !== "live") return t("gang.prompt.stopped");
  if (c.busy) return t("gang.prompt.sending");
  const can = new Set(c.legal.flatMap((m) => (m.game.case === "theGang" && m.game.value.action.case ? [m.game.value.action.case] : [])));
  return cardPhase(v, g, c, can) ?? guessPhase(v, g, c, can) ?? chipPhase(v, g, c, can);
}
