"""The game store's contract (service.storage.games), one suite for every implementation.

Each test runs against RedisStore on the suite's real Redis and against MemoryStore, and
only through the protocol: whatever a use-case test learns from the memory store holds for
the Redis one. The bytes are the referee's own (service.domain.records), so a finished
game's records really are rebuilt from its log.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

import msgspec
import pytest

from service.domain import chain, clocks, records
from service.storage.games import CommitResult, CommitStatus, GameRecord, GameStore
from service.storage.memory import MemoryStore
from service.storage.store import RedisStore

RACERS = 16
SEED_SHA256 = hashlib.sha256(b"contract-seed").hexdigest()
META = records.encode(
    records.GameMeta(
        game="tictactoe",
        seats=2,
        config=msgspec.Raw(records.encode({})),
        allow_spectators=True,
        seed=b"contract-seed",
        seed_sha256=SEED_SHA256,
        created_at=1_700_000_000.0,
    )
)


def host(*names: str) -> bytes:
    """A live table's hosting record with a player in each seat, at token generation 0."""
    seats = tuple(records.SeatHold(records.PLAYER, name, f"id-{name}") for name in names)
    record = records.HostRecord(records.TABLE_LIVE, seats, created_at=1_700_000_000.0)
    return records.encode(record)


def clock(waiting_since_ms: int) -> bytes:
    """A two-seat turn clock's state, as the referee stores it beside the game."""
    seats = (clocks.SeatClock(bank_ms=60_000), clocks.SeatClock(bank_ms=60_000))
    return clocks.encode(clocks.ClockState(seats, waiting_since_ms))


def state(version: int) -> bytes:
    """A game's state after ``version`` moves (MessagePack, as every engine's state is)."""
    return records.encode({"board": [version % 3] * 9, "moves": version, "winner": None})


@dataclass(frozen=True, slots=True)
class Move:
    """One accepted move as the referee commits it: the state, log entry, chain head and
    idempotency record it makes at ``version``."""

    version: int
    seat: int
    client_move_id: str
    entry: bytes
    head: str
    state: bytes

    @property
    def key(self) -> str:
        return records.move_key(self.seat, self.client_move_id)

    @property
    def record(self) -> bytes:
        return records.encode(records.MoveRecord(self.version))


def move(version: int, *, seat: int | None = None, move_id: str = "", head: str = "") -> Move:
    """The move that makes ``version``, after the chain head ``head`` (default: the seed's,
    right for version 1); ``seat`` defaults to the seat whose turn it is."""
    seat = (version - 1) % 2 if seat is None else seat
    move_id = move_id or f"move-{version}"
    move_bytes = msgspec.Raw(records.encode({"cell": version % 9}))
    entry = records.encode(records.LogEntry(version, seat, move_bytes, move_id, 1.7e9 + version))
    head = chain.link(head or SEED_SHA256, entry)
    return Move(version, seat, move_id, entry, head, state(version))


def game(moves: int) -> list[Move]:
    """``moves`` moves in a row from version 0, each chained to the one before."""
    played: list[Move] = []
    for version in range(1, moves + 1):
        played.append(move(version, head=played[-1].head if played else ""))
    return played


async def commit(
    store: GameStore,
    game_id: str,
    played: Move,
    *,
    expected: int | None = None,
    finished: bool = False,
    host_version: int = 0,
    clock: bytes | None = None,
) -> CommitResult:
    """Commit ``played`` at ``expected`` (default: the version before it)."""
    return await store.commit(
        game_id,
        expected_version=played.version - 1 if expected is None else expected,
        state=played.state,
        log_entry=played.entry,
        head=played.head,
        move_key=played.key,
        move_record=played.record,
        finished=finished,
        host_version=host_version,
        clock=clock,
    )


async def play(store: GameStore, game_id: str, moves: int, *, finish: bool = False) -> list[Move]:
    """Create a game and commit ``moves`` moves (the last finishing it if ``finish``)."""
    assert await store.create(game_id, state(0), META, host=host("ann", "bob"))
    played = game(moves)
    for each in played:
        finished = finish and each is played[-1]
        assert await commit(store, game_id, each, finished=finished) == CommitResult(
            CommitStatus.OK, each.version
        )
    return played


