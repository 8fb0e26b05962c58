"""Bots for Pinched!: a random burglar and a heuristic set collector."""

from __future__ import annotations

import random
from collections.abc import Sequence

from referee.bots.base import UniformBot, best
from referee.v1 import game_pb2, pinched_pb2

DOCUMENT = "document"


def action(move: game_pb2.Move) -> str:
    return move.pinched.WhichOneof("action") or ""


def sale_value(kind: pinched_pb2.PinchedComponents.ValuableKind, count: int) -> int:
    """What selling ``count`` cards of ``kind`` earns (the highest threshold reached)."""
    value = 0
    for sale in kind.sales:
        if count >= sale.threshold:
            value = min(sale.value, count)
    return value


class PinchedRandom(UniformBot):
    """Any legal move, uniformly."""

    def __init__(self) -> None:
        super().__init__("pinched/random")


class PinchedHeuristic:
    """Collects sets: wants cards of the kinds on its stash (or a free slot), jokers on its
    biggest set, and sells a set once it reaches its top threshold (everything worth
    something at the end).

    Plans the heist where the loot is (open cards, the vault, treasures, the bank, the
    letter's location once it holds a clue), as mastermind sharply, as thief guessing the
    same way; takes the best card, the passage when it pays, Rufus over Gordie, and passes
    its worst curse to the richest burglar present.
    """

    name = "pinched/heuristic"

    def choose(
        self, view: game_pb2.View, legal: Sequence[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move | None:
        if not legal:
            return None
        moves: dict[str, list[game_pb2.Move]] = {}
        for move in legal:
            moves.setdefault(action(move), []).append(move)
        game = view.pinched
        if stores := moves.get("store"):
            return best(stores, lambda m: self._store(view, m), rng)
        if locations := moves.get("choose_location"):
            return self._plan(view, locations, rng)
        if dogs := moves.get("take_dog"):
            return best(dogs, lambda m: float(m.pinched.take_dog.dog == pinched_pb2.DOG_RUFUS), rng)
        if passes := moves.get("pass_curse"):
            points = {curse.id: curse.points for curse in game.curses}
            return best(
                passes,
                lambda m: (
                    points.get(m.pinched.pass_curse.curse, 0) * 100
                    + game.sold_counts[m.pinched.pass_curse.to_seat]
                ),
                rng,
            )
        if keep := moves.get("keep_curses"):
            return keep[0]
        if gordie := moves.get("take_with_gordie"):
            return best(
                gordie,
                lambda m: self._worth(view, _field(view, m.pinched.take_with_gordie.card)),
                rng,
            )
        takes, passages = moves.get("take_card", []), moves.get("use_passage", [])
        skip = moves.get("skip_passage", [])
        if takes or passages:
            return self._night(view, takes, passages, skip, rng)
        if skip:
            return skip[0]
        sells, end = moves.get("sell", []), moves.get("end_selling", [])
        if sells or end:
            final = game.phase == pinched_pb2.PINCHED_PHASE_FINAL_SALE
            good = [m for m in sells if self._sale(view, m.pinched.sell.slot, final)]
            if good:
                return best(good, lambda m: self._sell_value(view, m.pinched.sell.slot), rng)
            return (
                end[0]
                if end
                else best(sells, lambda m: self._sell_value(view, m.pinched.sell.slot), rng)
            )
        if river := moves.get("take_from_river"):
            return best(
                river,
                lambda m: self._worth(view, _river(view, m.pinched.take_from_river.field)),
                rng,
            )
        return rng.choice(list(legal))

    # --- valuing cards ----------------------------------------------------------------

    def _kind(
        self, view: game_pb2.View, name: str
    ) -> pinched_pb2.PinchedComponents.ValuableKind | None:
        return next((kind for kind in view.pinched.components.kinds if kind.name == name), None)

    def _worth(self, view: game_pb2.View, card: pinched_pb2.Valuable | None) -> float:
        """How much this seat wants ``card`` now: its kind on the stash, a joker, a free slot."""
        if card is None or not card.kind:
            return -1.0
        slots = view.pinched.stashes[view.seat].slots
        if card.kind == DOCUMENT:
            return 2.5 if any(slot.kind for slot in slots) else 1.0
        kind = self._kind(view, card.kind)
        top = kind.sales[-1] if kind is not None and kind.sales else None
        for slot in slots:
            if slot.kind == card.kind:
                count = len(slot.cards)
                if kind is not None and top is not None:
                    gain = sale_value(kind, count + 1) - sale_value(kind, count)
                    return 3.0 + gain + (0.5 if count + 1 < top.threshold else -1.0)
                return 3.0
        if any(not slot.kind for slot in slots):
            rate = top.value / top.threshold if top is not None else 0.5
            return 2.0 + rate
        return 0.3

    def _store(self, view: game_pb2.View, move: game_pb2.Move) -> float:
        store = move.pinched.store
        slot = view.pinched.stashes[view.seat].slots[store.slot]
        card = next((c for c in view.pinched.hand if c.id == store.card), None)
        if card is not None and card.kind == DOCUMENT:
            return len(slot.cards) + (5.0 if slot.kind else 0.0)
        return float(len(slot.cards))

    # --- the morning and the night ----------------------------------------------------

    def _appeal(self, view: game_pb2.View, location: int) -> float:
        game, seat = view.pinched, view.seat
        fields = next((f for f in game.fields if f.location == location), None)
        loot = (
            sum(self._worth(view, f.card) for f in fields.fields if f.HasField("card"))
            if fields
            else 0.0
        )
        appeal = 1.0 + max(0.0, loot)
        if location == pinched_pb2.LOCATION_DIAMONDS:
            appeal += 3.0 * (not game.HasField("lisa_mona_holder"))
            appeal += 2.0 * bool(game.diamonds_left or game.clues_left)
        elif location == pinched_pb2.LOCATION_CLUBS:
            appeal += 1.5 * game.vault_value
        elif location == pinched_pb2.LOCATION_SPADES:
            holders = {game.rufus_holder if game.HasField("rufus_holder") else None}
            appeal += 2.0 * (seat not in holders)
        elif location == pinched_pb2.LOCATION_BANK:
            appeal += 6.0
        if (
            game.letter == location
            and not game.HasField("lisa_mona_holder")
            and game.clues
            and game.clues[seat]
        ):
            appeal += 12.0
        return appeal

    def _plan(
        self, view: game_pb2.View, options: list[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move:
        mastermind = view.seat == view.pinched.mastermind
        weights = []
        for move in options:
            appeal = self._appeal(view, move.pinched.choose_location.location)
            weights.append(appeal**3 if mastermind else appeal**2)
        return rng.choices(options, weights=weights)[0]

    def _night(
        self,
        view: game_pb2.View,
        takes: list[game_pb2.Move],
        passages: list[game_pb2.Move],
        skip: list[game_pb2.Move],
        rng: random.Random,
    ) -> game_pb2.Move:
        game = view.pinched
        hearts = next(
            (s for s in game.locations if s.location == pinched_pb2.LOCATION_HEARTS), None
        )
        curse_cost = 1.5 if hearts is not None and hearts.side == pinched_pb2.SIDE_CROWN else 0.0

        def passage(move: game_pb2.Move) -> float:
            refs = move.pinched.use_passage.cards
            value = sum(self._worth(view, _field(view, ref)) for ref in refs)
            return value - (curse_cost if game.curse_pile else 0.0)

        row = next((f for f in game.fields if f.location == game.heist), None)

        def take(move: game_pb2.Move) -> float:
            if row is None:
                return 0.0
            field = move.pinched.take_card.field
            card = next(
                (f.card for f in row.fields if f.field == field and f.HasField("card")), None
            )
            return self._worth(view, card)

        best_take = best(takes, take, rng) if takes else None
        best_passage = best(passages, passage, rng) if passages else None
        take_value = take(best_take) if best_take is not None else (0.0 if skip else -10.0)
        if best_passage is not None and passage(best_passage) > take_value:
            return best_passage
        if best_take is not None:
            return best_take
        return skip[0] if skip else passages[0]

    # --- selling ----------------------------------------------------------------------

    def _sell_value(self, view: game_pb2.View, slot_index: int) -> float:
        slot = view.pinched.stashes[view.seat].slots[slot_index]
        kind = self._kind(view, slot.kind)
        return float(sale_value(kind, len(slot.cards))) if kind is not None else 0.0

    def _sale(self, view: game_pb2.View, slot_index: int, final: bool) -> bool:
        slot = view.pinched.stashes[view.seat].slots[slot_index]
        kind = self._kind(view, slot.kind)
        if kind is None or not kind.sales:
            return False
        value = sale_value(kind, len(slot.cards))
        if final:
            return value > 0
        return len(slot.cards) >= kind.sales[-1].threshold or (
            value >= 3 and view.pinched.watch <= 1
        )


def _field(
    view: game_pb2.View, ref: pinched_pb2.PinchedMove.FieldRef
) -> pinched_pb2.Valuable | None:
    for location in view.pinched.fields:
        if location.location == ref.location:
            for field in location.fields:
                if field.field == ref.field and field.HasField("card"):
                    return field.card
    return None


def _river(view: game_pb2.View, index: int) -> pinched_pb2.Valuable | None:
    for field in view.pinched.river:
        if field.field == index and field.HasField("card"):
            return field.card
    return None
