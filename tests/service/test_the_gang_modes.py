"""The Gang's modes over gRPC: creating tables, refusing bad options, playing a game in a
mode to its end and verifying it with ``referee verify``, and continuing the piles from
one game into the next.

Everything goes through the generated stubs; the engine is asked only for the reason and
message it gives a bad option (the service must pass them on as they are).
"""

from __future__ import annotations

import asyncio
import itertools
import sys
from dataclasses import dataclass

import grpc
import pytest
from redis.asyncio import Redis

from engines.errors import InvalidConfigError
from engines.the_gang import GAME
from referee.codecs import CODECS
from referee.v1 import game_pb2, referee_pb2, the_gang_pb2
from service.process.server import Running
from tests.service.table import (
    Move,
    Stub,
    Table,
    accept,
    mode_options,
    pile,
    reason_of,
    take,
)

Pb = the_gang_pb2
CODEC = CODECS["the_gang"]
ADVANCED = Pb.THE_GANG_MODE_ADVANCED
PROFESSIONAL = Pb.THE_GANG_MODE_PROFESSIONAL
MASTER_THIEF = Pb.THE_GANG_MODE_MASTER_THIEF
SORTED = list(range(1, 11))
MAX_MOVES = 3000


def _action(move: Move) -> str | None:
    return move.the_gang.WhichOneof("action")


async def _create(
    stub: Stub, seats: int, options: Pb.TheGangOptions, seed: bytes = b""
) -> tuple[Table, referee_pb2.CreateGameResponse]:
    reply = await stub.CreateGame(
        referee_pb2.CreateGameRequest(
            game="the_gang",
            seats=seats,
            seed=seed,
            allow_spectators=True,
            options=game_pb2.TableOptions(the_gang=options),
        )
    )
    table = Table(stub, reply.game_id, [t.token for t in reply.seat_tokens], reply.seed_sha256)
    return table, reply


# --- creating a table in each mode --------------------------------------------------------


@pytest.mark.parametrize("seats", [3, 6])
async def test_an_advanced_table_starts_without_cards_and_with_sorted_piles(
    stub: Stub, seats: int
) -> None:
    options = mode_options(ADVANCED, confirm_round_end=seats == 6)
    table, created = await _create(stub, seats, options)
    assert created.setup.options.the_gang == options  # echoed as created
    assert created.version == 0
    for viewer in (None, 0, seats - 1):
        view = (await table.view(viewer)).the_gang
        assert view.mode == ADVANCED
        assert (view.vaults_to_win, view.alarms_to_lose) == (3, 3)
        assert (list(view.challenges), list(view.standing_challenges)) == ([], [])
        assert view.specialist == Pb.SPECIALIST_CARD_UNSPECIFIED
        for shown in (view.challenge_pile, view.specialist_pile):
            assert (shown.size, list(shown.cards), shown.known) == (10, SORTED, True)
            assert not shown.card_one_turned
        assert len(view.pocket) == (0 if viewer is None else 2)
    history = await table.history(None)
    assert history.setup.options.the_gang == options


async def test_a_professional_table_has_one_standing_challenge_but_never_quick_access(
    stub: Stub,
) -> None:
    options = mode_options(PROFESSIONAL)
    standing: set[int] = set()
    for index in range(4):
        table, created = await _create(stub, 4, options, seed=f"pro-{index}".encode())
        assert created.setup.options.the_gang.mode == PROFESSIONAL
        view = (await table.view(None)).the_gang
        assert view.mode == PROFESSIONAL
        assert view.alarms_to_lose == 3
        assert len(view.standing_challenges) == 1
        assert list(view.challenges) == list(view.standing_challenges)
        card = view.standing_challenges[0]
        assert card != Pb.CHALLENGE_CARD_QUICK_ACCESS
        standing.add(card)
        # Card 1 is out of the game and the standing card out of its pile, the rest
        # shuffled (rules revision 2: "willekeurige" challenges), so its order is secret.
        shown = view.challenge_pile
        assert (shown.size, list(shown.cards), shown.known) == (8, [], False)
        assert list(view.specialist_pile.cards) == SORTED
        assert view.specialist == Pb.SPECIALIST_CARD_UNSPECIFIED
    assert len(standing) > 1, "the standing challenge is drawn at random"
    ordered = mode_options(PROFESSIONAL)
    ordered.ordered_challenges = True
    table, created = await _create(stub, 4, ordered)
    assert created.setup.options.the_gang == ordered  # echoed as created
    view = (await table.view(None)).the_gang
    assert list(view.standing_challenges) == [2], "in order: the top card, for teaching"
    rest = [c for c in SORTED if c not in (1, 2)]
    assert (view.challenge_pile.size, list(view.challenge_pile.cards)) == (8, rest)


