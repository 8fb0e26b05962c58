"""The Gang: engine values <-> ``referee.v1`` messages."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

from engines.cards import DECK, Card, Suit
from engines.the_gang import events as ev
from engines.the_gang.model import Colour, HeistResult, TheGangConfig
from engines.the_gang.moves import ConfirmRoundEnd, Move, ReturnChip, TakeChip
from engines.the_gang.view import TheGangView
from referee.v1 import game_pb2, the_gang_pb2
from service.errors import BadRequest

_SUITS = {
    Suit.CLUBS: the_gang_pb2.SUIT_CLUBS,
    Suit.DIAMONDS: the_gang_pb2.SUIT_DIAMONDS,
    Suit.HEARTS: the_gang_pb2.SUIT_HEARTS,
    Suit.SPADES: the_gang_pb2.SUIT_SPADES,
}
_COLOURS = {
    Colour.WHITE: the_gang_pb2.CHIP_COLOUR_WHITE,
    Colour.YELLOW: the_gang_pb2.CHIP_COLOUR_YELLOW,
    Colour.ORANGE: the_gang_pb2.CHIP_COLOUR_ORANGE,
    Colour.RED: the_gang_pb2.CHIP_COLOUR_RED,
}
_COLOURS_BACK = {value: colour for colour, value in _COLOURS.items()}

Pb = the_gang_pb2


def _card_message(card: Card) -> Pb.PlayingCard:
    suit = _SUITS[card.suit] if card.suit is not None else the_gang_pb2.SUIT_UNSPECIFIED
    return Pb.PlayingCard(rank=card.rank, suit=suit, code=str(card))


_CARD_MESSAGES = {card: _card_message(card) for card in DECK}


def card_to_proto(card: Card) -> Pb.PlayingCard:
    """The card's message; shared instances (protobuf copies them into any parent)."""
    message = _CARD_MESSAGES.get(card)
    return message if message is not None else _card_message(card)


def _cards(cards: Iterable[Card]) -> list[Pb.PlayingCard]:
    return [card_to_proto(card) for card in cards]


def _colour(value: int) -> Colour:
    try:
        return _COLOURS_BACK[value]  # type: ignore[index]
    except KeyError:
        raise BadRequest("CHIP_COLOUR_MISSING", "a chip needs a colour") from None


def _chip_rows(rows: Sequence[Sequence[int | None]]) -> list[Pb.ChipRow]:
    out = []
    for index, row in enumerate(rows):
        colour = _COLOURS[Colour(index)]
        chips = [
            Pb.Chip(colour=colour, stars=stars, holder=holder)
            if holder is not None
            else Pb.Chip(colour=colour, stars=stars)
            for stars, holder in enumerate(row, start=1)
        ]
        out.append(Pb.ChipRow(colour=colour, chips=chips))
    return out


@functools.lru_cache(maxsize=2048)
def heist_to_proto(result: HeistResult) -> Pb.HeistResult:
    """A finished heist never changes, and every later view repeats it: built once."""
    reveals = [
        Pb.Reveal(
            seat=r.seat,
            red_stars=r.red_stars,
            pocket=_cards(r.pocket),
            hand=r.category,  # type: ignore[arg-type]
            best_five=_cards(r.best),
            description=r.description,
            in_order=r.in_order,
        )
        for r in result.reveals
    ]
    rows = [
        Pb.ChipRow(
            colour=_COLOURS[Colour(index)],
            chips=[
                Pb.Chip(colour=_COLOURS[Colour(index)], stars=stars, holder=seat)
                for stars, seat in enumerate(holders, start=1)
            ],
        )
        for index, holders in enumerate(result.chips)
    ]
    return Pb.HeistResult(
        heist=result.heist,
        success=result.success,
        board=_cards(result.board),
        reveals=reveals,
        chips=rows,
    )


