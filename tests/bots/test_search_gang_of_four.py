"""Gang of Four's search model: its samples are tables the seat cannot tell from the truth.

Rules quoted from shared/RULES-NOTES.md (Gang of Four) and the seed (shared/seeds/003_*).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import msgspec.structs
import pytest

from engines.gang_of_four import GAME, GangOfFourState
from engines.gang_of_four.cards import DECK, GofCard, cards
from engines.gang_of_four.model import Phase
from engines.gang_of_four.moves import Move, Pass, Play
from referee.codecs import CODECS
from referee.search.core import Budget
from referee.search.gang_of_four import (
    GangOfFourModel,
    GangOfFourSearchBot,
    candidates,
    deal_for,
    first_sight,
    heuristic_move,
    win_chances,
)
from referee.v1 import game_pb2

TABLES = [(3, False), (4, False), (4, True), (3, True)]


def _move(state: GangOfFourState, seat: int, rng: random.Random) -> Move:
    """Mostly the heuristic, sometimes any legal move (forgotten announcements included)."""
    if rng.random() < 0.2:
        return rng.choice(GAME.legal_moves(state, seat))
    return heuristic_move(state, seat, rng)


def _states(players: int, auto: bool, seed: int, moves: int) -> Iterator[GangOfFourState]:
    """The states of one game played by ``_move`` for up to ``moves`` moves."""
    options = {"auto_announce_last_card": True} if auto else {}
    state = GAME.new_game(GAME.make_config(players, options), b"search-%d" % seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.phase is Phase.OVER:
            return
        yield state
        (seat,) = GAME.to_act(state)
        state, _ = GAME.apply(state, seat, _move(state, seat, rng))
    yield state


def _hidden(state: GangOfFourState, seat: int) -> Counter[GofCard]:
    found: Counter[GofCard] = Counter(state.set_aside)
    for other, hand in enumerate(state.hands):
        if other != seat:
            found.update(hand)
    return found


def _play_out(model: GangOfFourModel, state: GangOfFourState, rng: random.Random) -> None:
    """A playout from a sample reaches the hand's end by legal moves only."""
    root = state
    for _ in range(400):
        if model.horizon(state, root):
            rewards = model.rewards(state, root)
            assert len(rewards) == state.config.players
            assert all(0.0 <= reward <= 1.0 for reward in rewards)
            return
        seat = model.next_actor(state, rng)
        assert seat in GAME.to_act(state)
        move = model.playout_move(state, seat, rng)
        assert move in GAME.legal_moves(state, seat)
        state, _ = GAME.apply(state, seat, move)
    pytest.fail("a playout did not reach the end of the hand")


@pytest.mark.parametrize(("players", "auto"), TABLES)
def test_a_sample_shows_the_seat_exactly_its_view(players: int, auto: bool) -> None:
    """Notes 1: "3 players get 16 each and 16 stay hidden"; only the seat's own hand is
    shown. A sample keeps every public thing (its view is equal to the real one), deals the
    hidden cards from the deck less what the seat sees (own hand, the play on the table),
    and plays on legally."""
    rng = random.Random(players)
    checked = 0
    for seed in range(4):
        for number, state in enumerate(_states(players, auto, seed, 400)):
            if number % 7 and state.phase is not Phase.EXCHANGE:
                continue
            for seat in range(players):
                shown = GAME.view(state, seat)
                sample = GangOfFourModel().sample(shown, seat, rng)
                assert GAME.view(sample, seat) == shown
                hidden = _hidden(sample, seat)
                assert sum(hidden.values()) == sum(_hidden(state, seat).values())
                rest = Counter(DECK) - Counter(shown.cards) - Counter(shown.current)
                assert hidden <= rest, "a sample holds only cards the seat cannot place"
                assert GAME.to_act(sample) == GAME.to_act(state)
                (actor,) = GAME.to_act(sample)
                assert GAME.legal_moves(sample, actor)
                checked += 1
            if number % 21 == 0:
                _play_out(GangOfFourModel(), GangOfFourModel().sample(shown, seat, rng), rng)
    assert checked > 150


@pytest.mark.parametrize(("players", "auto"), TABLES)
def test_the_truth_is_always_among_the_samples(players: int, auto: bool) -> None:
    """What a seat remembers (its own plays, the plays it found on the table at its turns)
    and what the exchange shows (notes 7: "gives his highest card to the winner, who gives
    back any card; both cards are shown") never rule the real table out: the real hidden
    hands fit the deal the model draws from, the loser's ceiling included."""
    for seed in range(4):
        model = GangOfFourModel()
        for state in _states(players, auto, 100 + seed, 600):
            if state.phase is Phase.OVER:
                break
            (seat,) = GAME.to_act(state)
            deal = model.deal(GAME.view(state, seat), seat)
            for other, hand in enumerate(state.hands):
                if other == seat:
                    continue
                assert Counter(deal.fixed[other]) <= Counter(hand)
                assert len(hand) == len(deal.fixed[other]) + deal.missing[other]
                if other == deal.capped and deal.cap is not None:
                    free = Counter(hand) - Counter(deal.fixed[other])
                    free -= Counter([deal.extra] if deal.extra is not None else [])
                    assert all(card <= deal.cap for card in free.elements())
            free_cards = _hidden(state, seat)
            for fixed in deal.fixed:
                free_cards -= Counter(fixed)
            assert free_cards <= Counter(deal.pool)