async def test_a_master_thief_table_has_two_challenges_and_loses_at_two_alarms(
    stub: Stub,
) -> None:
    options = mode_options(MASTER_THIEF, challenge_pile=pile(10, 9, 8, 7, 6, 5, 4, 3, 2))
    options.ordered_challenges = True
    table, created = await _create(stub, 5, options)
    assert created.setup.options.the_gang == options
    view = (await table.view(2)).the_gang
    assert view.mode == MASTER_THIEF
    assert (view.vaults_to_win, view.alarms_to_lose) == (3, 2)
    assert len(view.challenges) == 2 and list(view.challenges) == sorted(view.challenges)
    assert Pb.CHALLENGE_CARD_QUICK_ACCESS not in view.challenges
    assert not view.standing_challenges
    assert view.specialist == Pb.SPECIALIST_CARD_UNSPECIFIED
    assert list(view.challenges) == [9, 10], "ordered_challenges: the top two"
    rest = [c for c in (10, 9, 8, 7, 6, 5, 4, 3, 2) if c not in view.challenges]
    assert list(view.challenge_pile.cards) == rest  # the continued order, less the two
    shuffled = mode_options(MASTER_THIEF, challenge_pile=pile(10, 9, 8, 7, 6, 5, 4, 3, 2))
    table, _ = await _create(stub, 5, shuffled)
    shown = (await table.view(None)).the_gang.challenge_pile
    assert (shown.size, list(shown.cards), shown.known) == (7, [], False), "shuffled by default"


async def test_shuffled_piles_keep_their_order_secret(stub: Stub) -> None:
    table, created = await _create(stub, 3, mode_options(ADVANCED, shuffle_piles=True))
    assert created.setup.options.the_gang.shuffle_piles
    for viewer in (None, 0):
        view = (await table.view(viewer)).the_gang
        for shown in (view.challenge_pile, view.specialist_pile):
            assert (shown.size, list(shown.cards), shown.known) == (10, [], False)


async def test_the_basic_mode_is_the_default_and_can_be_named(stub: Stub) -> None:
    for mode in (Pb.THE_GANG_MODE_UNSPECIFIED, Pb.THE_GANG_MODE_BASIC):
        table, created = await _create(stub, 3, Pb.TheGangOptions(mode=mode))
        assert created.setup.options.the_gang.mode == Pb.THE_GANG_MODE_BASIC
        view = (await table.view(None)).the_gang
        assert view.mode == Pb.THE_GANG_MODE_BASIC
        assert (view.challenge_pile.size, view.specialist_pile.size) == (10, 10)
        assert not view.challenges and view.specialist == Pb.SPECIALIST_CARD_UNSPECIFIED


# --- bad options ---------------------------------------------------------------------------


def _engine_refusal(seats: int, options: Pb.TheGangOptions) -> InvalidConfigError:
    """What the engine itself says of these options."""
    given = CODEC.options_from_proto(game_pb2.TableOptions(the_gang=options))
    with pytest.raises(InvalidConfigError) as caught:
        GAME.make_config(seats, given)
    return caught.value


async def _game_keys(redis: Redis) -> int:
    return len([key async for key in redis.scan_iter(match="game:*")])


async def _refused(
    stub: Stub, redis: Redis, options: Pb.TheGangOptions
) -> tuple[grpc.StatusCode, str, str]:
    before = await _game_keys(redis)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _create(stub, 4, options)
    assert await _game_keys(redis) == before, "a refused table must store nothing"
    code, reason, _ = reason_of(caught.value)
    return code, reason, caught.value.details() or ""