class TheGangCodec:
    def options_from_proto(self, options: game_pb2.TableOptions) -> dict[str, object]:
        which = options.WhichOneof("game")
        if which is None:
            return {}
        if which != "the_gang":
            raise BadRequest("OPTIONS_FOR_OTHER_GAME", f"options for {which}, not the_gang")
        return {"confirm_round_end": options.the_gang.confirm_round_end}

    def options_to_proto(self, config: Any) -> game_pb2.TableOptions:
        assert isinstance(config, TheGangConfig)
        return game_pb2.TableOptions(
            the_gang=Pb.TheGangOptions(confirm_round_end=config.confirm_round_end)
        )

    def move_from_proto(self, move: game_pb2.Move) -> Move:
        if move.WhichOneof("game") != "the_gang":
            raise BadRequest("MOVE_FOR_OTHER_GAME", "this game takes a `the_gang` move")
        action = move.the_gang.WhichOneof("action")
        if action == "take_chip":
            take = move.the_gang.take_chip
            return TakeChip(_colour(take.colour), take.stars)
        if action == "return_chip":
            back = move.the_gang.return_chip
            return ReturnChip(_colour(back.colour), back.stars)
        if action == "confirm_round_end":
            return ConfirmRoundEnd()
        raise BadRequest("MOVE_EMPTY", "the move names no action")

    def move_to_proto(self, move: Any) -> game_pb2.Move:
        match move:
            case TakeChip(colour=colour, stars=stars):
                action = Pb.TheGangMove(
                    take_chip=Pb.TheGangMove.TakeChip(colour=_COLOURS[colour], stars=stars)
                )
            case ReturnChip(colour=colour, stars=stars):
                action = Pb.TheGangMove(
                    return_chip=Pb.TheGangMove.ReturnChip(colour=_COLOURS[colour], stars=stars)
                )
            case ConfirmRoundEnd():
                action = Pb.TheGangMove(confirm_round_end=Pb.TheGangMove.ConfirmRoundEnd())
            case _:
                raise TypeError(f"not a move of The Gang: {move!r}")
        return game_pb2.Move(the_gang=action)

    def fill_view(self, view: Any, target: game_pb2.View) -> None:
        assert isinstance(view, TheGangView)
        target.the_gang.CopyFrom(
            Pb.TheGangView(
                players=view.players,
                confirm_round_end=view.confirm_round_end,
                heist=view.heist,
                round=_COLOURS[view.round],
                vaults=view.vaults,
                alarms=view.alarms,
                vaults_to_win=view.vaults_to_win,
                alarms_to_lose=view.alarms_to_lose,
                board=_cards(view.board),
                pocket=_cards(view.pocket),
                chips=_chip_rows(view.chips),
                confirmed_seats=view.confirmed,
                deck_size=view.deck_size,
                heists=[heist_to_proto(h) for h in view.history],
            )
        )

    def event_to_proto(self, event: Any) -> game_pb2.Event:
        e = Pb.TheGangEvent
        match event:
            case ev.PocketDealt(heist=heist, seat=seat, cards=cards):
                out = e(pocket_dealt=e.PocketDealt(heist=heist, seat=seat, cards=_cards(cards)))
            case ev.BoardDealt(cards=cards):
                out = e(board_dealt=e.BoardDealt(cards=_cards(cards)))
            case ev.RoundStarted(heist=heist, colour=colour):
                out = e(round_started=e.RoundStarted(heist=heist, colour=_COLOURS[colour]))
            case ev.ChipTaken(seat=seat, colour=colour, stars=stars, from_seat=from_seat):
                out = e(
                    chip_taken=e.ChipTaken(
                        seat=seat, colour=_COLOURS[colour], stars=stars, from_seat=from_seat
                    )
                )
            case ev.ChipReturned(seat=seat, colour=colour, stars=stars):
                out = e(
                    chip_returned=e.ChipReturned(seat=seat, colour=_COLOURS[colour], stars=stars)
                )
            case ev.RoundEndConfirmed(seat=seat):
                out = e(round_end_confirmed=e.RoundEndConfirmed(seat=seat))
            case ev.RoundEnded(heist=heist, colour=colour):
                out = e(round_ended=e.RoundEnded(heist=heist, colour=_COLOURS[colour]))
            case ev.HeistEnded(result=result, vaults=vaults, alarms=alarms):
                out = e(
                    heist_ended=e.HeistEnded(
                        result=heist_to_proto(result), vaults=vaults, alarms=alarms
                    )
                )
            case ev.GameEnded(won=won):
                out = e(game_ended=e.GameEnded(won=won))
            case _:
                raise TypeError(f"not an event of The Gang: {event!r}")
        return game_pb2.Event(the_gang=out)