async def seen(
    store: GameStore, game_id: str, keys: list[str]
) -> tuple[GameRecord | None, list[bytes], list[bytes | None]]:
    """All the contract shows of a game: to prove that a refused write changed nothing."""
    records_of = [await store.move_record(game_id, key) for key in keys]
    return await store.load(game_id), await store.log(game_id), records_of


@pytest.fixture(params=["redis", "memory"])
async def store(request: pytest.FixtureRequest) -> AsyncIterator[GameStore]:
    """Each implementation of the contract (Redis only started for its own tests)."""
    if request.param == "memory":
        yield MemoryStore()
        return
    async with RedisStore.from_url(request.getfixturevalue("redis_url")) as redis_store:
        yield redis_store


async def test_a_game_is_created_once_at_version_0(store: GameStore, game_id: str) -> None:
    assert await store.create(game_id, state(0), META, host=host("ann"), clock=clock(5))
    assert not await store.create(game_id, state(9), b"other meta", host=host("eve"))

    assert await store.exists(game_id)
    assert await store.load(game_id) == GameRecord(
        version=0, state=state(0), meta=META, host=host("ann"), host_version=0, clock=clock(5)
    )
    assert await store.log(game_id) == []


@pytest.mark.parametrize("nothing", [None, b""], ids=["none", "empty"])
async def test_a_game_created_without_host_or_clock_has_none(
    store: GameStore, game_id: str, nothing: bytes | None
) -> None:
    assert await store.create(game_id, state(0), META, host=nothing, clock=nothing)
    assert await store.load(game_id) == GameRecord(version=0, state=state(0), meta=META)


async def test_concurrent_creates_have_one_winner(store: GameStore, game_id: str) -> None:
    created = await asyncio.gather(*(store.create(game_id, state(i), META) for i in range(RACERS)))
    assert sorted(created) == [False] * (RACERS - 1) + [True]
    loaded = await store.load(game_id)
    assert loaded is not None
    assert loaded.state == state(created.index(True))


async def test_a_missing_game_reads_as_none(store: GameStore, game_id: str) -> None:
    assert await store.load(game_id) is None
    assert await store.load_with_presence(game_id) == (None, frozenset())
    assert await store.stamp(game_id) is None
    assert not await store.exists(game_id)
    assert await store.log(game_id) == []
    assert await store.move_record(game_id, "0:move-1") is None


async def test_stamp_and_load_with_presence_follow_the_versions(
    store: GameStore, game_id: str
) -> None:
    """Nobody holds a presence lease here, so no seat is present in either store."""
    played = await play(store, game_id, 2)
    changed = await store.change_host(
        game_id, expected_version=2, expected_host_version=0, host=host("ann", "cy")
    )
    assert changed == CommitResult(CommitStatus.OK, 1)

    assert await store.stamp(game_id) == (2, 1, frozenset())
    record, present = await store.load_with_presence(game_id)
    assert present == frozenset()
    assert record == await store.load(game_id)
    assert record is not None
    assert (record.version, record.host_version, record.head) == (2, 1, played[-1].head)


async def test_commit_ok_moves_the_game_one_version_on(store: GameStore, game_id: str) -> None:
    assert await store.create(game_id, state(0), META, host=host("ann", "bob"), clock=clock(1))
    first, second = game(2)

    assert await commit(store, game_id, first, clock=clock(2)) == CommitResult(CommitStatus.OK, 1)
    assert await commit(store, game_id, second) == CommitResult(CommitStatus.OK, 2)

    assert await store.load(game_id) == GameRecord(
        version=2,
        state=second.state,
        meta=META,
        head=second.head,
        host=host("ann", "bob"),
        clock=clock(2),  # the second move gave none: the first one's stays
    )
    assert await store.log(game_id) == [first.entry, second.entry]
    assert await store.move_record(game_id, first.key) == first.record
    assert await store.move_record(game_id, "1:never-sent") is None