BAD_PILES = [
    pytest.param(mode_options(ADVANCED, challenge_pile=pile(1, 1, *range(3, 11))), id="twice"),
    pytest.param(mode_options(ADVANCED, challenge_pile=pile(*range(1, 10))), id="nine-with-1"),
    pytest.param(mode_options(PROFESSIONAL, challenge_pile=pile(*range(1, 12))), id="eleven"),
    pytest.param(mode_options(ADVANCED, challenge_pile=pile(0, *range(2, 11))), id="card-0"),
    pytest.param(mode_options(MASTER_THIEF, challenge_pile=pile(*range(2, 11), 11)), id="card-11"),
    pytest.param(
        mode_options(ADVANCED, specialist_pile=pile(*range(2, 11))), id="specialists-without-1"
    ),
    pytest.param(
        mode_options(PROFESSIONAL, specialist_pile=pile(*range(10, 0, -1), 10)),
        id="specialists-eleven",
    ),
]


@pytest.mark.parametrize("options", BAD_PILES)
async def test_a_pile_that_is_not_a_permutation_is_refused_with_the_engines_reason(
    stub: Stub, raw_redis: Redis, options: Pb.TheGangOptions
) -> None:
    expected = _engine_refusal(4, options)
    assert expected.reason == "BAD_PILE"
    code, reason, details = await _refused(stub, raw_redis, options)
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, expected.reason)
    assert details == expected.message


NEED_A_MODE = [
    pytest.param(Pb.TheGangOptions(challenge_pile=pile()), id="challenge-pile"),
    pytest.param(Pb.TheGangOptions(specialist_pile=pile(*SORTED)), id="specialist-pile"),
    pytest.param(Pb.TheGangOptions(shuffle_piles=True), id="shuffle"),
    pytest.param(
        mode_options(Pb.THE_GANG_MODE_BASIC, challenge_pile=pile(*SORTED)), id="named-basic"
    ),
]


@pytest.mark.parametrize("options", NEED_A_MODE)
async def test_pile_options_need_a_mode(
    stub: Stub, raw_redis: Redis, options: Pb.TheGangOptions
) -> None:
    expected = _engine_refusal(4, options)
    code, reason, details = await _refused(stub, raw_redis, options)
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "OPTION_NEEDS_MODE")
    assert (reason, details) == (expected.reason, expected.message)


async def test_an_unknown_mode_is_refused(stub: Stub, raw_redis: Redis) -> None:
    options = Pb.TheGangOptions(mode=99)  # type: ignore[arg-type]
    code, reason, details = await _refused(stub, raw_redis, options)
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_THE_GANG_MODE")
    assert "99" in details


# --- playing a game in a mode to its end ---------------------------------------------------


