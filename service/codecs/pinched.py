"""Pinched!: engine values <-> ``referee.v1`` messages.

Cards are ids into the game's component table. A view carries its table, so every card in a
view is a ``Valuable`` with its kind's name; an event does not (the codec sees the event
alone), so cards in events carry their id and an empty kind.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engines.pinched import events as ev
from engines.pinched.components import JOKER, Components, ValuableKind, kinds_of
from engines.pinched.model import (
    Curse,
    Dog,
    Location,
    Phase,
    PinchedConfig,
    Placement,
    Side,
    Slot,
    Take,
)
from engines.pinched.moves import (
    ChooseLocation,
    EndSelling,
    FieldRef,
    KeepCurses,
    Move,
    PassCurse,
    Sell,
    SkipPassage,
    Store,
    TakeCard,
    TakeDog,
    TakeFromRiver,
    TakeWithGordie,
    UsePassage,
)
from engines.pinched.setup import BASIC, RECOMMENDED
from engines.pinched.view import PinchedView
from referee.v1 import game_pb2
from referee.v1 import pinched_pb2 as pb
from service.errors import BadRequest

DOCUMENT = "document"
"""The kind name of a joker (document card) in a ``Valuable``."""

# The proto enums spell the engine's names, so the tables are built by name; a renamed
# value fails here, at import.
_LOCATIONS = {where: pb.Location.Value(f"LOCATION_{where.name}") for where in Location}
_LOCATIONS_BACK: dict[int, Location] = {int(v): where for where, v in _LOCATIONS.items()}
_SIDES = {side: pb.Side.Value(f"SIDE_{side.name}") for side in Side}
_SIDES_BACK: dict[int, Side] = {int(value): side for side, value in _SIDES.items()}
_DOGS = {dog: pb.Dog.Value(f"DOG_{dog.name}") for dog in Dog}
_DOGS_BACK: dict[int, Dog] = {int(value): dog for dog, value in _DOGS.items()}
_PHASES = {phase: pb.PinchedPhase.Value(f"PINCHED_PHASE_{phase.name}") for phase in Phase}
_DRAW_REASONS = {
    reason: pb.DrawReason.Value(f"DRAW_REASON_{reason.upper()}")
    for reason in ("start", "last_take", "vault", "bank")
}
_TREASURES = {
    treasure: pb.Treasure.Value(f"TREASURE_{treasure.upper()}")
    for treasure in ("lisa_mona", "diamond", "clue")
}


# --- small values ----------------------------------------------------------------------


def _location(where: Location | None) -> pb.Location.ValueType:
    return _LOCATIONS[where] if where is not None else pb.LOCATION_UNSPECIFIED


def _location_from_proto(value: int) -> Location:
    if value == pb.LOCATION_UNSPECIFIED:
        raise BadRequest("LOCATION_MISSING", "name a location")
    where = _LOCATIONS_BACK.get(value)
    if where is None:
        raise BadRequest("UNKNOWN_LOCATION", f"there is no location {value} in Pinched!")
    return where


def _dog_from_proto(value: int) -> Dog:
    if value == pb.DOG_UNSPECIFIED:
        raise BadRequest("DOG_MISSING", "name a dog: Rufus or Gordie")
    dog = _DOGS_BACK.get(value)
    if dog is None:
        raise BadRequest("UNKNOWN_DOG", f"there is no dog {value}")
    return dog


def _curse(curse: Curse | None) -> pb.Curse | None:
    """A curse, or None (the field left unset) where it is hidden from the receiver."""
    return pb.Curse(id=curse.id, points=curse.points) if curse is not None else None


def _event_card(card: int) -> pb.Valuable:
    return pb.Valuable(id=card)


def _event_cards(cards: Iterable[int]) -> list[pb.Valuable]:
    return [pb.Valuable(id=card) for card in cards]


def _field_ref_from_proto(ref: pb.PinchedMove.FieldRef) -> FieldRef:
    return FieldRef(_location_from_proto(ref.location), ref.field)


def _field_ref(ref: FieldRef) -> pb.PinchedMove.FieldRef:
    return pb.PinchedMove.FieldRef(location=_LOCATIONS[ref.location], field=ref.field)


class _Cards:
    """Card ids -> ``Valuable`` messages through one component table."""

    def __init__(self, table: Components) -> None:
        self.kinds = kinds_of(table)
        self.names = [kind.name for kind in table.kinds]

    def name(self, kind: int) -> str:
        return DOCUMENT if kind == JOKER else self.names[kind]

    def card(self, card: int) -> pb.Valuable:
        return pb.Valuable(id=card, kind=self.name(self.kinds[card]))

    def cards(self, cards: Iterable[int]) -> list[pb.Valuable]:
        return [self.card(card) for card in cards]

    def fields(self, row: Iterable[int | None]) -> list[pb.OpenField]:
        return [
            pb.OpenField(field=field, card=self.card(card) if card is not None else None)
            for field, card in enumerate(row)
        ]

    def slot(self, slot: Slot) -> pb.StashSlot:
        kind = self.names[slot.kind] if slot.kind is not None else ""
        return pb.StashSlot(kind=kind, cards=self.cards(slot.cards))


# --- the component table and the options -----------------------------------------------


def components_to_proto(table: Components) -> pb.PinchedComponents:
    c = pb.PinchedComponents
    return c(
        kinds=[
            c.ValuableKind(
                name=kind.name,
                copies=kind.copies,
                sales=[c.Sale(threshold=t, value=v) for t, v in kind.sales],
            )
            for kind in table.kinds
        ],
        jokers=table.jokers,
        curses=table.curses,
        vault_standard=table.vault_standard,
        vault_crown=table.vault_crown,
        fields=table.fields,
        tiebreak_kind=table.tiebreak_kind,
    )


def components_from_proto(message: pb.PinchedComponents) -> Components:
    """The table as given; the engine checks the rules' demands on it (BAD_COMPONENTS)."""
    if any(kind.name == DOCUMENT for kind in message.kinds):
        raise BadRequest("BAD_COMPONENTS", f"{DOCUMENT!r} names the jokers, not a kind")
    extra: dict[str, Any] = {}
    if message.tiebreak_kind:
        extra["tiebreak_kind"] = message.tiebreak_kind
    return Components(
        kinds=tuple(
            ValuableKind(
                kind.name,
                kind.copies,
                tuple((sale.threshold, sale.value) for sale in kind.sales),
            )
            for kind in message.kinds
        ),
        jokers=message.jokers,
        curses=tuple(message.curses),
        vault_standard=tuple(message.vault_standard),
        vault_crown=tuple(message.vault_crown),
        fields=message.fields,
        **extra,
    )