@pytest.mark.parametrize("expected", [0, 1, 3], ids=["behind", "one-behind", "ahead"])
async def test_a_stale_version_is_a_conflict_and_changes_nothing(
    store: GameStore, game_id: str, expected: int
) -> None:
    played = await play(store, game_id, 2)
    before = await seen(store, game_id, [each.key for each in played])

    late = move(3, move_id="late")
    assert await commit(store, game_id, late, expected=expected) == CommitResult(
        CommitStatus.CONFLICT, 2
    )
    assert await seen(store, game_id, [each.key for each in played]) == before
    assert await store.move_record(game_id, late.key) is None


async def test_a_stale_host_version_is_a_conflict_and_changes_nothing(
    store: GameStore, game_id: str
) -> None:
    await play(store, game_id, 1)
    await store.change_host(game_id, expected_version=1, expected_host_version=0, host=host("x"))
    second = move(2)
    before = await seen(store, game_id, [second.key])

    for stale in (0, 2):
        result = await commit(store, game_id, second, host_version=stale)
        assert result == CommitResult(CommitStatus.CONFLICT, 1)
    assert await seen(store, game_id, [second.key]) == before


async def test_a_commit_to_a_missing_game_is_missing(store: GameStore, game_id: str) -> None:
    assert await commit(store, game_id, move(1)) == CommitResult(CommitStatus.MISSING, -1)
    assert not await store.exists(game_id)
    assert await store.log(game_id) == []


async def test_a_known_move_key_is_a_duplicate_before_any_other_check(
    store: GameStore, game_id: str
) -> None:
    """A retry after a lost reply carries the first try's version and host version: it is
    answered with the first record however stale those are, and nothing is written."""
    played = await play(store, game_id, 3)
    await store.change_host(game_id, expected_version=3, expected_host_version=0, host=host("x"))
    before = await seen(store, game_id, [each.key for each in played])
    first = played[0]
    # The same seat and move id, every other byte (its record too) different.
    retry = Move(9, first.seat, first.client_move_id, b"other", "00" * 32, b"other")
    assert retry.key == first.key and retry.record != first.record

    for expected, host_version in ((0, 0), (3, 1), (7, 5)):
        result = await commit(store, game_id, retry, expected=expected, host_version=host_version)
        assert result == CommitResult(CommitStatus.DUPLICATE, 3, first.record)
    assert await seen(store, game_id, [each.key for each in played]) == before


async def test_a_finished_games_records_are_rebuilt_from_its_log(
    store: GameStore, game_id: str
) -> None:
    """The move that finishes a game drops its records; a late retry's record comes from
    the log, identical to the one the live game answered with."""
    assert await store.create(game_id, state(0), META)
    played = game(4)
    for each in played[:-1]:
        await commit(store, game_id, each)
    live = [await store.move_record(game_id, each.key) for each in played[:-1]]
    assert live == [each.record for each in played[:-1]]

    last = played[-1]
    assert await commit(store, game_id, last, finished=True) == CommitResult(CommitStatus.OK, 4)

    assert [await store.move_record(game_id, each.key) for each in played] == [
        *live,
        last.record,
    ]
    assert await store.move_record(game_id, "0:never-sent") is None
    loaded = await store.load(game_id)
    assert loaded is not None
    assert (loaded.version, loaded.state, loaded.head) == (4, last.state, last.head)
    assert await store.log(game_id) == [each.entry for each in played]


async def test_a_retried_commit_after_the_finish_conflicts_and_changes_nothing(
    store: GameStore, game_id: str
) -> None:
    """Its record is gone, so the repeat is no DUPLICATE: it meets the version check (the
    caller then finds the first answer with move_record)."""
    played = await play(store, game_id, 3, finish=True)
    before = await seen(store, game_id, [each.key for each in played])

    for each in played:
        assert await commit(store, game_id, each) == CommitResult(CommitStatus.CONFLICT, 3)
    assert await seen(store, game_id, [each.key for each in played]) == before