@dataclass
class Gang:
    """Plays a table through gRPC only, one seat's legal moves at a time: owed card
    actions first, then the decisions (each open proposal accepted, the specialist
    proposed once, the scan guesses proposed and accepted), then chips: a seat without a
    chip takes the lowest free one (the red chips land in seat order, so heists fail or
    succeed as the cards fall), confirming when the table asks for it."""

    table: Table
    seats: int
    view: game_pb2.View
    moves: int = 0

    async def legal(self, seat: int) -> list[Move]:
        return list((await self.table.legal(seat)).moves)

    async def first(self, seat: int, *actions: str) -> Move | None:
        return next((m for m in await self.legal(seat) if _action(m) in actions), None)

    async def next_move(self) -> tuple[int, Move]:
        g = self.view.the_gang
        seats = range(self.seats)
        for seat in seats:  # owed card actions: show, discard, pass
            move = await self.first(seat, "show_card", "discard_card", "pass_card")
            if move is not None:
                return seat, move
        for proposal in g.proposals:
            guess = proposal.WhichOneof("decision") != "use_specialist"
            for seat in seats:
                if seat not in proposal.accepted and not (guess and seat == g.guessed_seat):
                    return seat, accept(proposal.id)
        if g.awaiting_guesses:
            seat = next(s for s in seats if s != g.guessed_seat)
            move = await self.first(seat, "propose")
            assert move is not None, "a guess is due"
            return seat, move
        if not g.HasField("specialist_use") and g.round != Pb.CHIP_COLOUR_RED:
            move = await self.first(0, "propose")
            if move is not None:
                return 0, move
        row = g.chips[-1]
        holders = {
            chip.stars: chip.holder if chip.HasField("holder") else None for chip in row.chips
        }
        free = sorted(stars for stars, holder in holders.items() if holder is None)
        without = [seat for seat in seats if seat not in holders.values()]
        if without:
            move = take(g.round, free[0])
            assert move in await self.legal(without[0])
            return without[0], move
        for seat in seats:  # confirm_round_end tables
            move = await self.first(seat, "confirm_round_end")
            if move is not None:
                return seat, move
        raise AssertionError(f"nobody can move at v{self.view.version}")

    async def play(self, until_heist: int | None = None) -> game_pb2.View:
        """To the game's end, or until heist ``until_heist`` begins."""
        while not self.view.HasField("outcome"):
            if until_heist is not None and self.view.the_gang.heist >= until_heist:
                break
            seat, move = await self.next_move()
            reply = await self.table.submit(seat, move)
            assert reply.version == self.view.version + 1
            self.view = reply.view
            self.moves += 1
            assert self.moves <= MAX_MOVES, "the game did not end"
        return self.view


async def _gang(table: Table, seats: int) -> Gang:
    return Gang(table, seats, await table.view(None))


