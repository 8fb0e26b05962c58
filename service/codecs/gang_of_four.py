"""Gang of Four: engine values <-> ``referee.v1`` messages."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engines.gang_of_four import events as ev
from engines.gang_of_four.cards import DECK, Colour, GofCard
from engines.gang_of_four.combos import Kind
from engines.gang_of_four.model import (
    Direction,
    Exchange,
    GangOfFourConfig,
    HandResult,
    Phase,
)
from engines.gang_of_four.moves import GiveBack, Move, Pass, Play
from engines.gang_of_four.view import GangOfFourView
from referee.v1 import game_pb2
from referee.v1 import gang_of_four_pb2 as pb
from service.errors import BadRequest

_COLOURS = {
    Colour.GREEN: pb.GANG_OF_FOUR_COLOUR_GREEN,
    Colour.YELLOW: pb.GANG_OF_FOUR_COLOUR_YELLOW,
    Colour.RED: pb.GANG_OF_FOUR_COLOUR_RED,
    Colour.MULTICOLOURED: pb.GANG_OF_FOUR_COLOUR_MULTICOLOURED,
}
_COLOURS_BACK = {value: colour for colour, value in _COLOURS.items()}
_KINDS = {
    Kind.SINGLE: pb.GANG_OF_FOUR_COMBINATION_SINGLE,
    Kind.PAIR: pb.GANG_OF_FOUR_COMBINATION_PAIR,
    Kind.THREE_OF_A_KIND: pb.GANG_OF_FOUR_COMBINATION_THREE_OF_A_KIND,
    Kind.STRAIGHT: pb.GANG_OF_FOUR_COMBINATION_STRAIGHT,
    Kind.FLUSH: pb.GANG_OF_FOUR_COMBINATION_FLUSH,
    Kind.FULL_HOUSE: pb.GANG_OF_FOUR_COMBINATION_FULL_HOUSE,
    Kind.STRAIGHT_FLUSH: pb.GANG_OF_FOUR_COMBINATION_STRAIGHT_FLUSH,
    Kind.GANG: pb.GANG_OF_FOUR_COMBINATION_GANG,
}
_PHASES = {
    Phase.EXCHANGE: pb.GANG_OF_FOUR_PHASE_EXCHANGE,
    Phase.PLAY: pb.GANG_OF_FOUR_PHASE_PLAY,
    Phase.OVER: pb.GANG_OF_FOUR_PHASE_OVER,
}


def _direction(direction: Direction) -> pb.Direction.ValueType:
    if direction == Direction.CLOCKWISE:
        return pb.DIRECTION_CLOCKWISE
    return pb.DIRECTION_COUNTER_CLOCKWISE


def card_to_proto(card: GofCard) -> pb.GangOfFourCard:
    return pb.GangOfFourCard(value=card.value, colour=_COLOURS[card.colour], code=str(card))


def _cards(cards: Iterable[GofCard]) -> list[pb.GangOfFourCard]:
    return [card_to_proto(card) for card in cards]


def card_from_proto(card: pb.GangOfFourCard) -> GofCard:
    colour = _COLOURS_BACK.get(card.colour)
    if colour is None:
        raise BadRequest("CARD_COLOUR_MISSING", "a card needs its colour")
    made = GofCard(card.value, colour)
    if made not in _CARDS:
        raise BadRequest("UNKNOWN_CARD", f"there is no card {card.value} of that colour")
    return made


_CARDS = frozenset(DECK)


def _exchange(exchange: Exchange) -> pb.GangOfFourExchange:
    message = pb.GangOfFourExchange(
        loser=exchange.loser, winner=exchange.winner, given=card_to_proto(exchange.given)
    )
    if exchange.returned is not None:
        message.returned.CopyFrom(card_to_proto(exchange.returned))
    return message


def _result(result: HandResult) -> pb.GangOfFourHandResult:
    return pb.GangOfFourHandResult(
        hand=result.hand,
        winner=result.winner,
        cards_left=result.cards_left,
        points=result.points,
    )


class GangOfFourCodec:
    def options_from_proto(self, options: game_pb2.TableOptions) -> dict[str, object]:
        which = options.WhichOneof("game")
        if which is None:
            return {}
        if which != "gang_of_four":
            raise BadRequest("OPTIONS_FOR_OTHER_GAME", f"options for {which}, not gang_of_four")
        return {"auto_announce_last_card": options.gang_of_four.auto_announce_last_card}

    def options_to_proto(self, config: Any) -> game_pb2.TableOptions:
        assert isinstance(config, GangOfFourConfig)
        return game_pb2.TableOptions(
            gang_of_four=pb.GangOfFourOptions(
                auto_announce_last_card=config.auto_announce_last_card
            )
        )

    def move_from_proto(self, move: game_pb2.Move) -> Move:
        if move.WhichOneof("game") != "gang_of_four":
            raise BadRequest("MOVE_FOR_OTHER_GAME", "this game takes a `gang_of_four` move")
        action = move.gang_of_four.WhichOneof("action")
        if action == "play":
            play = move.gang_of_four.play
            cards = tuple(sorted(card_from_proto(card) for card in play.cards))
            return Play(cards, announce_last_card=play.announce_last_card)
        if action == "pass":
            return Pass()
        if action == "give_back":
            return GiveBack(card_from_proto(move.gang_of_four.give_back.card))
        raise BadRequest("MOVE_EMPTY", "the move names no action")

    def move_to_proto(self, move: Any) -> game_pb2.Move:
        m = pb.GangOfFourMove
        match move:
            case Play(cards=cards, announce_last_card=announce):
                action = m(play=m.Play(cards=_cards(cards), announce_last_card=announce))
            case Pass():
                action = m()
                getattr(action, "pass").SetInParent()  # `pass` is a Python keyword
            case GiveBack(card=card):
                action = m(give_back=m.GiveBack(card=card_to_proto(card)))
            case _:
                raise TypeError(f"not a move of Gang of Four: {move!r}")
        return game_pb2.Move(gang_of_four=action)

    def fill_view(self, view: Any, target: game_pb2.View) -> None:
        assert isinstance(view, GangOfFourView)
        message = pb.GangOfFourView(
            players=view.players,
            auto_announce_last_card=view.auto_announce_last_card,
            hand=view.hand,
            dealer=view.dealer,
            direction=_direction(view.direction),
            phase=_PHASES[view.phase],
            turn=view.turn,
            cards=_cards(view.cards),
            card_counts=view.card_counts,
            set_aside_count=view.set_aside_count,
            current=_cards(view.current),
            passed=view.passed,
            announced=view.announced,
            out=view.out,
            totals=view.totals,
            results=[_result(result) for result in view.results],
        )
        if view.current_kind is not None:
            message.current_kind = _KINDS[view.current_kind]
        if view.current_by is not None:
            message.current_by = view.current_by
        if view.must_include is not None:
            message.must_include.CopyFrom(card_to_proto(view.must_include))
        if view.exchange is not None:
            message.exchange.CopyFrom(_exchange(view.exchange))
        target.gang_of_four.CopyFrom(message)

    def event_to_proto(self, event: Any) -> game_pb2.Event:
        e = pb.GangOfFourEvent
        match event:
            case ev.HandDealt(hand=hand, seat=seat, cards=cards):
                out = e(hand_dealt=e.HandDealt(hand=hand, seat=seat, cards=_cards(cards)))
            case ev.HandStarted(hand=hand, dealer=dealer, direction=direction, leader=leader):
                out = e(
                    hand_started=e.HandStarted(
                        hand=hand, dealer=dealer, direction=_direction(direction), leader=leader
                    )
                )
            case ev.CardGiven(loser=loser, winner=winner, card=card):
                out = e(
                    card_given=e.CardGiven(loser=loser, winner=winner, card=card_to_proto(card))
                )
            case ev.CardReturned(winner=winner, loser=loser, card=card):
                out = e(
                    card_returned=e.CardReturned(
                        winner=winner, loser=loser, card=card_to_proto(card)
                    )
                )
            case ev.Played(seat=seat, cards=cards, kind=kind, cards_left=left):
                out = e(
                    played=e.Played(
                        seat=seat, cards=_cards(cards), kind=_KINDS[kind], cards_left=left
                    )
                )
            case ev.Passed(seat=seat):
                out = e(passed=e.Passed(seat=seat))
            case ev.TrickWon(winner=winner, leader=leader):
                out = e(trick_won=e.TrickWon(winner=winner, leader=leader))
            case ev.LastCardAnnounced(seat=seat):
                out = e(last_card_announced=e.LastCardAnnounced(seat=seat))
            case ev.LastCardForgotten(seat=seat):
                out = e(last_card_forgotten=e.LastCardForgotten(seat=seat))
            case ev.HandEnded(result=result, totals=totals):
                out = e(hand_ended=e.HandEnded(result=_result(result), totals=totals))
            case ev.GameEnded(winners=winners, totals=totals):
                out = e(game_ended=e.GameEnded(winners=winners, totals=totals))
            case _:
                raise TypeError(f"not an event of Gang of Four: {event!r}")
        return game_pb2.Event(gang_of_four=out)
