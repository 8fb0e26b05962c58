"""The Gang: planted leaks; the checker (:mod:`leakcheck`) catches each kind.

The base game: another seat's card, the deck, the seed and a wrong pocket planted in
messages of a replayed game. The modes, on games played with the engine directly (an
all-seeing gang): an Informant card shown to a third seat, a sealed pass or a face-down
discard shown to another seat, the Con Artist's first pockets, the Jack card before it is
taken, and a card said of the wrong heist. Each planted message must be flagged as a leak,
and the true messages must pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.base import replay
from engines.cards import Card
from engines.poker import evaluate
from engines.the_gang import GAME
from engines.the_gang import events as ev
from engines.the_gang import moves as mv
from engines.the_gang.model import (
    JACK_CARD,
    RULES_REVISION,
    Colour,
    Mode,
    PileStart,
    Specialist,
    TheGangConfig,
    TheGangState,
    UseSpecialist,
)
from engines.the_gang.moves import Accept, DiscardCard, PassCard, Propose, ShowCard, TakeChip
from referee.codecs.the_gang import card_to_proto
from referee.v1 import game_pb2, referee_pb2, the_gang_pb2
from tests.the_gang.leakcheck import Events, Received, Report, Viewer, check, truth_of
from tests.the_gang.the_gang_leak_games import CODEC, seed_for

Pb = the_gang_pb2


def _gang_event(**kind: Any) -> game_pb2.Event:
    return game_pb2.Event(the_gang=the_gang_pb2.TheGangEvent(**kind))


def board_event(card: Card) -> game_pb2.Event:
    return _gang_event(board_dealt=Pb.TheGangEvent.BoardDealt(cards=[card_to_proto(card)]))


def _view_of(
    state: TheGangState, seat: Viewer, version: int, **changes: Any
) -> referee_pb2.GetViewResponse:
    """The true view of ``seat`` at ``state`` (the engine's), with ``changes`` planted."""
    view = game_pb2.View(seat=seat, version=version)
    CODEC.fill_view(GAME.view(state, seat), view)
    body: Any = view.the_gang  # fields named at run time
    for name, value in changes.items():
        body.ClearField(name)
        if isinstance(value, list):
            getattr(body, name).extend(value)
        else:
            getattr(body, name).CopyFrom(value)
    return referee_pb2.GetViewResponse(view=view)


def _flagged(report: Report, source: str) -> bool:
    return any(f"{source} to" in problem for problem in report.problems)


def test_the_checker_catches_a_planted_leak() -> None:
    """The detector itself: another seat's card, the deck, the seed and a wrong pocket."""
    config = TheGangConfig(players=3)
    seed = seed_for("planted")
    initial, steps = replay(GAME, config, seed, [(0, TakeChip(Colour.WHITE, 1))])
    states, events = truth_of(initial, steps)
    other: Card = initial.pockets[1][0]
    deck_card: Card = initial.deck[0]

    planted = [
        Received(0, 0, "planted", board_event(other)),
        Received(None, 1, "planted", board_event(initial.pockets[0][1])),
        Received(2, 0, "planted", board_event(deck_card)),
        Received(
            0, 0, "planted-text", referee_pb2.ValidateMoveResponse(message=f"seat 1 holds {other}")
        ),
        Received(0, 0, "planted-seed", referee_pb2.GetHistoryResponse(seed=seed)),
        Received(
            1,
            0,
            "planted-view",
            referee_pb2.GetViewResponse(
                view=game_pb2.View(
                    seat=1,
                    the_gang=the_gang_pb2.TheGangView(
                        pocket=[card_to_proto(c) for c in initial.pockets[0]]
                    ),
                )
            ),
        ),
    ]
    report = check(planted, states, seed, events)
    assert len(report.problems) >= len(planted), str(report)
    for item in planted:
        assert _flagged(report, item.source), item.source
    fine = check([Received(0, 0, "fine", board_event(initial.pockets[0][0]))], states, seed)
    assert not fine.problems, str(fine)


# --- planted leaks of the modes, on games played with the engine --------------------------


def _gang_move(state: TheGangState, win: bool) -> tuple[int, mv.Move]:
    """An all-seeing gang's chip move: anyone without a chip takes a free one; the red
    chips in the true order of the hands (reversed to lose)."""
    row = state.chips[state.round]
    players = state.config.players
    if state.round == Colour.RED:
        keys = [evaluate((*state.pockets[s], *state.board)) for s in range(players)]
        order = sorted(range(players), key=lambda seat: (keys[seat], seat))
        if not win:
            order.reverse()
        seat = next(s for s in range(players) if row[order.index(s)] != s)
        return seat, TakeChip(Colour.RED, order.index(seat) + 1)
    seat = next(s for s in range(players) if s not in row)
    return seat, TakeChip(state.round, row.index(None) + 1)


@dataclass
class EngineGame:
    """A game played with the engine directly, with its moves, to plant messages in."""

    config: TheGangConfig
    seed: bytes
    moves: list[tuple[int, mv.Move]] = field(default_factory=list)

    @property
    def state(self) -> TheGangState:
        return self.truth()[0][-1]

    def truth(self) -> tuple[list[TheGangState], list[Events]]:
        initial, steps = replay(GAME, self.config, self.seed, self.moves)
        return truth_of(initial, steps)

    def move(self, seat: int, move: mv.Move) -> int:
        """Apply ``move``; the version it makes."""
        self.moves.append((seat, move))
        return len(self.moves)

    def play_heist(self, win: bool) -> None:
        state = self.state
        heist = state.heist
        while state.heist == heist and not state.finished:
            self.moves.append(_gang_move(state, win))
            state, _ = GAME.apply(state, *self.moves[-1])


def specialist_heist(specialist: Specialist, players: int = 3) -> EngineGame:
    """An Advanced game whose heist 2 has ``specialist`` (heist 1 lost)."""
    rest = tuple(card for card in range(1, 11) if card != specialist)
    config = TheGangConfig(
        players=players,
        mode=Mode.ADVANCED,
        specialist_pile=PileStart(cards=(int(specialist), *rest)),
    )
    game = EngineGame(config, seed_for(f"planted-{specialist.name}"))
    game.play_heist(win=False)
    assert game.state.specialist is specialist
    return game


def _use(game: EngineGame, decided: UseSpecialist) -> int:
    """Every seat agrees on ``decided``; the version at which it took effect."""
    version = game.move(0, Propose(decided))
    for seat in range(1, game.config.players):
        version = game.move(seat, Accept(game.state.proposals[0].id))
    assert game.state.specialist_use == decided
    return version


def _proto(card: Card) -> Pb.PlayingCard:
    return card_to_proto(card)


def _judge(game: EngineGame, planted: list[Received], fine: list[Received]) -> None:
    """Each planted message is flagged, as a leak, and the fine ones pass."""
    states, events = game.truth()
    for item in planted:
        report = check([item], states, game.seed, events)
        assert report.problems, item.source
        assert all("LEAK" in p or "my_pass" in p for p in report.problems), str(report)
    passed = check(fine, states, game.seed, events)
    assert not passed.problems, str(passed)


def test_the_checker_catches_an_informant_card_to_a_third_seat() -> None:
    game = specialist_heist(Specialist.INFORMANT)
    _use(game, UseSpecialist(0, viewer=1))
    shown = game.state.pockets[0][1]
    version = game.move(0, ShowCard(shown))
    said = Pb.Announcement(
        kind=Pb.Announcement.KIND_INFORMANT, seat=0, to_seat=1, card=_proto(shown)
    )
    event = _gang_event(announced=Pb.TheGangEvent.Announced(announcement=said))
    _judge(
        game,
        planted=[
            Received(2, version, "event-to-third-seat", event),
            Received(None, version, "event-to-spectator", event),
            Received(
                2,
                version,
                "view-of-third-seat",
                _view_of(game.state, 2, version, announcements=[said]),
            ),
        ],
        fine=[Received(seat, version, "to-the-two", event) for seat in (0, 1)],
    )
    # The view of the seat shown the card must carry it.
    states, events = game.truth()
    blank = Pb.Announcement(kind=Pb.Announcement.KIND_INFORMANT, seat=0, to_seat=1)
    missing = check(
        [
            Received(
                1,
                version,
                "view-without",
                _view_of(game.state, 1, version, announcements=[blank]),
            )
        ],
        states,
        game.seed,
        events,
    )
    assert any("Informant" in problem for problem in missing.problems), str(missing)


def test_the_checker_catches_a_sealed_pass_shown_to_another_seat() -> None:
    game = specialist_heist(Specialist.COORDINATOR)
    chosen = game.state.pockets[0][0]
    version = game.move(0, PassCard(chosen))
    sealed = _gang_event(pass_chosen=Pb.TheGangEvent.PassChosen(seat=0, card=_proto(chosen)))
    _judge(
        game,
        planted=[
            Received(1, version, "pass-to-neighbour", sealed),
            Received(None, version, "pass-to-spectator", sealed),
            Received(
                1,
                version,
                "my-pass-of-another",
                _view_of(game.state, 1, version, my_pass=_proto(chosen)),
            ),
        ],
        fine=[
            Received(0, version, "own-pass", sealed),
            Received(0, version, "own-view", _view_of(game.state, 0, version)),
        ],
    )
    # Once every seat has passed, the card is the left neighbour's (and still the giver's
    # knowledge) but not the third seat's.
    for seat in (1, 2):
        version = game.move(seat, PassCard(game.state.pockets[seat][0]))
    assert chosen in game.state.pockets[1]
    landed = _gang_event(
        card_passed=Pb.TheGangEvent.CardPassed(from_seat=0, to_seat=1, card=_proto(chosen))
    )
    _judge(
        game,
        planted=[Received(2, version, "passed-card-to-third-seat", landed)],
        fine=[Received(seat, version, "passed-card-to-the-two", landed) for seat in (0, 1)],
    )


def test_the_checker_catches_a_face_down_discard_shown_to_another_seat() -> None:
    game = specialist_heist(Specialist.HACKER)
    drawn = game.state.deck[0]
    version = game.move(0, Propose(UseSpecialist(0)))
    for seat in (1, 2):
        version = game.move(seat, Accept(game.state.proposals[0].id))
    assert drawn in game.state.pockets[0]
    draw = _gang_event(card_drawn=Pb.TheGangEvent.CardDrawn(seat=0, card=_proto(drawn)))
    _judge(
        game,
        planted=[Received(1, version, "drawn-card-to-another", draw)],
        fine=[Received(0, version, "drawn-card-to-drawer", draw)],
    )
    gone = game.state.pockets[0][0]
    version = game.move(0, DiscardCard(gone))
    assert gone in game.state.discards
    face_down = _gang_event(card_discarded=Pb.TheGangEvent.CardDiscarded(seat=0, card=_proto(gone)))
    _judge(
        game,
        planted=[
            Received(2, version, "discard-to-another", face_down),
            Received(None, version, "discard-to-spectator", face_down),
            Received(
                2, version, "discard-text", referee_pb2.ValidateMoveResponse(message=str(gone))
            ),
        ],
        # The seat that held it still knows it, later in the heist too.
        fine=[Received(0, version, "discard-to-its-seat", face_down)],
    )


def test_the_checker_knows_the_con_artists_first_pockets() -> None:
    game = specialist_heist(Specialist.CON_ARTIST)
    states, events = game.truth()
    version = len(states) - 1
    dealt = [e for e in events[version] if isinstance(e, ev.PocketDealt) and e.seat == 0]
    assert len(dealt) == 2, "the Con Artist deals twice inside the step"
    first, now = dealt[0].cards, states[version].pockets[0]
    gone = [card for card in first if card not in now]
    assert gone, "this seed gives seat 0 the same pocket again: pick another"
    elsewhere = next(seat for seat in (1, 2) if gone[0] in states[version].pockets[seat])
    third = 3 - elsewhere
    earlier = _gang_event(
        pocket_dealt=Pb.TheGangEvent.PocketDealt(heist=2, seat=0, cards=[_proto(gone[0])])
    )
    later = game.move(*_gang_move(game.state, win=False))  # still heist 2
    _judge(
        game,
        planted=[Received(third, version, "first-pocket-to-another", earlier)],
        fine=[
            Received(0, version, "first-pocket-to-its-seat", earlier),
            Received(0, later, "first-pocket-to-its-seat-later", board_event(gone[0])),
        ],
    )


def test_the_checker_treats_the_jack_card_as_public_once_taken() -> None:
    game = specialist_heist(Specialist.JACK)
    before = len(game.moves)
    taken = _use(game, UseSpecialist(1))
    assert JACK_CARD in game.state.pockets[1]
    jack = board_event(JACK_CARD)
    _judge(
        game,
        planted=[Received(0, before, "jack-before-it-is-taken", jack)],
        fine=[Received(viewer, taken, "jack-held", jack) for viewer in (None, 0, 1, 2)],
    )


def _redacted(events: Events, viewer: Viewer) -> list[game_pb2.Event]:
    """The events as the referee would send them to ``viewer`` (the engine's redaction)."""
    seen = (GAME.view_event(event, viewer) for event in events)  # type: ignore[arg-type]
    return [CODEC.event_to_proto(event) for event in seen if event is not None]


def test_the_checker_judges_what_a_step_says_of_the_heist_it_ended() -> None:
    """The Informant's card shown by the move that ends the heist: the step also deals the
    next heist, yet the card is the two seats' (and the shower's move log's) to see, judged
    by the heist it was shown in (whose showdown, in the same step, shows it to everyone);
    the same card said after HeistEnded, of the new heist, is a leak."""
    game = specialist_heist(Specialist.INFORMANT)
    while game.state.round != Colour.RED:
        game.move(*_gang_move(game.state, win=False))
    _use(game, UseSpecialist(0, viewer=1))
    while None in game.state.chips[Colour.RED]:
        game.move(*_gang_move(game.state, win=False))
    assert game.state.heist == 2, "the pending card keeps the heist open"
    shown = game.state.pockets[0][0]
    version = game.move(0, ShowCard(shown))
    states, events = game.truth()
    assert states[version].heist == 3
    assert shown not in states[version].pockets[1], "seat 1 holds it again: pick another seed"
    step = events[version]
    cut = next(i for i, event in enumerate(step) if isinstance(event, ev.HeistEnded))
    assert any(isinstance(event, ev.Announced) for event in step[:cut])

    def answer(viewer: int, events: list[game_pb2.Event]) -> referee_pb2.SubmitMoveResponse:
        return referee_pb2.SubmitMoveResponse(version=version, events=events)

    entry = game_pb2.HistoryEntry(
        version=version, seat=0, move=CODEC.move_to_proto(ShowCard(shown)), events=[]
    )
    to_one = _redacted(step, 1)
    said = next(e for e in to_one if e.the_gang.HasField("announced"))
    assert said.the_gang.announced.announcement.card.code == str(shown)
    moved = [e for e in to_one if e is not said]
    ended = next(i for i, e in enumerate(moved) if e.the_gang.HasField("heist_ended"))
    moved.insert(ended + 1, said)  # now behind HeistEnded: said of heist 3
    _judge(
        game,
        planted=[
            Received(1, version, "shown-card-said-of-the-new-heist", answer(1, moved)),
        ],
        fine=[
            *(Received(s, version, f"step-to-{s}", answer(s, _redacted(step, s))) for s in (0, 1)),
            Received(0, version, "logged-move", referee_pb2.GetHistoryResponse(entries=[entry])),
        ],
    )


def test_the_checker_accepts_the_reveal_only_in_a_finished_view() -> None:
    """After the end everything is public: a finished view reveals the deck (and the
    checker demands the true one); the same reveal one version earlier is a leak."""
    game = EngineGame(
        TheGangConfig(players=3, rules_revision=RULES_REVISION), seed_for("planted-reveal")
    )
    while not game.state.finished:
        game.play_heist(win=True)
    states, _ = game.truth()
    end = len(states) - 1
    final, before = states[end], states[end - 1]
    deck = [_proto(card) for card in before.deck]
    _judge(
        game,
        planted=[
            Received(
                0, end - 1, "revealed-early", _view_of(before, 0, end - 1, revealed_deck=deck)
            ),
            Received(
                None,
                end - 1,
                "revealed-early-spectator",
                _view_of(before, None, end - 1, revealed_deck=deck[:1]),
            ),
        ],
        fine=[Received(seat, end, "finished", _view_of(final, seat, end)) for seat in (None, 0)],
    )
    wrong = _view_of(final, 1, end, revealed_deck=[_proto(card) for card in final.deck[1:]])
    report = check([Received(1, end, "wrong-reveal", wrong)], states, game.seed)
    assert any("revealed_deck" in problem for problem in report.problems), str(report)