async def _verify(address: str, game_id: str, token: str | None) -> str:
    args = ["-m", "service.process.cli", "verify", "--address", address, "--game-id", game_id]
    if token is not None:
        args += ["--token", token]
    process = await asyncio.create_subprocess_exec(
        sys.executable, *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, (out.decode(), err.decode())
    return out.decode()


@pytest.mark.parametrize(
    ("mode", "seats"),
    [(PROFESSIONAL, 4), (MASTER_THIEF, 3), (ADVANCED, 5)],
    ids=["professional-4", "master-thief-3", "advanced-5"],
)
async def test_a_game_in_a_mode_plays_to_its_end_and_verifies(
    stub: Stub, referee_server: Running, mode: Pb.TheGangMode.ValueType, seats: int
) -> None:
    # Lost heists turn specialists: the Coordinator and Hacker, the Informant and Jack.
    specialists = {
        PROFESSIONAL: pile(6, 5, 1, 2, 3, 4, 7, 8, 9, 10),
        ADVANCED: pile(1, 7, 2, 3, 4, 5, 6, 8, 9, 10),
    }
    options = mode_options(
        mode, confirm_round_end=mode == PROFESSIONAL, specialist_pile=specialists.get(mode)
    )
    table, _ = await _create(stub, seats, options, seed=f"verify-{mode}-{seats}".encode())
    gang = await _gang(table, seats)
    final = await gang.play()
    g = final.the_gang
    assert final.HasField("outcome")
    assert g.vaults == 3 or g.alarms == g.alarms_to_lose
    assert len(g.heists) >= (2 if mode == MASTER_THIEF else 3)
    # The cards came up: every heist of these modes has its challenges.
    if mode != ADVANCED:
        assert all(result.challenges for result in g.heists)
    history = await table.history(None)
    assert history.seed and len(history.entries) == final.version == gang.moves
    kinds = {event.the_gang.WhichOneof("kind") for e in history.entries for event in e.events}
    secret = {PROFESSIONAL: {"card_passed", "card_drawn"}, ADVANCED: {"announced", "jack_taken"}}
    assert secret.get(mode, set()) <= kinds
    address = referee_server.address
    spectator = await _verify(address, table.game_id, None)
    assert spectator.startswith("verified: the_gang"), spectator
    assert f"{final.version} moves replayed" in spectator
    seat = await _verify(address, table.game_id, table.tokens[seats - 1])
    assert seat.startswith("verified: the_gang"), seat
    assert f"{final.version} views checked" in seat


# --- continuing the piles into the next game ------------------------------------------------


def _advanced_piles(
    heists: list[Pb.HeistResult], challenges: list[int], specialists: list[int]
) -> tuple[list[int], list[int]]:
    """The piles at an Advanced game's end, from its heists: after each heist the top
    challenge (success) or specialist (failure) is turned, and goes to the bottom after
    the next heist. Checks each heist's card on the way."""
    challenges, specialists = list(challenges), list(specialists)
    for before, result in itertools.pairwise(heists):
        if before.success:
            card = challenges.pop(0)
            assert (list(result.challenges), result.specialist) == ([card], 0), result.heist
            challenges.append(card)
        else:
            card = specialists.pop(0)
            assert (list(result.challenges), result.specialist) == ([], card), result.heist
            specialists.append(card)
    return challenges, specialists


def _continued(shown: Pb.PileView) -> Pb.PileStart:
    """A finished game's pile, as the next game's PileStart."""
    return pile(*shown.cards, card_one_turned=shown.card_one_turned, shuffled=not shown.known)


async def test_the_next_game_continues_the_piles(stub: Stub) -> None:
    first, _ = await _create(stub, 3, mode_options(ADVANCED), seed=b"piles-game-1")
    end = (await (await _gang(first, 3)).play()).the_gang
    assert len(end.heists) >= 3
    challenges, specialists = _advanced_piles(list(end.heists), SORTED, SORTED)
    assert list(end.challenge_pile.cards) == challenges
    assert list(end.specialist_pile.cards) == specialists
    assert end.challenge_pile.known and end.specialist_pile.known
    turned = [card for result in end.heists for card in result.challenges]
    assert end.challenge_pile.card_one_turned == (1 in turned)
    assert end.specialist_pile.card_one_turned == any(r.specialist == 1 for r in end.heists)

    options = mode_options(
        ADVANCED,
        challenge_pile=_continued(end.challenge_pile),
        specialist_pile=_continued(end.specialist_pile),
    )
    second, created = await _create(stub, 3, options, seed=b"piles-game-2")
    assert created.setup.options.the_gang == options
    start = (await second.view(None)).the_gang
    assert start.challenge_pile == end.challenge_pile
    assert start.specialist_pile == end.specialist_pile
    gang = await _gang(second, 3)
    heist_two = (await gang.play(until_heist=2)).the_gang
    assert heist_two.heist == 2
    success = heist_two.heists[0].success
    if success:
        assert list(heist_two.challenges) == [challenges[0]]
        assert heist_two.specialist == Pb.SPECIALIST_CARD_UNSPECIFIED
        assert list(heist_two.challenge_pile.cards) == challenges[1:]
    else:
        assert heist_two.specialist == specialists[0]
        assert not heist_two.challenges
        assert list(heist_two.specialist_pile.cards) == specialists[1:]


async def test_a_professional_pile_continues_into_an_advanced_game_with_card_one_back(
    stub: Stub,
) -> None:
    first, _ = await _create(stub, 4, mode_options(PROFESSIONAL), seed=b"piles-pro")
    end = (await (await _gang(first, 4)).play()).the_gang
    # The pile was shuffled (rules revision 2), so its order is secret until the game is
    # over; the finished view reveals it, and the next game can continue it as it lies.
    assert (list(end.challenge_pile.cards), end.challenge_pile.known) == ([], False)
    nine = list(end.revealed_challenge_pile)
    assert sorted(nine) == list(range(2, 11)), "card 1 stays out of a Professional game"
    assert nine[-1] == end.heists[0].challenges[0], "the standing card goes to the bottom"
    revealed = Pb.PileStart(cards=nine, card_one_turned=end.challenge_pile.card_one_turned)
    options = mode_options(ADVANCED, challenge_pile=revealed)
    second, _ = await _create(stub, 4, options, seed=b"piles-pro-2")
    start = (await second.view(None)).the_gang
    assert list(start.challenge_pile.cards) == [*nine, 1]  # Quick Access back, at the bottom