async def test_change_host_counts_host_versions(store: GameStore, game_id: str) -> None:
    await play(store, game_id, 1)
    for host_version in (1, 2, 3):
        result = await store.change_host(
            game_id,
            expected_version=1,
            expected_host_version=host_version - 1,
            host=host("ann", f"seat-{host_version}"),
            clock=clock(host_version) if host_version == 2 else None,
        )
        assert result == CommitResult(CommitStatus.OK, host_version)

    loaded = await store.load(game_id)
    assert loaded is not None
    assert (loaded.version, loaded.host_version) == (1, 3)
    assert (loaded.host, loaded.clock) == (host("ann", "seat-3"), clock(2))
    assert await store.log(game_id) == [move(1).entry]  # a host change is no move


@pytest.mark.parametrize(
    ("expected_version", "expected_host_version"), [(0, 1), (1, 0), (2, 1), (1, 2)]
)
async def test_a_stale_host_change_is_a_conflict_carrying_the_version(
    store: GameStore, game_id: str, expected_version: int, expected_host_version: int
) -> None:
    await play(store, game_id, 1)
    await store.change_host(game_id, expected_version=1, expected_host_version=0, host=host("y"))
    before = await seen(store, game_id, [])

    result = await store.change_host(
        game_id,
        expected_version=expected_version,
        expected_host_version=expected_host_version,
        host=host("z"),
        clock=clock(9),
    )
    assert result == CommitResult(CommitStatus.CONFLICT, 1)
    assert await seen(store, game_id, []) == before


async def test_change_host_of_a_missing_game_is_missing(store: GameStore, game_id: str) -> None:
    result = await store.change_host(
        game_id, expected_version=0, expected_host_version=0, host=host("ann")
    )
    assert result == CommitResult(CommitStatus.MISSING, -1)
    assert not await store.exists(game_id)


async def test_a_move_decided_before_a_host_change_must_be_decided_again(
    store: GameStore, game_id: str
) -> None:
    first = (await play(store, game_id, 1))[0]
    reissued = await store.change_host(
        game_id, expected_version=1, expected_host_version=0, host=host("ann", "bob-2")
    )
    assert reissued == CommitResult(CommitStatus.OK, 1)
    second = move(2, head=first.head)

    assert await commit(store, game_id, second, host_version=0) == CommitResult(
        CommitStatus.CONFLICT, 1
    )
    assert await store.move_record(game_id, second.key) is None
    assert await commit(store, game_id, second, host_version=1) == CommitResult(CommitStatus.OK, 2)
    assert await store.log(game_id) == [first.entry, second.entry]


LOG_SLICES = [
    ((0, -1), [0, 1, 2, 3, 4]),
    ((1, 2), [1, 2]),
    ((0, 0), [0]),
    ((-1, -1), [4]),
    ((-2, -1), [3, 4]),
    ((3, 100), [3, 4]),
    ((-100, 1), [0, 1]),
    ((-100, -100), []),
    ((4, 2), []),
    ((5, 9), []),
    ((2, -4), []),
    ((1, -2), [1, 2, 3]),
]


@pytest.mark.parametrize("finish", [False, True], ids=["live", "finished"])
@pytest.mark.parametrize(
    ("bounds", "positions"), LOG_SLICES, ids=[f"{a}..{b}" for (a, b), _ in LOG_SLICES]
)
async def test_log_slices_like_lrange(
    store: GameStore,
    game_id: str,
    finish: bool,
    bounds: tuple[int, int],
    positions: list[int],
) -> None:
    """Both ends inclusive, negative from the end, out of range clipped; a finished game's
    log (packed in Redis) slices alike."""
    played = await play(store, game_id, 5, finish=finish)
    start, stop = bounds
    assert await store.log(game_id, start, stop) == [played[i].entry for i in positions]


