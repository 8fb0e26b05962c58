"""Bots for The Gang: a random gang member and a heuristic one.

Both handle every move kind the referee lists (chips, confirmations, proposals,
acceptances, withdrawals, shown / discarded / passed cards). The Gang is simultaneous, so a
bot that always moved would keep chips changing hands for ever; both therefore leave their
chip alone once they hold one, except rarely (random) or to move to a free chip that fits
better, at most twice a round (heuristic).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

from referee.bots import poker
from referee.v1 import game_pb2, the_gang_pb2

CARD_ACTIONS = ("discard_card", "show_card", "pass_card")
SCAN_DECISION = {
    the_gang_pb2.CHALLENGE_CARD_RETINA_SCAN: "guess_rank",
    the_gang_pb2.CHALLENGE_CARD_FINGERPRINT_SCAN: "guess_hand",
}
MAX_CHANGES_PER_ROUND = 2


def action(move: game_pb2.Move) -> str:
    return move.the_gang.WhichOneof("action") or ""


def by_action(legal: Sequence[game_pb2.Move]) -> dict[str, list[game_pb2.Move]]:
    grouped: dict[str, list[game_pb2.Move]] = defaultdict(list)
    for move in legal:
        grouped[action(move)].append(move)
    return grouped


def current_row(view: game_pb2.View) -> the_gang_pb2.ChipRow | None:
    game = view.the_gang
    return next((row for row in game.chips if row.colour == game.round), None)


def held_chip(view: game_pb2.View) -> int | None:
    """The stars of the chip of the current round this seat holds, if any."""
    row = current_row(view)
    if row is None:
        return None
    return next(
        (chip.stars for chip in row.chips if chip.HasField("holder") and chip.holder == view.seat),
        None,
    )


def missing_guesses(view: game_pb2.View) -> list[str]:
    """The scan guesses still to agree on with no proposal open: ``guess_rank`` / ``hand``."""
    game = view.the_gang
    if not game.awaiting_guesses:
        return []
    agreed = {guess.challenge for guess in game.guesses}
    open_ = {proposal.WhichOneof("decision") for proposal in game.proposals}
    return [
        decision
        for challenge, decision in SCAN_DECISION.items()
        if challenge in game.challenges and challenge not in agreed and decision not in open_
    ]


def _proposals(moves: Sequence[game_pb2.Move], decision: str) -> list[game_pb2.Move]:
    return [move for move in moves if move.the_gang.propose.WhichOneof("decision") == decision]


class TheGangRandom:
    """Uniform among the legal moves, with the bias that lets games end.

    Owed card actions come first; open proposals are accepted mostly; a seat without this
    round's chip takes one (half the time from the centre, else any legal move); a seat
    holding one moves only one time in ten, and otherwise only confirms, accepts or proposes
    a scan guess nobody proposed yet.
    """

    name = "the_gang/random"

    def choose(
        self, view: game_pb2.View, legal: Sequence[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move | None:
        if not legal:
            return None
        moves = by_action(legal)
        owed = [move for kind in CARD_ACTIONS for move in moves[kind]]
        if owed:
            return rng.choice(owed)
        if moves["accept"] and rng.random() < 0.7:
            return rng.choice(moves["accept"])
        chips = moves["take_chip"] + moves["return_chip"]
        if chips and held_chip(view) is None:
            centre = [move for move in moves["take_chip"] if _in_centre(view, move)]
            if centre and rng.random() < 0.5:
                return rng.choice(centre)
            return rng.choice(list(legal))
        if rng.random() < 0.1:
            return rng.choice(list(legal))
        calm = moves["confirm_round_end"] + moves["accept"]
        for decision in missing_guesses(view):
            calm += _proposals(moves["propose"], decision)
        return rng.choice(calm) if calm else None


def _in_centre(view: game_pb2.View, move: game_pb2.Move) -> bool:
    row = current_row(view)
    stars = move.the_gang.take_chip.stars
    return row is not None and any(
        chip.stars == stars and not chip.HasField("holder") for chip in row.chips
    )


class TheGangHeuristic:
    """Ranks its own hand (eval7: the chance to beat one random pocket, board completed at
    random) and takes the chip of its estimated rank among the seats.

    The rank counts the other seats it beats, judged by the chip each holds this round (or
    held in the latest round before); among the free chips it takes the one nearest that
    estimate and moves to a better one later only while it is free (it never takes a chip
    from a player, so every round ends). Scan guesses: the rank / hand most frequent in
    sampled pockets strong enough for the top red chip; one seat proposes, the rest accept.
    Specialists: accepts what teammates propose, proposes none itself (its ranking does
    not use announcements). Discards the card whose loss hurts least, shows its highest,
    passes its lowest.
    """

    name = "the_gang/heuristic"

    def __init__(self) -> None:
        self._strength: dict[tuple[object, ...], float] = {}
        self._changes: dict[tuple[int, int], int] = defaultdict(int)

    def choose(
        self, view: game_pb2.View, legal: Sequence[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move | None:
        if not legal:
            return None
        moves = by_action(legal)
        for kind in CARD_ACTIONS:
            if moves[kind]:
                return self._card_action(view, kind, moves[kind], rng)
        if moves["accept"]:
            return moves["accept"][0]
        for decision in missing_guesses(view):
            proposals = _proposals(moves["propose"], decision)
            if proposals:
                return self._guess(view, decision, proposals, rng)
        chip = self._chip(view, moves, rng)
        if chip is not None:
            return chip
        if moves["confirm_round_end"]:
            return moves["confirm_round_end"][0]
        return None

    # --- chips ------------------------------------------------------------------------

    def strength(self, view: game_pb2.View, rng: random.Random) -> float:
        game = view.the_gang
        pocket = tuple(card.code for card in game.pocket)
        board = tuple(card.code for card in game.board)
        known = tuple(
            sorted(
                note.card.code
                for note in game.announcements
                if note.card.code and note.seat != view.seat
            )
        )
        key = (game.heist, pocket, board, known)
        if key not in self._strength:
            self._strength[key] = poker.strength(pocket, board, rng, known=known)
        return self._strength[key]

    def estimate(self, view: game_pb2.View, strength: float) -> float:
        """This seat's expected rank (1 = weakest) among the seats, from the chips held."""
        game, seats = view.the_gang, view.seats
        rank = 1.0
        for seat in range(seats):
            if seat == view.seat:
                continue
            signal: tuple[int, bool] | None = None
            for row in reversed(game.chips):
                held = [c.stars for c in row.chips if c.HasField("holder") and c.holder == seat]
                if held:
                    signal = (held[0], row.colour == game.round)
                    break
            if signal is None:
                rank += strength
                continue
            stars, fresh = signal
            theirs = (stars - 1) / max(1, seats - 1)
            if fresh:
                rank += 1.0 if strength > theirs else 0.0
            else:
                rank += min(1.0, max(0.0, 0.5 + (strength - theirs) * (seats - 1) * 0.5))
        return rank

    def _chip(
        self, view: game_pb2.View, moves: dict[str, list[game_pb2.Move]], rng: random.Random
    ) -> game_pb2.Move | None:
        game = view.the_gang
        takes = {
            move.the_gang.take_chip.stars: move
            for move in moves["take_chip"]
            if move.the_gang.take_chip.colour == game.round
        }
        row = current_row(view)
        if not takes or row is None:
            return None
        held = {chip.stars for chip in row.chips if chip.HasField("holder")}
        free = [stars for stars in takes if stars not in held]
        estimate = self.estimate(view, self.strength(view, rng))
        mine = held_chip(view)
        if mine is None:
            options = free or list(takes)
            return takes[min(options, key=lambda stars: (abs(stars - estimate), stars))]
        if not free:
            return None
        better = min(free, key=lambda stars: (abs(stars - estimate), stars))
        round_key = (game.heist, game.round)
        if abs(better - estimate) + 0.5 < abs(mine - estimate) and (
            self._changes[round_key] < MAX_CHANGES_PER_ROUND
        ):
            self._changes[round_key] += 1
            return takes[better]
        return None

    # --- card actions and guesses ------------------------------------------------------

    def _card_action(
        self, view: game_pb2.View, kind: str, options: list[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move:
        def card(move: game_pb2.Move) -> the_gang_pb2.PlayingCard:
            field: the_gang_pb2.PlayingCard = getattr(move.the_gang, kind).card
            return field

        if kind == "show_card":
            return max(options, key=lambda move: (card(move).rank, card(move).code))
        if kind == "pass_card":
            return min(options, key=lambda move: (card(move).rank, card(move).code))
        pocket = [c.code for c in view.the_gang.pocket]
        board = [c.code for c in view.the_gang.board]

        def kept(move: game_pb2.Move) -> float:
            rest = list(pocket)
            if card(move).code in rest:
                rest.remove(card(move).code)
            return poker.strength(rest, board, rng, samples=80)

        return max(options, key=kept)

    def _guess(
        self,
        view: game_pb2.View,
        decision: str,
        proposals: list[game_pb2.Move],
        rng: random.Random,
    ) -> game_pb2.Move:
        """The guess most often right about the top red chip's holder: his pocket sampled
        from the unseen cards, kept when it is at least as strong as every hand shown."""
        game = view.the_gang
        board = poker.plain_codes([c.code for c in game.board], [])
        shown = [[c.code for c in reveal.pocket] for reveal in game.shown]
        pocket = [c.code for c in game.pocket]
        seen = set(board) | set(pocket) | {code for hand in shown for code in hand}
        unseen = [code for code in poker.DECK if code not in seen]
        strongest = max(
            (poker.evaluate(poker.plain_codes(hand, seen) + board) for hand in shown if hand),
            default=0,
        )
        size = max(2, len(pocket))
        sampled = poker.sample_pockets(unseen, board, size, strongest, rng)
        scores: dict[int, float] = defaultdict(float)
        for hand, value in sampled:
            if decision == "guess_rank":
                for rank in {poker.RANKS.index(code[0]) + 2 for code in hand}:
                    scores[rank] += 1
            else:
                scores[poker.category(value)] += 1

        def score(move: game_pb2.Move) -> float:
            propose = move.the_gang.propose
            if decision == "guess_rank":
                return scores[propose.guess_rank.rank]
            return scores[int(propose.guess_hand.category)]

        return max(proposals, key=score)