def _placement_from_proto(message: pb.LocationSide) -> Placement:
    where = _LOCATIONS_BACK.get(message.location)
    side = _SIDES_BACK.get(message.side)
    if where is None or side is None:
        raise BadRequest("BAD_LOCATIONS", "each placement names a location and its side")
    return Placement(where, side)


def _setup_name(config: PinchedConfig) -> str | None:
    """The name of the rules' setup the config's locations are, if any."""
    if BASIC.get(config.players) == config.locations:
        return "basic"
    for name, (players, locations) in RECOMMENDED.items():
        if (players, locations) == (config.players, config.locations):
            return name
    return None


class PinchedCodec:
    def options_from_proto(self, options: game_pb2.TableOptions) -> dict[str, object]:
        """The engine's table options; only the ones set (the engine refuses a setup with
        locations, an unknown setup name, and sides that do not fit the seats)."""
        which = options.WhichOneof("game")
        if which is None:
            return {}
        if which != "pinched":
            raise BadRequest("OPTIONS_FOR_OTHER_GAME", f"options for {which}, not pinched")
        given = options.pinched
        out: dict[str, object] = {}
        if given.setup:
            out["setup"] = given.setup
        if given.locations:
            out["locations"] = tuple(_placement_from_proto(p) for p in given.locations)
        if given.HasField("components"):
            out["components"] = components_from_proto(given.components)
        return out

    def options_to_proto(self, config: Any) -> game_pb2.TableOptions:
        """The setup by name when it is one of the rules' setups, else the locations; and
        always the whole component table, so a history says which values were played."""
        assert isinstance(config, PinchedConfig)
        message = pb.PinchedOptions(components=components_to_proto(config.components))
        name = _setup_name(config)
        if name is not None:
            message.setup = name
        else:
            message.locations.extend(
                pb.LocationSide(location=_LOCATIONS[p.location], side=_SIDES[p.side])
                for p in config.locations
            )
        return game_pb2.TableOptions(pinched=message)

    # --- moves -------------------------------------------------------------------------

    def move_from_proto(self, move: game_pb2.Move) -> Move:
        if move.WhichOneof("game") != "pinched":
            raise BadRequest("MOVE_FOR_OTHER_GAME", "this game takes a `pinched` move")
        m = move.pinched
        match m.WhichOneof("action"):
            case "choose_location":
                return ChooseLocation(_location_from_proto(m.choose_location.location))
            case "take_card":
                return TakeCard(m.take_card.field)
            case "use_passage":
                return UsePassage(tuple(_field_ref_from_proto(r) for r in m.use_passage.cards))
            case "skip_passage":
                return SkipPassage()
            case "take_dog":
                return TakeDog(_dog_from_proto(m.take_dog.dog))
            case "pass_curse":
                return PassCurse(m.pass_curse.curse, m.pass_curse.to_seat)
            case "keep_curses":
                return KeepCurses()
            case "take_with_gordie":
                if not m.take_with_gordie.HasField("card"):
                    raise BadRequest("CARD_MISSING", "name the mansion card Gordie takes")
                return TakeWithGordie(_field_ref_from_proto(m.take_with_gordie.card))
            case "store":
                return Store(m.store.card, m.store.slot)
            case "sell":
                return Sell(m.sell.slot)
            case "end_selling":
                return EndSelling()
            case "take_from_river":
                return TakeFromRiver(m.take_from_river.field)
        raise BadRequest("MOVE_EMPTY", "the move names no action")

    def move_to_proto(self, move: Any) -> game_pb2.Move:
        m = pb.PinchedMove
        match move:
            case ChooseLocation(location=where):
                action = m(choose_location=m.ChooseLocation(location=_LOCATIONS[where]))
            case TakeCard(field=field):
                action = m(take_card=m.TakeCard(field=field))
            case UsePassage(cards=refs):
                action = m(use_passage=m.UsePassage(cards=[_field_ref(r) for r in refs]))
            case SkipPassage():
                action = m(skip_passage=m.SkipPassage())
            case TakeDog(dog=dog):
                action = m(take_dog=m.TakeDog(dog=_DOGS[dog]))
            case PassCurse(curse=curse, to_seat=to):
                action = m(pass_curse=m.PassCurse(curse=curse, to_seat=to))
            case KeepCurses():
                action = m(keep_curses=m.KeepCurses())
            case TakeWithGordie(card=ref):
                action = m(take_with_gordie=m.TakeWithGordie(card=_field_ref(ref)))
            case Store(card=card, slot=slot):
                action = m(store=m.Store(card=card, slot=slot))
            case Sell(slot=slot):
                action = m(sell=m.Sell(slot=slot))
            case EndSelling():
                action = m(end_selling=m.EndSelling())
            case TakeFromRiver(field=field):
                action = m(take_from_river=m.TakeFromRiver(field=field))
            case _:
                raise TypeError(f"not a move of Pinched!: {move!r}")
        return game_pb2.Move(pinched=action)

    # --- the view ----------------------------------------------------------------------

    def fill_view(self, view: Any, target: game_pb2.View) -> None:
        assert isinstance(view, PinchedView)
        cards = _Cards(view.components)
        rufus, gordie = view.dogs
        target.pinched.CopyFrom(
            pb.PinchedView(
                players=view.players,
                locations=[
                    pb.LocationSide(location=_LOCATIONS[p.location], side=_SIDES[p.side])
                    for p in view.locations
                ],
                components=components_to_proto(view.components),
                day=view.day,
                watch=view.watch,
                first_mastermind=view.first_mastermind,
                mastermind=view.mastermind,
                phase=_PHASES[view.phase],
                fields=[
                    pb.LocationFields(location=_LOCATIONS[p.location], fields=cards.fields(row))
                    for p, row in zip(view.locations, view.fields, strict=True)
                ],
                river=cards.fields(view.river),
                deck_size=view.deck_size,
                discard=cards.cards(view.discard),
                stashes=[
                    pb.Stash(slots=[cards.slot(slot) for slot in stash]) for stash in view.stashes
                ],
                hand=cards.cards(view.hand),
                hand_sizes=view.hand_sizes,
                sold=cards.cards(view.sold),
                sold_counts=view.sold_counts,
                chosen_seats=view.chosen,
                my_choice=_location(view.my_choice),
                choices=[_location(choice) for choice in view.choices],
                heist=_location(view.heist),
                present=view.present,
                takes=[_take(take) for take in view.takes],
                passage_open=view.passage_open,
                passage_due=view.passage_due,
                dog_due=view.dog_due,
                curse_turns=view.curse_turns,
                river_turns=view.river_turns,
                selling=view.selling,
                gordie_due=view.gordie_due,
                vault=view.vault,
                vault_value=view.vault_value,
                rufus_holder=rufus,
                gordie_holder=gordie,
                lisa_mona_holder=view.lisa_mona,
                lisa_mona_points=view.lisa_mona_points,
                diamonds_left=view.diamonds_left,
                diamonds=view.diamonds,
                clues_left=view.clues_left,
                clues=view.clues,
                letter=_location(view.letter),
                letter_opened=view.letter_opened,
                letter_read_by=view.letter_read_by,
                curses=[pb.Curse(id=c.id, points=c.points) for c in view.curses],
                curse_counts=view.curse_counts,
                curse_pile=view.curse_pile,
                result=_result(view.scores) if view.scores is not None else None,
            )
        )

    # --- events ------------------------------------------------------------------------

    def event_to_proto(self, event: Any) -> game_pb2.Event:
        e = pb.PinchedEvent
        match event:
            case ev.DayStarted(day=day, watch=watch, mastermind=mastermind):
                out = e(day_started=e.DayStarted(day=day, watch=watch, mastermind=mastermind))
            case ev.CardsDrawn(seat=seat, count=count, cards=drawn, reason=reason):
                out = e(
                    cards_drawn=e.CardsDrawn(
                        seat=seat,
                        count=count,
                        cards=_event_cards(drawn),
                        reason=_DRAW_REASONS[reason],
                    )
                )
            case ev.CardTaken(seat=seat, location=where, field=field, card=card):
                out = e(
                    card_taken=e.CardTaken(
                        seat=seat, location=_location(where), field=field, card=_event_card(card)
                    )
                )
            case ev.FieldRefilled(location=where, field=field, card=card):
                out = e(
                    field_refilled=e.FieldRefilled(
                        location=_location(where), field=field, card=_event_card(card)
                    )
                )
            case ev.DeckReshuffled(cards=count):
                out = e(deck_reshuffled=e.DeckReshuffled(cards=count))
            case ev.LocationChosen(seat=seat, location=where):
                out = e(location_chosen=e.LocationChosen(seat=seat, location=_location(where)))
            case ev.LocationsRevealed(choices=choices, heist=heist, present=present):
                out = e(
                    locations_revealed=e.LocationsRevealed(
                        choices=[_LOCATIONS[c] for c in choices],
                        heist=_LOCATIONS[heist],
                        present=present,
                    )
                )
            case ev.PassageUsed(seat=seat):
                out = e(passage_used=e.PassageUsed(seat=seat))
            case ev.CurseDrawn(seat=seat, curse=curse):
                out = e(curse_drawn=e.CurseDrawn(seat=seat, curse=_curse(curse)))
            case ev.CursePassed(from_seat=giver, to_seat=taker, curse=curse):
                out = e(
                    curse_passed=e.CursePassed(from_seat=giver, to_seat=taker, curse=_curse(curse))
                )
            case ev.CursesKept(seat=seat):
                out = e(curses_kept=e.CursesKept(seat=seat))
            case ev.VaultMoved(position=position, value=value):
                out = e(vault_moved=e.VaultMoved(position=position, value=value))
            case ev.DogTaken(seat=seat, dog=dog, from_seat=from_seat):
                out = e(dog_taken=e.DogTaken(seat=seat, dog=_DOGS[dog], from_seat=from_seat))
            case ev.DogUsed(seat=seat, dog=dog):
                out = e(dog_used=e.DogUsed(seat=seat, dog=_DOGS[dog]))
            case ev.TreasureTaken(seat=seat, treasure=treasure, points=points):
                out = e(
                    treasure_taken=e.TreasureTaken(
                        seat=seat, treasure=_TREASURES[treasure], points=points
                    )
                )
            case ev.LetterRead(seat=seat, location=where):
                out = e(letter_read=e.LetterRead(seat=seat, location=_location(where)))
            case ev.LetterOpened(location=where):
                out = e(letter_opened=e.LetterOpened(location=_LOCATIONS[where]))
            case ev.BankFailed():
                out = e(bank_failed=e.BankFailed())
            case ev.Stored(seat=seat, card=card, slot=slot):
                out = e(stored=e.Stored(seat=seat, card=_event_card(card), slot=slot))
            case ev.Sold(seat=seat, slot=slot, kind=kind, count=count, points=points):
                out = e(
                    sold=e.Sold(seat=seat, slot=slot, kind_index=kind, count=count, points=points)
                )
            case ev.Discarded(seat=seat, cards=cards):
                out = e(discarded=e.Discarded(seat=seat, cards=_event_cards(cards)))
            case ev.DayEnded(day=day, next_mastermind=mastermind, watch=watch):
                out = e(day_ended=e.DayEnded(day=day, next_mastermind=mastermind, watch=watch))
            case ev.GameEnded(scores=scores, winners=winners):
                out = e(
                    game_ended=e.GameEnded(
                        scores=[_score(score) for score in scores], winners=winners
                    )
                )
            case _:
                raise TypeError(f"not an event of Pinched!: {event!r}")
        return game_pb2.Event(pinched=out)


def _take(take: Take) -> pb.HeistTake:
    return pb.HeistTake(seat=take.seat, last=take.last)


def _score(score: ev.Score) -> pb.PinchedScore:
    return pb.PinchedScore(
        seat=score.seat,
        sold=score.sold,
        lisa_mona=score.lisa_mona,
        diamonds=score.diamonds,
        clues=score.clues,
        curses=score.curses,
        total=score.total,
        tiebreak=score.tiebreak,
    )


def _result(result: ev.GameEnded) -> pb.PinchedResult:
    return pb.PinchedResult(scores=[_score(s) for s in result.scores], winners=result.winners)