def test_the_exchange_places_the_cards_it_shows() -> None:
    """Seed: the loser gives "seine höchste Karte" and the winner gives back any card, both
    shown: a third seat knows where both are and that the loser holds nothing higher."""
    state = next(
        s for s in _states(4, True, 7, 2000) if s.phase is Phase.PLAY and s.exchange is not None
    )
    exchange = state.exchange
    assert exchange is not None and exchange.returned is not None
    seat = next(s for s in range(4) if s not in (exchange.winner, exchange.loser))
    shown = GAME.view(state, seat)
    deal = deal_for(shown, seat, first_sight(shown))
    assert exchange.given in deal.fixed[exchange.winner]
    assert exchange.returned in deal.fixed[exchange.loser]
    rng = random.Random(1)
    for _ in range(20):
        sample = GangOfFourModel().sample(shown, seat, rng)
        loser = Counter(sample.hands[exchange.loser]) - Counter([exchange.returned])
        assert max(loser.elements()) <= exchange.given


def test_the_first_lead_holds_the_multicoloured_one() -> None:
    """Notes 6: "the holder of the multicoloured 1 leads and must include it"."""
    state = GAME.new_game(GAME.make_config(4, {}), b"first-lead")
    seat = (state.turn + 1) % 4
    sample = GangOfFourModel().sample(GAME.view(state, seat), seat, random.Random(3))
    assert GofCard.parse("m1") in sample.hands[state.turn]


def test_heuristic_playout_keeps_sets_and_announces() -> None:
    """The playout policy leads its low pair rather than breaking it, and always announces
    its last card (notes 8: forgetting puts the player out of the hand)."""
    state = GAME.new_game(GAME.make_config(4, {}), b"policy")
    hands = list(state.hands)
    hands[state.turn] = cards("g5 y5 r9 rD")
    lead = msgspec.structs.replace(state, hands=tuple(hands), must_include=None)
    move = heuristic_move(lead, state.turn, random.Random(0))
    assert move == Play(cards("g5 y5"))
    hands[state.turn] = cards("g3 y9")
    last = msgspec.structs.replace(lead, hands=tuple(hands))
    move = heuristic_move(last, state.turn, random.Random(0))
    assert isinstance(move, Play) and move.announce_last_card


def test_win_chances_favour_the_lowest_total() -> None:
    """Notes 9: "lowest total wins"; the estimate sums to one and orders the seats."""
    chances = win_chances((10, 40, 70, 95), 12.0)
    assert sum(chances) == pytest.approx(1.0)
    assert chances == sorted(chances, reverse=True)


def _proto_view(state: GangOfFourState, seat: int) -> game_pb2.View:
    view = game_pb2.View(game="gang_of_four", seat=seat, seats=state.config.players)
    view.to_act.extend(sorted(GAME.to_act(state)))
    CODECS["gang_of_four"].fill_view(GAME.view(state, seat), view)
    return view


def test_the_search_bot_answers_a_legal_move_reproducibly() -> None:
    """Through the proto path every bot uses: the answer is one of the legal moves given,
    and with an iteration budget the same rng gives the same answer."""
    codec = CODECS["gang_of_four"]
    answered = 0
    for number, state in enumerate(_states(4, False, 11, 120)):
        if number % 9 or state.phase is Phase.OVER:
            continue
        (seat,) = GAME.to_act(state)
        legal = [codec.move_to_proto(move) for move in GAME.legal_moves(state, seat)]
        view = _proto_view(state, seat)
        chosen = [
            GangOfFourSearchBot(Budget(iterations=12), flat=flat).choose(
                view, legal, random.Random(number)
            )
            for flat in (True, True, False)
        ]
        assert chosen[0] in legal and chosen[2] in legal
        assert chosen[0] == chosen[1]
        answered += 1
    assert answered >= 5


def test_candidates_keep_the_heuristic_choice_and_never_forget() -> None:
    """The root is cut, never past the heuristic's own choice, the pass, or going out; a
    play that forgets the last card (notes 8: "out of the hand") is not searched."""
    rng = random.Random(5)
    for state in _states(4, False, 12, 300):
        if state.phase is Phase.OVER:
            break
        (seat,) = GAME.to_act(state)
        moves = GAME.legal_moves(state, seat)
        kept = [moves[index] for index in candidates(state, seat, moves, 6)]
        assert heuristic_move(state, seat, rng) in kept
        assert all(
            move.announce_last_card or len(state.hands[seat]) - len(move.cards) != 1
            for move in kept
            if isinstance(move, Play)
        )
        assert any(isinstance(move, Pass) for move in kept) == (Pass() in moves)