async def test_delete_removes_the_game_and_frees_its_id(store: GameStore, game_id: str) -> None:
    played = await play(store, game_id, 2)
    await store.delete(game_id)

    assert not await store.exists(game_id)
    assert await store.load(game_id) is None
    assert await store.log(game_id) == []
    assert await store.move_record(game_id, played[0].key) is None
    await store.delete(game_id)  # deleting nothing is no error

    assert await store.create(game_id, state(0), META)
    assert await commit(store, game_id, played[0]) == CommitResult(CommitStatus.OK, 1)


async def test_concurrent_commits_at_one_version_have_one_winner(
    store: GameStore, game_id: str
) -> None:
    await play(store, game_id, 1)
    racers = [move(2, seat=i % 2, move_id=f"racer-{i}") for i in range(RACERS)]

    results = await asyncio.gather(*(commit(store, game_id, racer) for racer in racers))

    assert sorted(result.status.value for result in results) == ["CONFLICT"] * (RACERS - 1) + ["OK"]
    assert {result.version for result in results} == {2}
    winner = racers[[result.status for result in results].index(CommitStatus.OK)]
    assert (await store.log(game_id))[1:] == [winner.entry]
    loaded = await store.load(game_id)
    assert loaded is not None
    assert (loaded.version, loaded.head) == (2, winner.head)
    losers = [await store.move_record(game_id, racer.key) for racer in racers]
    assert losers.count(None) == RACERS - 1


@pytest.mark.parametrize("same_version", [True, False], ids=["same-version", "many-versions"])
async def test_concurrent_commits_of_one_move_key_apply_once(
    store: GameStore, game_id: str, same_version: bool
) -> None:
    """Retries of one move sent at once, each as decided on some version: one applies,
    the others find its record (DUPLICATE) or a stale version (CONFLICT); never two.
    With many versions the right one (0) is sent in the middle, after wrong ones."""
    assert await store.create(game_id, state(0), META)
    retry = move(1)
    half = RACERS // 2
    expected = [0] * RACERS if same_version else [*range(half, RACERS), *range(half)]

    results = await asyncio.gather(
        *(commit(store, game_id, retry, expected=version) for version in expected)
    )

    statuses = [result.status for result in results]
    assert statuses.count(CommitStatus.OK) == 1
    for result in results:
        assert result in (
            CommitResult(CommitStatus.OK, 1),
            CommitResult(CommitStatus.DUPLICATE, 1, retry.record),
            CommitResult(CommitStatus.CONFLICT, 0),  # a later version, before the winner
        )
    if same_version:
        assert statuses.count(CommitStatus.DUPLICATE) == RACERS - 1
    assert await store.log(game_id) == [retry.entry]
    assert await store.move_record(game_id, retry.key) == retry.record


@pytest.mark.parametrize("bad", ["", "a{b", "b}", "{tag}"])
async def test_ids_without_a_clean_hash_tag_are_refused(store: GameStore, bad: str) -> None:
    with pytest.raises(ValueError, match="invalid game id"):
        await store.create(bad, state(0), META)
    with pytest.raises(ValueError, match="invalid game id"):
        await store.load(bad)


async def test_a_negative_expected_version_is_refused(store: GameStore, game_id: str) -> None:
    assert await store.create(game_id, state(0), META)
    with pytest.raises(ValueError, match="expected_version"):
        await commit(store, game_id, move(1), expected=-1)
    assert await store.stamp(game_id) == (0, 0, frozenset())


async def test_the_memory_store_lets_a_write_land_between_a_load_and_a_commit(
    game_id: str,
) -> None:
    """As over a network: a task that loads and then commits gives other tasks a turn in
    between, so its commit can meet a version another task wrote meanwhile."""
    store = MemoryStore()
    first = (await play(store, game_id, 1))[0]
    second = move(2, head=first.head)

    async def load_then_commit() -> CommitResult:
        loaded = await store.load(game_id)
        assert loaded is not None
        return await commit(store, game_id, move(2, move_id="slow"), expected=loaded.version)

    slow, fast = await asyncio.gather(load_then_commit(), commit(store, game_id, second))

    assert (slow, fast) == (
        CommitResult(CommitStatus.CONFLICT, 2),
        CommitResult(CommitStatus.OK, 2),
    )
