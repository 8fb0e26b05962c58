"""Pinched!: planted leaks; the judge (:mod:`pinched_leaks`) catches each kind.

Whole games are played with the engine (the drivers' policy: weighted random legal moves,
the mastermind sometimes alone where something hidden waits), and the messages of a
version are built as the referee sends them, through the codec. Into those, hidden things
are planted: another seat's hand card, the deck, a sealed location card, another seat's
curse, the unread letter, another seat's sold cards, the seed and the deck's order (and an
event is judged where it happened in its step). Each planted message alone must be flagged
as a leak, and the true messages must pass.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import pytest

from engines.base import replay
from engines.pinched import GAME
from engines.pinched import events as ev
from engines.pinched import moves as mv
from engines.pinched.model import Location, Phase, PinchedState, Side
from engines.pinched.setup import make_config
from referee.v1 import game_pb2, referee_pb2
from referee.v1 import pinched_pb2 as pb
from tests.pinched.pinched_driver import WEIGHTS, pass_curse, store
from tests.pinched.pinched_hidden_fields import PB_LOCATION
from tests.pinched.pinched_leak_games import CODEC, seed_for
from tests.pinched.pinched_leaks import check
from tests.pinched.pinched_received import Received, Viewer
from tests.pinched.pinched_truth import Events, Tracker, event_tag, truth_of
from tests.pinched.pinched_view_judge import Report


def _engine_move(state: PinchedState, seat: int, rng: random.Random) -> mv.Move:
    """The drivers' policy on the engine: weighted random legal moves, the mastermind
    sometimes alone where something hidden waits."""
    legal = GAME.legal_moves(state, seat)
    plans = [move for move in legal if isinstance(move, mv.ChooseLocation)]
    if plans and seat == state.mastermind and rng.random() < 0.5:
        letter = state.letter
        if letter is not None and seat in letter.seen_by and state.clues[seat]:
            return mv.ChooseLocation(letter.location)
        if state.side(Location.DIAMONDS) is Side.CROWN:
            return mv.ChooseLocation(Location.DIAMONDS)
    weights = [WEIGHTS.get(event_tag(move), 1) for move in legal]
    return rng.choices(legal, weights)[0]


@dataclass
class EngineGame:
    """A whole game played with the engine, to plant messages in."""

    seats: int
    setup: str
    seed: bytes
    states: list[PinchedState] = field(default_factory=list)
    events: list[Events] = field(default_factory=list)
    moves: list[tuple[int, mv.Move]] = field(default_factory=list)

    @classmethod
    def play(cls, seats: int, setup: str, name: str) -> EngineGame:
        game = cls(seats, setup, seed_for(name))
        config = make_config(seats, {"setup": setup})
        state = GAME.new_game(config, game.seed)
        rng = random.Random(name)
        while not state.finished:
            seat = rng.choice(sorted(GAME.to_act(state)))
            move = _engine_move(state, seat, rng)
            game.moves.append((seat, move))
            state, _ = GAME.apply(state, seat, move)
        initial, steps = replay(GAME, config, game.seed, game.moves)
        game.states, game.events = truth_of(initial, steps)
        return game

    def first(self, test: Callable[[int], bool]) -> int:
        """The first version for which ``test`` holds (it must hold for one)."""
        version = next((v for v in range(len(self.states)) if test(v)), None)
        assert version is not None, "the planted game never came there: pick another seed"
        return version

    def step_with(
        self, kind: type, test: Callable[[Any], bool] = lambda e: True
    ) -> tuple[int, Any]:
        for version, step in enumerate(self.events):
            for event in step:
                if isinstance(event, kind) and test(event):
                    return version, event
        raise AssertionError(f"no {kind.__name__}: pick another seed")

    def view(self, viewer: Viewer, version: int, **changes: Any) -> referee_pb2.GetViewResponse:
        """The true view (the engine's, through the codec), with ``changes`` planted."""
        view = game_pb2.View(game="pinched", version=version, seats=self.seats, seat=viewer)
        CODEC.fill_view(GAME.view(self.states[version], viewer), view)
        body: Any = view.pinched
        for name, value in changes.items():
            body.ClearField(name)
            if isinstance(value, list):
                getattr(body, name).extend(value)
            else:
                setattr(body, name, value)
        return referee_pb2.GetViewResponse(view=view)

    def events_to(
        self, viewer: Viewer, version: int, unredacted: Callable[[Any], bool] = lambda e: False
    ) -> list[game_pb2.Event]:
        """A step's events as the referee sends them to ``viewer``, except those picked by
        ``unredacted``, sent whole."""
        out = []
        for event in self.events[version]:
            seen = event if unredacted(event) else GAME.view_event(cast(ev.Event, event), viewer)
            out.append(CODEC.event_to_proto(seen))
        return out

    def reply(
        self, viewer: Viewer, version: int, unredacted: Callable[[Any], bool] = lambda e: False
    ) -> referee_pb2.SubmitMoveResponse:
        events = self.events_to(viewer, version, unredacted)
        return referee_pb2.SubmitMoveResponse(
            version=version, view=self.view(viewer, version).view, events=events
        )


@pytest.fixture(scope="module")
def planted_game() -> EngineGame:
    return EngineGame.play(4, "cursed_secrets", "planted/1")


def _judged(game: EngineGame, items: list[Received]) -> Report:
    return check(items, game.states, game.seed, game.events)


def assert_caught(game: EngineGame, planted: list[Received], fine: list[Received]) -> None:
    """Each planted message alone is flagged as a leak; the fine ones pass."""
    for item in planted:
        report = _judged(game, [item])
        assert report.leaks, f"{item.source}: not caught; {report}"
    passed = _judged(game, fine)
    assert not passed.problems, str(passed)


def _others(game: EngineGame, *seats: int) -> list[Viewer]:
    return [None, *(s for s in range(game.seats) if s not in seats)]


def test_the_judge_catches_another_seats_hand_card_and_the_deck(planted_game: EngineGame) -> None:
    game = planted_game
    tracker = Tracker(game.states, game.events)
    version, drawn = game.step_with(ev.CardsDrawn, lambda e: e.reason != "start" and e.cards)
    seat = drawn.seat
    # A card face down in a hand at the end of that step (else the next such version).
    hidden = game.first(lambda v: v >= version and any(s >= 0 for s in tracker.status(v, None)))
    status = tracker.status(hidden, None)
    card = next(c for c, s in enumerate(status) if s >= 0)
    holder = status[card]
    other = next(s for s in range(game.seats) if s != holder)
    deck_card = game.states[hidden].deck[0]
    river = [pb.OpenField(field=0, card=pb.Valuable(id=deck_card))]
    legal = referee_pb2.ListLegalMovesResponse(version=hidden, moves=[store(card, 0)])
    fake_hand = [pb.Valuable(id=c) for c in game.states[hidden].hands[other]] + [
        pb.Valuable(id=card)
    ]
    planted = [
        *(
            Received(v, version, f"draw-to-{v}", game.reply(v, version, lambda e: e is drawn))
            for v in _others(game, seat)
        ),
        Received(other, hidden, "hand-card-in-view", game.view(other, hidden, hand=fake_hand)),
        Received(
            None, hidden, "hand-card-to-spectator", game.view(None, hidden, hand=fake_hand[-1:])
        ),
        Received(other, hidden, "hand-card-in-legal-moves", legal),
        Received(other, hidden, "deck-card-on-the-river", game.view(other, hidden, river=river)),
        Received(
            other,
            hidden,
            "hand-card-in-text",
            referee_pb2.ValidateMoveResponse(
                version=hidden, message=f"seat {holder} has card {card}"
            ),
        ),
    ]
    fine = [
        Received(seat, version, "draw-to-drawer", game.reply(seat, version, lambda e: e is drawn)),
        *(
            Received(v, version, f"redacted-to-{v}", game.reply(v, version))
            for v in _others(game, seat)
        ),
        Received(holder, hidden, "own-hand", game.view(holder, hidden)),
        Received(
            holder,
            hidden,
            "own-store",
            referee_pb2.ListLegalMovesResponse(version=hidden, moves=[store(card, 0)]),
        ),
    ]
    assert_caught(game, planted, fine)


def test_the_judge_catches_a_sealed_location_card(planted_game: EngineGame) -> None:
    game = planted_game
    version, chosen = game.step_with(ev.LocationChosen)
    assert not any(isinstance(e, ev.LocationsRevealed) for e in game.events[version])
    seat, where = chosen.seat, chosen.location
    other = (seat + 1) % game.seats
    assert game.states[version].phase is Phase.PLAN
    entry = game_pb2.HistoryEntry(
        version=version,
        seat=seat,
        move=CODEC.move_to_proto(mv.ChooseLocation(where)),
        events=game.events_to(other, version),
    )
    sealed = [PB_LOCATION[c] if c is not None else 0 for c in game.states[version].choices]
    planted = [
        *(
            Received(v, version, f"chosen-to-{v}", game.reply(v, version, lambda e: e is chosen))
            for v in _others(game, seat)
        ),
        Received(
            other,
            version,
            "logged-move",
            referee_pb2.GetHistoryResponse(version=version, entries=[entry]),
        ),
        Received(other, version, "view-choices", game.view(other, version, choices=sealed)),
        Received(
            other,
            version,
            "view-my-choice",
            game.view(other, version, my_choice=PB_LOCATION[where]),
        ),
        Received(None, version, "view-heist", game.view(None, version, heist=PB_LOCATION[where])),
        Received(
            other,
            version,
            "choice-in-text",
            referee_pb2.ValidateMoveResponse(
                version=version, message=f"seat {seat} went to the {where}"
            ),
        ),
    ]
    own_entry = game_pb2.HistoryEntry(
        version=version,
        seat=seat,
        move=CODEC.move_to_proto(mv.ChooseLocation(where)),
        events=game.events_to(seat, version),
    )
    fine = [
        Received(seat, version, "own-choice", game.reply(seat, version)),
        Received(
            seat,
            version,
            "own-log",
            referee_pb2.GetHistoryResponse(version=version, entries=[own_entry]),
        ),
        *(
            Received(v, version, f"sealed-to-{v}", game.reply(v, version))
            for v in _others(game, seat)
        ),
    ]
    assert_caught(game, planted, fine)
    # Once the step reveals every card, the last chooser's move is no secret.
    revealed, _ = game.step_with(ev.LocationsRevealed)
    seat = game.moves[revealed - 1][0]
    last = game_pb2.HistoryEntry(
        version=revealed,
        seat=seat,
        move=CODEC.move_to_proto(game.moves[revealed - 1][1]),
        events=game.events_to(None, revealed),
    )
    response = referee_pb2.GetHistoryResponse(version=revealed, entries=[last])
    assert not _judged(game, [Received(None, revealed, "revealed-log", response)]).problems


def test_the_judge_catches_another_seats_curse(planted_game: EngineGame) -> None:
    game = planted_game
    version, drawn = game.step_with(ev.CurseDrawn)
    seat = drawn.seat
    other = (seat + 1) % game.seats
    curse = pb.Curse(id=drawn.curse.id, points=drawn.curse.points)
    planted: list[Received] = [
        *(
            Received(v, version, f"curse-to-{v}", game.reply(v, version, lambda e: e is drawn))
            for v in _others(game, seat)
        ),
        Received(other, version, "curse-in-view", game.view(other, version, curses=[curse])),
        Received(
            other,
            version,
            "curse-in-legal-moves",
            referee_pb2.ListLegalMovesResponse(version=version, moves=[pass_curse(curse.id, seat)]),
        ),
    ]
    fine = [
        Received(seat, version, "curse-to-drawer", game.reply(seat, version)),
        *(
            Received(v, version, f"curse-hidden-{v}", game.reply(v, version))
            for v in _others(game, seat)
        ),
    ]
    passed_at, passed = game.step_with(ev.CursePassed)
    pair = (passed.from_seat, passed.to_seat)
    third = _others(game, *pair)

    def log(viewer: Viewer) -> referee_pb2.GetHistoryResponse:
        """The curse passing's entry with the move, and the events as ``viewer``'s."""
        entry = game_pb2.HistoryEntry(
            version=passed_at,
            seat=passed.from_seat,
            move=CODEC.move_to_proto(mv.PassCurse(passed.curse.id, passed.to_seat)),
            events=game.events_to(viewer, passed_at),
        )
        return referee_pb2.GetHistoryResponse(version=passed_at, entries=[entry])

    planted += [
        *(
            Received(
                v, passed_at, f"passed-to-{v}", game.reply(v, passed_at, lambda e: e is passed)
            )
            for v in third
        ),
        Received(
            third[-1],
            passed_at,
            "passed-in-log",
            log(third[-1]),
        ),
    ]
    fine += [
        *(Received(v, passed_at, f"pair-{v}", game.reply(v, passed_at)) for v in pair),
        Received(
            pair[1],
            passed_at,
            "taker-log",
            log(pair[1]),
        ),
    ]
    assert_caught(game, planted, fine)


def test_the_judge_catches_the_unread_letter(planted_game: EngineGame) -> None:
    game = planted_game
    version, read = game.step_with(ev.LetterRead)
    letter = game.states[version].letter
    assert letter is not None and not letter.opened
    reader = read.seat
    other = (reader + 1) % game.seats
    assert other not in letter.seen_by
    where = PB_LOCATION[letter.location]
    planted = [
        Received(other, version, "letter-in-view", game.view(other, version, letter=where)),
        Received(None, version, "letter-to-spectator", game.view(None, version, letter=where)),
        *(
            Received(v, version, f"reading-to-{v}", game.reply(v, version, lambda e: e is read))
            for v in _others(game, reader)
        ),
        Received(
            other,
            version,
            "letter-in-text",
            referee_pb2.ValidateMoveResponse(
                version=version, message=f"the letter says {letter.location}"
            ),
        ),
    ]
    fine = [
        Received(reader, version, "reader", game.reply(reader, version)),
        *(
            Received(v, version, f"sealed-{v}", game.reply(v, version))
            for v in _others(game, reader)
        ),
        Received(
            reader, len(game.states) - 2, "reader-later", game.view(reader, len(game.states) - 2)
        ),
    ]
    assert_caught(game, planted, fine)


def test_the_judge_catches_another_seats_sold_cards(planted_game: EngineGame) -> None:
    game = planted_game
    version = game.first(lambda v: any(game.states[v].sold))
    seat = next(s for s, sold in enumerate(game.states[version].sold) if sold)
    other = (seat + 1) % game.seats
    sold = [pb.Valuable(id=c) for c in game.states[version].sold[seat]]
    planted = [
        Received(other, version, "sold-in-view", game.view(other, version, sold=sold)),
        Received(None, version, "sold-to-spectator", game.view(None, version, sold=sold)),
    ]
    fine = [Received(seat, version, "own-sold", game.view(seat, version))]
    assert_caught(game, planted, fine)


def test_the_judge_catches_the_seed_and_the_deck_order(planted_game: EngineGame) -> None:
    game = planted_game
    version = game.first(lambda v: v > 10 and len(game.states[v].deck) >= 5)
    deck = list(game.states[version].deck[:5])
    view = game.view(0, version)
    view.view.to_act[:] = deck  # a packed list of ints: the deck's next cards in order
    planted = [
        Received(
            0, version, "seed", referee_pb2.GetHistoryResponse(version=version, seed=game.seed)
        ),
        Received(
            1,
            version,
            "seed-hex",
            referee_pb2.ValidateMoveResponse(version=version, message=game.seed.hex()),
        ),
        Received(2, version, "deck-order", view),
    ]
    end = len(game.states) - 1
    fine = [
        Received(
            0, end, "seed-at-the-end", referee_pb2.GetHistoryResponse(version=end, seed=game.seed)
        ),
    ]
    assert_caught(game, planted, fine)


def test_the_judge_judges_each_event_where_it_happened() -> None:
    """A step that discards face up and then reshuffles the discards into the deck: its
    Discarded event rightly names cards that lie in the deck at the end of the step (they
    were open when discarded); the same card named after the step is a leak."""
    # Four seats: random three-seat games rarely run the 108-card deck dry; under rules
    # revision 2 the discards go back only at the end of a day (this seed gets there).
    game = EngineGame.play(4, "basic", "basic-4/47")

    def discards_then_reshuffles(version: int) -> bool:
        kinds = [type(event) for event in game.events[version]]
        both = ev.Discarded in kinds and ev.DeckReshuffled in kinds
        return both and kinds.index(ev.Discarded) < kinds.index(ev.DeckReshuffled)

    version = game.first(discards_then_reshuffles)
    step = game.events[version]
    discarded = next(event for event in step if isinstance(event, ev.Discarded))
    card = next(c for c in discarded.cards if c in game.states[version].deck)
    shown = [pb.Valuable(id=card)]
    planted = [
        Received(1, version, "reshuffled-in-view", game.view(1, version, discard=shown)),
    ]
    fine = [Received(v, version, f"step-to-{v}", game.reply(v, version)) for v in [None, *range(4)]]
    assert_caught(game, planted, fine)


def test_the_planted_game_has_every_hidden_part(planted_game: EngineGame) -> None:
    """The engine game the leaks are planted in is itself judged clean: every seat's and
    the spectator's true messages of every version."""
    game = planted_game
    items: list[Received] = []
    for version in range(len(game.states)):
        for viewer in [None, *range(game.seats)]:
            items.append(Received(viewer, version, "watch", game.reply(viewer, version)))
    report = _judged(game, items)
    assert not report.problems, str(report)
    for kind in ("cards_drawn", "location_chosen", "letter_read", "curse_drawn", "curse_passed"):
        assert report.private_seen[kind] and report.private_seen[f"hidden:{kind}"], kind
    assert Phase.PLAN in {state.phase for state in game.states}
