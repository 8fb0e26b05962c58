"""Pinched!'s search model: its samples are tables the seat cannot tell from the truth, and
the search bot answers one of its legal moves.

Rules quoted from the seed (shared/seeds/004_*, Gekraakt!) and shared/RULES-NOTES.md.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import msgspec.structs
import pytest

from engines.pinched import GAME, PinchedState, stash
from engines.pinched.components import DEFAULT, JOKER, kinds_of
from engines.pinched.model import Curse, Phase, Slot
from engines.pinched.moves import FieldRef, KeepCurses, Move, PassCurse, UsePassage
from engines.pinched.setup import RECOMMENDED
from referee.codecs import CODECS
from referee.search import pinched_policy
from referee.search.core import Budget
from referee.search.pinched import (
    PinchedModel,
    PinchedSearchBot,
    candidates,
    estimate,
    next_actor,
    promise,
)
from referee.search.pinched_sample import SoldMemory, sample
from referee.v1 import game_pb2

TABLES = [(2, ""), (3, ""), (4, ""), (5, ""), *((p, name) for name, (p, _) in RECOMMENDED.items())]


def _states(players: int, setup: str, seed: int) -> Iterator[PinchedState]:
    """The states of one game: the heuristic policy, now and then any legal move, the
    seat to move drawn among those the table waits on."""
    options = {"setup": setup} if setup else {}
    state = GAME.new_game(GAME.make_config(players, options), b"search-%d" % seed)
    rng = random.Random(seed)
    while not state.finished:
        yield state
        seat = rng.choice(sorted(GAME.to_act(state)))
        moves = GAME.legal_moves(state, seat)
        if rng.random() < 0.2:
            move = rng.choice(moves)
        else:
            move = pinched_policy.choose(state, seat, moves, rng)
        state, _ = GAME.apply(state, seat, move)


def _hidden(state: PinchedState, seat: int) -> Counter[int]:
    """The cards ``seat`` cannot see: the deck, the others' hands and sold piles."""
    found = Counter(state.deck)
    for other in range(state.config.players):
        if other != seat:
            found.update(state.hands[other])
            found.update(state.sold[other])
    return found


@pytest.mark.parametrize(("players", "setup"), TABLES)
def test_a_sample_shows_the_seat_exactly_its_view(players: int, setup: str) -> None:
    """Hidden: "gedekte trekstapel", the others' hands ("houd je in je hand") and sold
    cards ("gedekt"), "Je vloeken houd je geheim", the sealed letter and the morning's
    cards "gedekt". A sample keeps every public thing and the seat's own (its view equals
    the real one), deals the same cards the seat cannot see, and waits on the same seats."""
    rng = random.Random(players)
    checked = 0
    for number, state in enumerate(_states(players, setup, 1)):
        if number % 4:
            continue
        to_act = GAME.to_act(state)
        for seat in range(players):
            shown = GAME.view(state, seat)
            drawn = sample(shown, seat, rng, to_act)
            assert GAME.view(drawn, seat) == shown
            assert _hidden(drawn, seat) == _hidden(state, seat)
            assert GAME.to_act(drawn) == to_act
            assert len(drawn.curse_pile) == len(state.curse_pile)
            checked += 1
    assert checked >= 30


@pytest.mark.parametrize(("players", "setup"), TABLES[:4])
def test_the_truth_keeps_the_samplers_rules(players: int, setup: str) -> None:
    """The sampler deals a hand only what the storage rules leave in one, so the real
    hands must keep those rules: "Heb je een kaart van een soort die al op je
    voorraadtableau ligt, dan leg je die op dat veld" (no held kind in a hand), and a
    joker ("leg je die meteen op een van je drie velden") or a new kind with a free slot
    only while its seat owes the choice, which makes the table wait on it."""
    for state in _states(players, setup, 2):
        kinds = kinds_of(state.config.components)
        to_act = GAME.to_act(state)
        for seat in range(players):
            assert stash.settle(state, seat, []) == state
            held = {slot.kind for slot in state.stashes[seat] if slot.kind is not None}
            assert not held & {kinds[card] for card in state.hands[seat]}
            owes = stash.owes_storing(state, seat)
            assert not owes or seat in to_act
            jokers = any(kinds[card] == JOKER for card in state.hands[seat])
            assert not jokers or owes


