"""The Gang's search model and bot: samples a seat cannot tell from the table, a gang that
plays whole games legally.

Rules quoted from shared/RULES-NOTES.md (The Gang) and the seed (shared/seeds/000_*).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import msgspec.structs
import pytest

from engines.cards import cards
from engines.the_gang import GAME, TheGangState
from engines.the_gang.model import Colour, Mode
from engines.the_gang.moves import Accept, DiscardCard, Move, PassCard, ShowCard, TakeChip
from referee.codecs import CODECS
from referee.search.core import Budget
from referee.search.the_gang import TheGangModel, TheGangSearchBot, candidates
from referee.search.the_gang_policy import chip_choice, strength
from referee.search.the_gang_sample import known
from referee.v1 import game_pb2
from service.process.server import Running
from tests.bots.conftest import LegalitySpy
from tests.bots.support import play_game

CODEC = CODECS["the_gang"]
TABLES = [
    (Mode.BASIC, 3, False),
    (Mode.BASIC, 4, True),
    (Mode.ADVANCED, 5, False),
    (Mode.PROFESSIONAL, 4, False),
    (Mode.MASTER_THIEF, 6, True),
]
_DUTIES = (Accept, ShowCard, DiscardCard, PassCard)


def _new(mode: Mode, players: int, confirm: bool, seed: int) -> TheGangState:
    options = {"mode": mode.value, "confirm_round_end": confirm}
    if mode is not Mode.BASIC:
        options["shuffle_piles"] = True
    return GAME.new_game(GAME.make_config(players, options), b"gang-search-%d" % seed)


def _states(mode: Mode, players: int, confirm: bool, seed: int) -> Iterator[TheGangState]:
    """The states of one game by a "cooperative random" gang (bench.the_gang_modes): a
    random seat moves, doing its duty half the time, else any legal move (specialists and
    guesses proposed, chips taken from teammates)."""
    state = _new(mode, players, confirm, seed)
    rng = random.Random(seed)
    for _ in range(1500):
        if state.finished:
            break
        seat = rng.randrange(players)
        legal: list[Move] = GAME.legal_moves(state, seat)
        if not legal:
            continue
        yield state
        duties = [move for move in legal if isinstance(move, _DUTIES)]
        move = rng.choice(duties if duties and rng.random() < 0.5 else legal)
        state, _ = GAME.apply(state, seat, move)
    yield state


def _policy_states(mode: Mode, players: int, confirm: bool, seed: int) -> Iterator[TheGangState]:
    """The states of one game by a gang of the search's playout policy, a random waited-for
    seat moving each time (these games reach every round, the red one included)."""
    state = _new(mode, players, confirm, seed)
    model, rng = TheGangModel(), random.Random(seed)
    for _ in range(600):
        if state.finished:
            break
        yield state
        seat = model.next_actor(state, rng)
        state, _ = GAME.apply(state, seat, model.playout_move(state, seat, rng))
    yield state


def _every_nth(step: int) -> Iterator[TheGangState]:
    for number, (mode, players, confirm) in enumerate(TABLES):
        for index, state in enumerate(_states(mode, players, confirm, number)):
            if index % step == 0 and not state.finished:
                yield state


def _passing(state: TheGangState, seat: int) -> bool:
    return any(isinstance(move, PassCard) for move in GAME.legal_moves(state, seat))


def test_a_sample_shows_the_seat_exactly_its_view() -> None:
    """A determinization keeps everything the seat sees ("Nobody sees another seat's pocket
    before its showdown, [...] a Coordinator pass before it lands, the deck or the seed"):
    the engine's view of a sample equals the seat's view, and the sample holds one deck."""
    checked = 0
    for state in _every_nth(17):
        for seat in range(state.config.players):
            seen = GAME.view(state, seat)
            model = TheGangModel(particles=2)
            model.know_passing(seen, bool(state.passes))
            sample = model.sample(seen, seat, random.Random(checked))
            assert GAME.view(sample, seat) == seen
            cards = [*sample.deck, *sample.board, *sample.discards]
            cards += [card for pocket in sample.pockets for card in pocket]
            real = [*state.deck, *state.board, *state.discards]
            real += [card for pocket in state.pockets for card in pocket]
            assert sorted(cards, key=str) == sorted(real, key=str)
            checked += 1
    assert checked > 50


def test_the_true_deal_is_a_possible_sample() -> None:
    """Announcements are the truth (notes 12: "it computes the true value"): every pocket
    the table holds keeps the cards the view fixes, draws the rest from the cards the seat
    has not seen, and obeys what was announced about it."""
    checked = 0
    for state in _every_nth(5):
        for seat in range(state.config.players):
            info = known(GAME.view(state, seat), seat)
            pool = set(info.pool)
            for other, pocket in enumerate(state.pockets):
                assert info.sizes[other] == len(pocket)
                assert set(info.fixed[other]) <= set(pocket)
                assert set(pocket) - set(info.fixed[other]) <= pool
                check = info.checks[other]
                assert check is None or check(pocket)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize(("mode", "players", "confirm"), TABLES)
def test_playouts_from_samples_reach_the_showdown_legally(
    mode: Mode, players: int, confirm: bool
) -> None:
    """From any sample the model's playout moves are legal, and a playout ends where the
    model says ("Na de vierde ronde volgt het moment van de waarheid"): a showdown, with
    one reward per seat in [0, 1], the same for every seat (the gang wins or loses
    together)."""
    rng = random.Random(players)
    played = 0
    for index, state in enumerate(_states(mode, players, confirm, 40 + players)):
        if index % 11 or state.finished or played >= 8:
            continue
        seat = rng.randrange(players)
        model = TheGangModel(particles=4)
        seen = GAME.view(state, seat)
        model.know_passing(seen, bool(state.passes))
        root = sample = model.sample(seen, seat, rng)
        for _ in range(400):
            if model.horizon(sample, root):
                break
            actor = model.next_actor(sample, rng)
            assert actor in GAME.waiting_for(sample)
            move = model.playout_move(sample, actor, rng)
            assert GAME.is_legal(sample, actor, move)
            sample, _ = GAME.apply(sample, actor, move)
        else:
            pytest.fail("a playout did not reach the showdown")
        rewards = model.rewards(sample, root)
        assert len(rewards) == players and len(set(rewards)) == 1
        assert all(0.0 <= reward <= 1.0 for reward in rewards)
        played += 1
    assert played >= 5


def test_a_chipless_seat_takes_a_free_chip_and_a_holder_keeps_its_own() -> None:
    """ "Zodra iedereen een fiche van de huidige ronde voor zich heeft, eindigt de ronde":
    a seat without this round's chip considers only free chips (never a teammate's, so
    every round ends); a seat holding one does not search chip moves."""
    for state in _every_nth(9):
        if state.passes or state.pending or state.proposals or state.awaiting_guesses:
            continue
        row = state.chips[state.round]
        for seat in range(state.config.players):
            moves = candidates(state, seat)
            if seat in row:
                assert not any(isinstance(move, TakeChip) for move in moves)
            else:
                free = {stars for stars, holder in enumerate(row, 1) if holder is None}
                assert {m.stars for m in moves if isinstance(m, TakeChip)} == free


def test_the_policy_takes_more_stars_for_a_stronger_hand() -> None:
    """ "Pak je het fiche met de meeste sterren, dan geef je aan dat je denkt dat jij op dit
    moment de sterkste hand hebt": with the chips untouched, pocket aces take more stars
    than seven-two offsuit."""
    state = _new(Mode.BASIC, 4, False, 1)
    aces, junk = cards("As Ah"), cards("7c 2d")
    assert strength(aces, ()) > 0.8 > 0.4 > strength(junk, ())
    picks = []
    for pocket in (aces, junk):
        dealt = msgspec.structs.replace(state, pockets=(pocket, *state.pockets[1:]))
        chosen = chip_choice(dealt, 0)
        assert chosen is not None and chosen.colour is Colour.WHITE
        picks.append(chosen.stars)
    assert picks[0] > picks[1]


def _proto_view(state: TheGangState, seat: int) -> game_pb2.View:
    view = game_pb2.View(game="the_gang", seat=seat, seats=state.config.players)
    view.to_act.extend(sorted(GAME.to_act(state)))
    CODEC.fill_view(GAME.view(state, seat), view)
    return view


@pytest.mark.parametrize(("mode", "players", "confirm"), TABLES)
def test_the_search_bot_answers_a_legal_move_reproducibly(
    mode: Mode, players: int, confirm: bool
) -> None:
    """Through the proto path every bot uses: the answer is one of the legal moves given
    (or None: the seat would rather wait), the same for the same rng with an iteration
    budget, whether the bot is fresh or kept from earlier decisions (and with IS-MCTS in
    place of the rollouts)."""
    searched = asked = 0
    kept = _small_bot()
    for index, state in enumerate(_policy_states(mode, players, confirm, 80 + players)):
        searchable = state.round is Colour.RED or state.pending or state.awaiting_guesses
        if not searchable or index % 2 or state.finished or asked >= 10:
            continue
        for seat in sorted(GAME.to_act(state)):
            legal = [CODEC.move_to_proto(move) for move in GAME.legal_moves(state, seat)]
            view = _proto_view(state, seat)
            bot = _small_bot()
            first = bot.choose(view, legal, random.Random(index))
            asked += 1
            searched += bot.last is not None
            assert first is None or first in legal
            assert _small_bot().choose(view, legal, random.Random(index)) == first
            answer = kept.choose(view, legal, random.Random(index))
            assert answer is None or answer in legal
            tree = TheGangSearchBot(Budget(iterations=6), model=TheGangModel(64), flat=False)
            answer = tree.choose(view, legal, random.Random(index))
            assert answer is None or answer in legal
    assert searched >= 3


def _small_bot(iterations: int = 6) -> TheGangSearchBot:
    return TheGangSearchBot(Budget(iterations=iterations), model=TheGangModel(particles=64))


async def test_a_gang_of_search_bots_plays_a_live_game_legally(
    referee_server: Running, legality: LegalitySpy
) -> None:
    """Each search bot is an ordinary client of a live referee: it sees only its seat's
    view and legal moves (the spy fails the test on any move not in its list), and the
    gang plays the game to its end ("3 vaults win, 3 alarms lose")."""
    bots = [TheGangSearchBot(Budget(iterations=4)) for _ in range(3)]
    views = await play_game(referee_server.address, "the_gang", bots, b"search-live")
    assert all(view.HasField("outcome") for view in views)
    final = views[0].the_gang
    assert final.vaults == 3 or final.alarms == 3
    assert legality.submitted["the_gang"] > 0


def test_a_fresh_bot_never_takes_a_teammates_chip() -> None:
    """ "Dat kan een fiche uit het midden zijn, maar ook een fiche dat al voor een andere
    speler ligt": taking a teammate's chip is legal, but it makes the teammate choose again,
    so a bot that cannot count its own steals (a fresh object per call, as the referee's
    house bots are) only ever takes a free chip, and every round ends."""
    asked = 0
    for index, state in enumerate(_policy_states(Mode.BASIC, 4, False, 7)):
        row = state.chips[Colour.RED]
        if state.round is not Colour.RED or state.finished or all(h is None for h in row):
            continue
        for seat in sorted(GAME.waiting_for(state)):
            legal = [CODEC.move_to_proto(move) for move in GAME.legal_moves(state, seat)]
            bot = _small_bot(8)
            answer = bot.choose(_proto_view(state, seat), legal, random.Random(index))
            assert answer is not None
            move = CODEC.move_from_proto(answer)
            assert isinstance(move, TakeChip) and row[move.stars - 1] is None
            asked += 1
    assert asked >= 3


def test_an_earlier_rounds_chip_signals_the_hand() -> None:
    """ "Met het fiche met één ster zeg je dat jouw hand volgens jou de zwakste is": before
    any chip is taken, a search bot takes more white stars with pocket aces than with
    seven-two offsuit."""
    state = _new(Mode.BASIC, 4, False, 3)
    picks = []
    for pocket in (cards("As Ah"), cards("7c 2d")):
        dealt = msgspec.structs.replace(state, pockets=(pocket, *state.pockets[1:]))
        legal = [CODEC.move_to_proto(move) for move in GAME.legal_moves(dealt, 0)]
        answer = _small_bot().choose(_proto_view(dealt, 0), legal, random.Random(0))
        assert answer is not None
        move = CODEC.move_from_proto(answer)
        assert isinstance(move, TakeChip) and move.colour is Colour.WHITE
        picks.append(move.stars)
    assert picks[0] > picks[1]
