"""Bots play whole games against a live referee, legally, and the heuristics beat random.

Every seat is its own client following its own watch stream (``play_seat``); the autouse
spy in conftest.py fails a test if any bot submits a move missing from its legal list.
The Gang's seats act concurrently, so a heist's chip race is not reproducible move for
move; the margins asserted are far inside what was measured (see the test docstrings).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import random
from typing import Any

import pytest

from referee.bots import STRATEGIES, bot_for, main, play_seat, run_bot
from referee.client import AsyncRefereeClient
from referee.client.exits import ExitCode
from referee.v1 import game_pb2, pinched_pb2
from service.process.server import Running
from tests.bots.conftest import LegalitySpy
from tests.bots.support import gang_options, play_game


def assert_over(views: list[game_pb2.View]) -> None:
    assert all(view.HasField("outcome") for view in views)
    assert len({view.version for view in views}) == 1
    assert all(list(view.to_act) == [] for view in views)


def test_every_game_has_a_random_and_a_heuristic_bot() -> None:
    assert set(STRATEGIES) == {"the_gang", "gang_of_four", "pinched"}
    for game, strategies in STRATEGIES.items():
        assert {"random", "heuristic"} <= set(strategies)
        for strategy in strategies:
            assert bot_for(game, strategy).name == f"{game}/{strategy}"


def test_unknown_games_and_strategies_are_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="gang_of_four, pinched, the_gang"):
        bot_for("chess", "random")
    with pytest.raises(ValueError, match="heuristic, random"):
        bot_for("pinched", "clever")


SCANS_FIRST = (4, 9, 2, 3, 5, 6, 7, 8, 10)
"""Challenge pile: Retina Scan, then Fingerprint Scan come up at heists 2 and 3."""
HACKER_FIRST = (5, 7, 6, 1, 2, 3, 4, 8, 9, 10)
"""Specialist pile: Hacker, Jack, Coordinator after the first failures."""


@pytest.mark.parametrize(
    ("mode", "seats", "options"),
    [
        ("basic", 3, {"confirm_round_end": True}),
        ("advanced", 4, {"specialists": HACKER_FIRST}),
        ("professional", 5, {"shuffle_piles": True}),
        ("professional", 4, {"challenges": SCANS_FIRST, "specialists": HACKER_FIRST}),
        ("master_thief", 3, {"challenges": SCANS_FIRST}),
    ],
)
async def test_the_gang_bots_finish_every_mode(
    referee_server: Running,
    legality: LegalitySpy,
    mode: str,
    seats: int,
    options: dict[str, Any],
) -> None:
    """Random and heuristic seats at one table, in every mode: over these games every move
    kind comes up (confirmations; proposals, acceptances and withdrawals of specialists and
    scan guesses; shown, discarded and passed cards)."""
    strategies = ["heuristic", "random"] * 3
    views = await play_game(
        referee_server.address,
        "the_gang",
        strategies[:seats],
        f"bots-{mode}".encode(),
        gang_options(mode, **options),
    )
    assert_over(views)
    assert views[0].the_gang.mode == gang_options(mode).the_gang.mode
    assert legality.submitted["the_gang"] > 0


async def test_a_heuristic_gang_cracks_more_vaults_than_a_random_one(
    referee_server: Running,
) -> None:
    """Measured over seeded 3-seat games: heuristic gangs won 45-48% of their heists (20 of
    44, 42 of 88), random gangs 17% (6 of 35). The seats race for chips concurrently, so
    the exact result varies from run to run; asserted over 10 games each: a lead of at
    least 5 points (about 2.5 standard deviations inside the measured lead)."""
    rates = {}
    for strategy in ("random", "heuristic"):
        won = played = 0
        for number in range(10):
            views = await play_game(
                referee_server.address, "the_gang", [strategy] * 3, b"gang-%d" % number
            )
            assert_over(views)
            heists = views[0].the_gang.heists
            won, played = won + sum(h.success for h in heists), played + len(heists)
        rates[strategy] = won / played
    assert rates["heuristic"] >= rates["random"] + 0.05, rates


async def test_a_heuristic_gang_of_four_player_beats_three_random_ones(
    referee_server: Running,
) -> None:
    """Measured: the heuristic seat won 6 of 6 games and 63 of 73 hands at a table of four.
    Asserted over 2 games (the heuristic in seats 0 and 3): at least one game and half the
    hands (a random seat's share is a quarter)."""
    games = hands = hands_won = 0
    for number, seat in enumerate((0, 3)):
        strategies = ["random"] * 4
        strategies[seat] = "heuristic"
        views = await play_game(
            referee_server.address, "gang_of_four", strategies, b"gof-%d" % number
        )
        assert_over(views)
        games += seat in views[0].outcome.winners
        results = views[0].gang_of_four.results
        hands, hands_won = hands + len(results), hands_won + sum(r.winner == seat for r in results)
    assert games >= 1
    assert hands_won >= hands / 2, (hands_won, hands)


async def test_a_heuristic_burglar_beats_random_ones(referee_server: Running) -> None:
    """Measured under rules revision 2: the heuristic seat finished first in 16 of 20
    four-seat games (random: 1 in 4). Asserted over 10: first at least 5 times (at 16/20
    that fails once in about 150 runs; a random seat passes it once in 13). 5 games with
    3 firsts, as before revision 2, failed a run in about 17."""
    firsts = 0
    for number in range(10):
        seat = number % 4
        strategies = ["random"] * 4
        strategies[seat] = "heuristic"
        views = await play_game(referee_server.address, "pinched", strategies, b"pin-%d" % number)
        assert_over(views)
        firsts += seat in views[0].outcome.winners
    assert firsts >= 5, firsts


@pytest.mark.parametrize(("seats", "setup"), [(2, "paranoid_owner"), (5, "the_whole_package")])
async def test_pinched_bots_finish_other_seat_counts(
    referee_server: Running, legality: LegalitySpy, seats: int, setup: str
) -> None:
    options = game_pb2.TableOptions(pinched=pinched_pb2.PinchedOptions(setup=setup))
    strategies = (["heuristic", "random"] * 3)[:seats]
    views = await play_game(referee_server.address, "pinched", strategies, b"pin-seats", options)
    assert_over(views)
    assert len(views[0].pinched.result.scores) == seats
    assert legality.submitted["pinched"] > 0


async def test_play_seat_stops_when_asked_and_reports_its_moves(referee_server: Running) -> None:
    async with AsyncRefereeClient(referee_server.address) as client:
        created = await client.create_game("gang_of_four", 3, seed=b"stop")
        seats = client.seats(created)
        views = [await seat.view() for seat in seats]
        leader = next(s for s, v in zip(seats, views, strict=True) if v.seat in v.to_act)
        stop, moves = asyncio.Event(), []

        def on_move(move_id: str, version: int) -> None:
            moves.append((move_id, version))
            stop.set()  # after its first move

        view = await asyncio.wait_for(
            play_seat(
                leader,
                bot_for("gang_of_four", "heuristic"),
                rng=random.Random(1),
                stop=stop,
                on_move=on_move,
            ),
            10,
        )
        assert len(moves) == 1 and moves[0][1] == 1
        assert not view.HasField("outcome")
        assert (await leader.view()).version == 1


async def test_a_thinking_bot_pauses_before_each_move_and_stops_mid_thought(
    referee_server: Running,
) -> None:
    """``think``: a stop during the pause ends the seat at once, without a move; otherwise
    the move comes that long after the update it answers."""
    async with AsyncRefereeClient(referee_server.address) as client:
        created = await client.create_game("gang_of_four", 3, seed=b"think")
        seats = client.seats(created)
        views = [await seat.view() for seat in seats]
        leader = next(s for s, v in zip(seats, views, strict=True) if v.seat in v.to_act)
        loop = asyncio.get_running_loop()
        moves: list[float] = []

        def thinking(stop: asyncio.Event) -> asyncio.Task[game_pb2.View]:
            began = loop.time()
            return asyncio.create_task(
                play_seat(
                    leader,
                    bot_for("gang_of_four", "random"),
                    rng=random.Random(2),
                    stop=stop,
                    on_move=lambda _id, _version: moves.append(loop.time() - began),
                    think=1.0,
                )
            )

        interrupted = asyncio.Event()
        playing = thinking(interrupted)
        await asyncio.sleep(0.2)
        interrupted.set()
        view = await asyncio.wait_for(playing, 0.5)  # long before the pause is over
        assert not moves and view.version == 0
        assert (await leader.view()).version == 0

        stop = asyncio.Event()
        playing = thinking(stop)
        async with asyncio.timeout(4):
            while not moves:
                await asyncio.sleep(0.05)
        assert moves[0] >= 1.0
        stop.set()
        await asyncio.wait_for(playing, 1)


async def test_run_bot_and_main_play_seats_of_a_live_game(referee_server: Running) -> None:
    """``run_bot`` in this loop for seat 0, ``main`` (its own loop, in a thread) for seat 1."""
    address = referee_server.address
    async with AsyncRefereeClient(address) as client:
        created = await client.create_game("pinched", 2, seed=b"cli")
        game_id, tokens = created.game_id, [s.token for s in created.seat_tokens]
        out = io.StringIO()

        def command() -> int:
            with contextlib.redirect_stdout(out):
                return main(
                    [
                        "--address",
                        address,
                        "--game-id",
                        game_id,
                        "--token",
                        tokens[1],
                        "--strategy",
                        "random",
                        "--seed",
                        "7",
                    ]
                )

        final, code = await asyncio.wait_for(
            asyncio.gather(
                run_bot(address, game_id, tokens[0], "heuristic", 3), asyncio.to_thread(command)
            ),
            30,
        )
        assert code == 0
        assert final.HasField("outcome") and final.seat == 0
        assert f"pinched {game_id}: {final.outcome.summary} (seat 1 " in out.getvalue()


async def test_main_refuses_an_unknown_strategy(referee_server: Running) -> None:
    async with AsyncRefereeClient(referee_server.address) as client:
        created = await client.create_game("the_gang", 3, seed=b"cli-bad")
    args = [
        "--address",
        referee_server.address,
        "--game-id",
        created.game_id,
        "--token",
        created.seat_tokens[0].token,
        "--strategy",
    ]
    for strategy in ("genius", "no.such.module:Bot", "referee.bots:NoSuchBot", "random:"):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = await asyncio.to_thread(main, [*args, strategy])
        assert code == ExitCode.USAGE, strategy
        assert err.getvalue().startswith("referee bot: "), err.getvalue()