@pytest.mark.parametrize(("players", "setup"), TABLES[2:])
def test_playouts_from_samples_move_legally_to_the_horizon(players: int, setup: str) -> None:
    """A simulation moves a seat the table waits on with one of its legal moves and stops
    at the next day or the end; every reward lies in [0, 1]."""
    model = PinchedModel(days_ahead=0)
    rng = random.Random(7)
    for number, state in enumerate(_states(players, setup, 3)):
        if number % 40:
            continue
        seat = rng.choice(sorted(GAME.to_act(state)))
        model.to_act = GAME.to_act(state)
        root = current = model.sample(GAME.view(state, seat), seat, rng)
        while not model.horizon(current, root):
            actor = model.next_actor(current, rng)
            assert actor in GAME.to_act(current)
            move = model.playout_move(current, actor, rng)
            assert move in GAME.legal_moves(current, actor)
            current, _ = GAME.apply(current, actor, move)
        rewards = model.rewards(current, root)
        assert len(rewards) == players
        assert all(0.0 <= reward <= 1.0 for reward in rewards)


def test_a_whole_game_ends_by_the_models_actors() -> None:
    """The policy and :func:`next_actor` alone play a game to its end ("Stond het horloge
    deze week al op 1, dan is het spel voorbij"): 4 weeks of 4 days at 4 seats."""
    state = GAME.new_game(GAME.make_config(4, {}), b"whole")
    rng = random.Random(0)
    for _ in range(2_000):
        if state.finished:
            break
        seat = next_actor(state, rng)
        move = pinched_policy.choose(state, seat, GAME.legal_moves(state, seat), rng)
        state, _ = GAME.apply(state, seat, move)
    assert state.finished
    assert state.day == 16


def test_the_estimate_counts_as_the_final_score() -> None:
    """ "Tel je gedekte, verkochte kaarten. Elke kaart is 1 punt waard. Tel de bonuspunten
    erbij op [...] aanwijzingen (2 punten per stuk). Trek de waarde van de vloeken die je
    nog hebt ervan af", and a stash set counts at least its sale value ("Alle inbrekers
    mogen de kostbaarheden op hun voorraadtableau verkopen")."""
    state = next(_states(4, "cursed_secrets", 4))
    gold = [kind.name for kind in DEFAULT.kinds].index("gold_bars")
    cards = [card for card, kind in enumerate(kinds_of(state.config.components)) if kind == gold]
    stashes = list(state.stashes)
    stashes[0] = (Slot(gold, tuple(cards[:3])), Slot(), Slot())
    clues = tuple(1 if seat == 0 else 0 for seat in range(4))
    curses = ((Curse(0, 2),), (), (), ())
    table = msgspec.structs.replace(
        state, stashes=tuple(stashes), sold=((1, 2, 3), (), (), ()), clues=clues, curses=curses
    )
    # 3 sold + 2 for the clue - 2 for the curse + gold bars 3 -> 2 (or what 4 promises)
    assert estimate(table, 0) == 3 + 2 - 2 + promise(DEFAULT.kinds[gold], 3)
    assert promise(DEFAULT.kinds[gold], 3) >= 2


def test_a_set_promises_more_as_it_grows() -> None:
    """ "Kijk op de kaarten van die soort welke drempel je haalt": a bigger set never
    promises less, and a set at its top threshold promises exactly its value."""
    for kind in DEFAULT.kinds:
        values = [promise(kind, count) for count in range(12)]
        assert values == sorted(values)
        top = kind.sales[-1]
        assert promise(kind, top.threshold) == top.value


def test_candidates_merge_equal_moves_and_keep_the_heuristics_choice() -> None:
    """ "mag iedere inbreker [...] 1 van zijn vloeken geven aan een andere inbreker": two
    curses of the same points to the same seat are the same move; the passage's "2 open
    kaarten" in either order are the same cards."""
    state = next(_states(4, "cursed_secrets", 5))
    state = msgspec.structs.replace(
        state,
        phase=Phase.NIGHT,
        present=(0, 1, 2),
        curse_turns=(0,),
        curses=((Curse(0, 1), Curse(1, 1), Curse(5, 3)), (), (), ()),
    )
    moves: list[Move] = [PassCurse(c, to) for c in (0, 1, 5) for to in (1, 2)]
    moves.append(KeepCurses())
    kept = [moves[i] for i in candidates(state, 0, moves, random.Random(0), width=10)]
    assert len(kept) == 5
    assert pinched_policy.choose(state, 0, moves, random.Random(0)) in kept
    refs = [r for row in [0, 1] for r in _refs(state, row)][:2]
    passages: list[Move] = [UsePassage((refs[0], refs[1])), UsePassage((refs[1], refs[0]))]
    assert len(candidates(state, 0, passages, random.Random(0))) == 1


def _refs(state: PinchedState, row: int) -> list[FieldRef]:
    location = state.config.locations[row].location
    return [FieldRef(location, field) for field, card in enumerate(state.fields[row]) if card]


def _proto_view(state: PinchedState, seat: int) -> game_pb2.View:
    view = game_pb2.View(game="pinched", seat=seat, seats=state.config.players)
    view.to_act.extend(sorted(GAME.to_act(state)))
    CODECS["pinched"].fill_view(GAME.view(state, seat), view)
    return view


@pytest.mark.parametrize(("players", "setup"), [(2, ""), (4, ""), *TABLES[5:]])
def test_the_search_bot_answers_a_legal_move_reproducibly(players: int, setup: str) -> None:
    """Through the proto path every bot uses: the answer is one of the legal moves given,
    and with an iteration budget the same rng gives the same answer (a fresh bot per call,
    as the referee's house seats make them, or one kept for the seat)."""
    codec = CODECS["pinched"]
    kept = PinchedSearchBot(Budget(iterations=6))
    answered = 0
    for number, state in enumerate(_states(players, setup, 6)):
        seat = min(GAME.to_act(state))
        legal = [codec.move_to_proto(move) for move in GAME.legal_moves(state, seat)]
        if number % 11 or len(legal) < 2:
            continue
        view = _proto_view(state, seat)
        chosen = [
            PinchedSearchBot(Budget(iterations=6)).choose(view, legal, random.Random(number)),
            kept.choose(view, legal, random.Random(number)),
            PinchedSearchBot(Budget(iterations=6), flat=False).choose(
                view, legal, random.Random(number)
            ),
        ]
        assert all(move in legal for move in chosen)
        assert chosen[0] == chosen[1]
        answered += 1
        if answered == 4:
            break
    assert answered == 4


@pytest.mark.parametrize(("players", "setup", "every"), [(3, "", 1), (4, "", 5), (5, "", 1)])
def test_the_sold_piles_known_are_the_true_ones(players: int, setup: str, every: int) -> None:
    """ "Leg zoveel kaarten uit die set gedekt op het veld voor verkochte kostbaarheden
    [...] Leg de overige kaarten van die set open op de aflegstapel": a card that left an
    open stash and is not on the discard pile lies in its seat's sold pile. What a seat's
    memory places there is there, whether it sees every version or some; and a sample
    that places it still shows the seat its view."""
    memories = [SoldMemory() for _ in range(players)]
    rng = random.Random(players)
    placed = 0
    for number, state in enumerate(_states(players, setup, 8)):
        for seat, memory in enumerate(memories):
            if (number + seat) % every:
                continue
            shown = GAME.view(state, seat)
            known = memory.observe(shown, seat)
            for other, cards in known.items():
                assert cards <= set(state.sold[other])
                placed += len(cards)
            if number % 10 == 0:
                drawn = sample(shown, seat, rng, GAME.to_act(state), known)
                assert GAME.view(drawn, seat) == shown
                assert all(set(cards) <= set(drawn.sold[o]) for o, cards in known.items())
    assert placed > 0
