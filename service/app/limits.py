"""Who is calling and what they may use: operator keys, quotas, the request rate.

Each face names the caller of a call (the peer's address and the ``x-referee-key`` it
sent) to :meth:`Limits.admit`, which :func:`service.edge.calls.answering` runs first: an unknown
key is refused there (UNAUTHENTICATED ``OPERATOR_KEY_INVALID``), the request rate is
spent, and the :class:`Caller` is kept in a context variable for the use cases of the
call, which ask for their quotas here (:meth:`Limits.create_game`,
:meth:`Limits.create_tournament`, :meth:`Limits.watching`).

* **The request rate** is a token bucket per caller in this process: no Redis round trip
  on any call (SubmitMove included). It guards this process's event loop, so it is per
  replica; a load balancer spreads a caller over replicas.
* **Creates per minute, live games, live tournaments and their bots, watch streams** are
  shared by every replica: one Lua script per admission (``lua/quota_admit.lua``) over the
  caller's keys, all under the caller's hash tag ``quota:{<owner>}:...`` so it runs on one
  Redis Cluster slot. Live things are sorted sets of ids scored by their expiry: a game by
  its idle TTL (and it leaves the set when it finishes), a watch by a lease this process
  renews while the stream is open, so a crashed replica's entries lapse by themselves.

Quotas are per operator key for a caller that sent one, else per address (an IPv6 caller
by its /64, which one host usually holds whole). Every refusal is a typed error and writes
nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import hashlib
import hmac
import ipaddress
import secrets
import time
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Final

import structlog
from redis.commands.core import AsyncScript

from service.domain.proxies import TrustedProxies
from service.domain.quotas import OperatorKey, Quotas, load_keys
from service.errors import QuotaExceeded, Unauthenticated
from service.settings import Settings
from service.storage.redis_kit import Client, Outage, as_bytes, connect, script

log = structlog.get_logger("referee.limits")

KEY_HEADER: Final = "x-referee-key"
CREATE_WINDOW_MS: Final = 60_000
# A watch holds its place for this long unless this process renews it (every third of it).
WATCH_LEASE_MS: Final = 60_000
# How long a live game or tournament counts when the store keeps it forever (TTL 0).
FOREVER_MS: Final = 365 * 24 * 3600 * 1000
# A tournament admitted less than this long ago is never taken for a finished one.
SETTLE_MS: Final = 30_000
# A caller over its tournament quotas has its tournaments looked at for finished ones at
# most this often (per process); the callers remembered for it are bounded.
FINISHED_LOOK_SECONDS: Final = 5.0
MAX_LOOKED: Final = 10_000
# Buckets kept before idle (full) ones are forgotten: a full bucket is no bucket.
MAX_BUCKETS: Final = 65_536

UNLIMITED: Final = Quotas()
NO_PROXIES: Final = TrustedProxies()
_outage = Outage("the quota store", "nothing was applied; try again")


def sent_key(headers: Sequence[tuple[str, str | bytes]] | None) -> str | None:
    """The operator key among a call's headers (gRPC metadata or HTTP), if one was sent."""
    for name, value in headers or ():
        if name.lower() == KEY_HEADER:
            return value.decode(errors="replace") if isinstance(value, bytes) else value
    return None


def peer_address(peer: str | None) -> str:
    """The caller's address without its port: gRPC's ``ipv4:1.2.3.4:5``, ``ipv6:[::1]:5``
    and ``unix:/path``, or an HTTP server's ``1.2.3.4:5`` / ``::1:5``."""
    if not peer:
        return "local"
    if peer.startswith(("unix:", "unix-abstract:")):
        return "unix:"
    # grpc percent-encodes an IPv6 peer's brackets (ipv6:%5B2001:db8::7%5D:443).
    peer = urllib.parse.unquote(peer)
    for prefix in ("ipv4:", "ipv6:"):
        peer = peer.removeprefix(prefix)
    host = peer.rsplit(":", 1)[0] if ":" in peer else peer
    return host.strip("[]")


def _is_loopback(address: str) -> bool:
    if address in ("", "local") or address.startswith("unix:"):
        return True
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return address == "localhost"


def _owner_of(address: str) -> str:
    """The address a quota belongs to: an IPv6 caller's /64, any other as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address.replace("{", "(").replace("}", ")")
    if ip.version == 6 and not ip.is_loopback:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


@dataclass(frozen=True)
class Caller:
    """Who makes a call: their address, and their operator key if they sent one."""

    address: str
    key: OperatorKey | None = None

    @property
    def loopback(self) -> bool:
        return _is_loopback(self.address)

    @property
    def owner(self) -> str:
        """Whose quotas the call spends: the key's name, else the address."""
        return f"key:{self.key.name}" if self.key else f"addr:{_owner_of(self.address)}"


def internal_key(token_secret: bytes) -> OperatorKey:
    """The operator key the referee's own clients send (the tournament bots, which play
    through its gRPC face from loopback): unlimited, so that loopback needs no exemption
    of its own. Derived from the token secret, so every worker and replica knows it and
    it is never written anywhere. Its name cannot be an operator key's (no ``:`` there)."""
    secret = hmac.new(token_secret, b"referee: internal operator key", hashlib.sha256)
    return OperatorKey("referee:internal", secret.hexdigest().encode(), UNLIMITED)


LOCAL: Final = Caller("local")
"""A call that came through no face (in-process callers and unit tests)."""

_caller: contextvars.ContextVar[Caller] = contextvars.ContextVar("referee_caller", default=LOCAL)
_gate: contextvars.ContextVar[Limits | None] = contextvars.ContextVar("referee_gate", default=None)


def current() -> Caller:
    """The caller of the call under way (:data:`LOCAL` outside of one)."""
    return _caller.get()


class _Buckets:
    """A token bucket per owner: ``rate`` a second, bursts of twice that."""

    def __init__(self) -> None:
        self._buckets: dict[str, tuple[float, float]] = {}

    def spend(self, owner: str, rate: int) -> float:
        """0 when a token was taken, else the seconds until one is there (none taken)."""
        now = time.monotonic()
        capacity = 2.0 * rate
        tokens, then = self._buckets.get(owner, (capacity, now))
        tokens = min(capacity, tokens + (now - then) * rate)
        if tokens < 1.0:
            self._buckets[owner] = (tokens, now)
            return (1.0 - tokens) / rate
        self._buckets[owner] = (tokens - 1.0, now)
        if len(self._buckets) > MAX_BUCKETS:
            self._forget_full(now, rate)
        return 0.0

    def _forget_full(self, now: float, rate: int) -> None:
        self._buckets = {
            owner: (tokens, then)
            for owner, (tokens, then) in self._buckets.items()
            if tokens + (now - then) * rate < 2.0 * rate
        }


class QuotaStore:
    """The shared counters in Redis (its own client); every call is one script or command."""

    def __init__(self, client: Client) -> None:
        self._client = client
        self.on_call: Callable[[str, float], None] | None = None
        self._admit: AsyncScript = script(client, "quota_admit.lua")
        self._release: AsyncScript = script(client, "quota_release.lua")
        self._renew: AsyncScript = script(client, "quota_renew.lua")

    @staticmethod
    def keys(owner: str, what: str) -> list[str]:
        base = f"quota:{{{owner}}}"
        return [f"{base}:creates", f"{base}:{what}", f"{base}:{what}:weights"]

    @_outage
    async def admit(self, owner: str, what: str, args: Sequence[int | str]) -> tuple[str, int]:
        reply = await self._admit(keys=self.keys(owner, what), args=list(args))
        return reply[0].decode(), int(reply[1]) if len(reply) > 1 else 0

    @_outage
    async def release(self, owner: str, what: str, member: str) -> None:
        await self._release(keys=self.keys(owner, what)[1:], args=[member])

    @_outage
    async def renew(self, owner: str, what: str, expiry_ms: int, members: list[str]) -> None:
        await self._renew(keys=self.keys(owner, what)[1:2], args=[expiry_ms, *members])

    @_outage
    async def remember_owner(self, game_id: str, owner: str, ttl_ms: int) -> None:
        await self._client.set(f"quota:{{{game_id}}}:owner", owner, px=ttl_ms)

    @_outage
    async def forget_owner(self, game_id: str) -> str | None:
        owner = await self._client.getdel(f"quota:{{{game_id}}}:owner")
        return None if owner is None else as_bytes(owner).decode()

    @_outage
    async def live(self, owner: str, what: str) -> list[tuple[str, int]]:
        """The ids that still count in ``owner``'s live set, with their expiry (ms)."""
        now = int(time.time() * 1000)
        found = await self._client.zrangebyscore(
            self.keys(owner, what)[1], f"({now}", "+inf", withscores=True
        )
        return [(as_bytes(pair[0]).decode(), int(pair[1])) for pair in found]

    async def aclose(self) -> None:
        await self._client.aclose()


_REASONS: Final = {
    ("CREATES", "games"): ("CREATE_RATE_EXCEEDED", "creates_per_minute"),
    ("CREATES", "tournaments"): ("CREATE_RATE_EXCEEDED", "creates_per_minute"),
    ("LIVE", "games"): ("LIVE_GAMES_EXCEEDED", "live_games"),
    ("LIVE", "tournaments"): ("LIVE_TOURNAMENTS_EXCEEDED", "live_tournaments"),
    ("WEIGHT", "tournaments"): ("LIVE_BOTS_EXCEEDED", "live_bots"),
    ("LIVE", "watches"): ("WATCH_STREAMS_EXCEEDED", "watch_streams"),
}


def _refusal(verdict: str, what: str, wait_ms: int, quotas: Quotas) -> QuotaExceeded:
    reason, quota = _REASONS[(verdict, what)]
    limit = getattr(quotas, quota)
    return QuotaExceeded(
        reason,
        f"over the quota {quota}={limit} of this caller; try again later",
        wait_ms / 1000,
        {"quota": quota, "limit": str(limit)},
    )


class Limits:
    """This process's gate: keys, the request rate, and the shared quotas.

    ``store`` None keeps no shared counts (every shared quota is then unlimited); the
    faces and use cases need no other way to run without limits (:meth:`unlimited`).
    """

    def __init__(
        self,
        store: QuotaStore | None,
        *,
        keys: Sequence[OperatorKey] = (),
        keys_required: bool = False,
        quotas: Quotas = UNLIMITED,
        loopback_quotas: Quotas | None = None,
        live_ttl_seconds: int = 0,
        list_games_per_second: int = 0,
        rating_reads_per_second: int = 0,
        proxies: TrustedProxies = NO_PROXIES,
        internal: OperatorKey | None = None,
    ) -> None:
        self.store = store
        self.list_games_per_second = list_games_per_second
        self._listings = _Buckets()
        self.rating_reads_per_second = rating_reads_per_second
        self._rating_reads = _Buckets()
        self.keys = tuple(keys)
        self.keys_required = keys_required or bool(keys)
        self.quotas = quotas
        self.loopback_quotas = loopback_quotas
        self.proxies = proxies
        # The key of this referee's own clients (the tournament bots): see internal_key.
        self.internal = internal
        self._live_ms = live_ttl_seconds * 1000 if live_ttl_seconds else FOREVER_MS
        known = (*self.keys, internal) if internal else self.keys
        self._digests = [(hashlib.sha256(k.secret).digest(), k) for k in known]
        self._buckets = _Buckets()
        self._leases: dict[str, set[str]] = {}
        self._looked: dict[str, float] = {}  # owner -> when its tournaments were last looked at
        self._renewing: asyncio.Task[None] | None = None
        self.tracks_games = store is not None and any(
            q.live_games
            for q in (quotas, loopback_quotas or quotas, *(k.quotas for k in self.keys))
        )

    @classmethod
    def unlimited(cls) -> Limits:
        return cls(None)

    @classmethod
    def from_settings(cls, settings: Settings, redis_url: str, token_secret: bytes) -> Limits:
        """The limits ``settings`` ask for; SystemExit when they cannot be run safely.
        ``token_secret`` derives the key of the referee's own clients (:func:`internal_key`)."""
        try:
            keys = load_keys(
                settings.operator_keys, settings.operator_keys_file, settings.key_quotas
            )
        except (OSError, ValueError) as error:
            raise SystemExit(f"operator keys: {error}") from None
        exposed = not _is_loopback(settings.host)
        if exposed and not keys and not settings.open_creation:
            raise SystemExit(
                f"the referee listens beyond loopback ({settings.host}) but no operator key is "
                "set: set REFEREE_OPERATOR_KEYS_FILE (or REFEREE_OPERATOR_KEYS), or "
                "REFEREE_OPEN_CREATION=1 to let anyone create games and tournaments under "
                "REFEREE_QUOTAS"
            )
        client = connect(redis_url, cluster=settings.redis_cluster, max_connections=256)
        return cls(
            QuotaStore(client),
            keys=keys,
            keys_required=exposed and not settings.open_creation,
            quotas=settings.quotas,
            loopback_quotas=settings.loopback_quotas,
            live_ttl_seconds=settings.idle_ttl_seconds,
            list_games_per_second=settings.list_games_per_second,
            rating_reads_per_second=settings.rating_reads_per_second,
            proxies=TrustedProxies(settings.trusted_proxies),
            internal=internal_key(token_secret),
        )

    def quotas_of(self, caller: Caller) -> Quotas:
        if caller.key is not None:
            return caller.key.quotas
        if caller.loopback and self.loopback_quotas is not None:
            return self.loopback_quotas
        return self.quotas

    # --- every call ----------------------------------------------------------------------

    def admit_call(self, peer: str | None, headers: Sequence[tuple[str, str | bytes]]) -> Caller:
        """:meth:`admit` for a call of a face: its peer (gRPC's or the HTTP server's form,
        see :func:`peer_address`) and its headers (or metadata), which carry the operator
        key and, from a trusted proxy, the client's address (:mod:`service.domain.proxies`)."""
        return self.admit(self.proxies.client(peer_address(peer), headers), sent_key(headers))

    def admit(self, address: str, sent_key: str | None) -> Caller:
        """Name the call's caller (refusing an unknown key) and spend its request rate."""
        caller = Caller(address or "local", self._key(sent_key))
        _caller.set(caller)
        _gate.set(self)
        self.spend(caller)
        return caller

    def spend(self, caller: Caller) -> None:
        """One request of ``caller`` (a call, or one message of a Play stream)."""
        rate = self.quotas_of(caller).requests_per_second
        if not rate:
            return
        wait = self._buckets.spend(caller.owner, rate)
        if wait:
            raise QuotaExceeded(
                "REQUEST_RATE_EXCEEDED",
                f"over the quota requests_per_second={rate} of this caller",
                wait,
                {"quota": "requests_per_second", "limit": str(rate)},
            )

    def list_games(self) -> None:
        """One ListGames call of the current caller: its own rate, in this process, so a
        poller cannot spend the listing's Redis reads faster than that."""
        rate = self.list_games_per_second
        if not rate:
            return
        wait = self._listings.spend(current().owner, rate)
        if wait:
            raise QuotaExceeded(
                "LIST_RATE_EXCEEDED",
                f"over list_games_per_second={rate} of this caller",
                wait,
                {"quota": "list_games_per_second", "limit": str(rate)},
            )

    def rating_reads(self) -> None:
        """One RatingService call of the current caller: its own rate, in this process, as
        :meth:`list_games`'s (a leaderboard page is up to a hundred ratings read)."""
        rate = self.rating_reads_per_second
        if not rate:
            return
        wait = self._rating_reads.spend(current().owner, rate)
        if wait:
            raise QuotaExceeded(
                "RATING_READS_EXCEEDED",
                f"over rating_reads_per_second={rate} of this caller",
                wait,
                {"quota": "rating_reads_per_second", "limit": str(rate)},
            )

    def _key(self, sent: str | None) -> OperatorKey | None:
        if not sent or not self._digests:
            return None
        digest = hashlib.sha256(sent.encode()).digest()
        found = None
        for known, key in self._digests:  # every one compared, in constant time each
            if hmac.compare_digest(digest, known):
                found = key
        if found is None:
            raise Unauthenticated("OPERATOR_KEY_INVALID", f"the {KEY_HEADER} sent is not known")
        return found

    def require_operator(self) -> Caller:
        """The caller, who must have sent a key if this referee asks for one to create."""
        caller = current()
        if self.keys_required and caller.key is None:
            raise Unauthenticated(
                "OPERATOR_KEY_REQUIRED",
                f"creating games and tournaments here needs an operator key ({KEY_HEADER})",
            )
        return caller

    def require_key(self, what: str) -> Caller:
        """The caller, who must have sent an operator key whether or not this referee asks
        for one to create (``what`` needs one: a rated table)."""
        caller = current()
        if caller.key is None:
            raise Unauthenticated(
                "OPERATOR_KEY_REQUIRED", f"{what} needs an operator key ({KEY_HEADER})"
            )
        return caller

    # --- creating ------------------------------------------------------------------------

    async def _admit(
        self,
        caller: Caller,
        what: str,
        member: str,
        *,
        creates: int,
        live: int,
        weight: int = 0,
        weight_limit: int = 0,
        lease_ms: int | None = None,
    ) -> None:
        """One admission script: ``member`` joins ``caller``'s live ``what``, or a
        :class:`QuotaExceeded` says which quota refused it (and nothing was written)."""
        if self.store is None or not (creates or live or weight_limit):
            return
        now = int(time.time() * 1000)
        expiry = now + (self._live_ms if lease_ms is None else lease_ms)
        args: list[int | str] = [now, CREATE_WINDOW_MS, creates, live, member, expiry]
        args += [weight, weight_limit]
        verdict, wait_ms = await self.store.admit(caller.owner, what, args)
        if verdict != "OK":
            raise _refusal(verdict, what, wait_ms, self.quotas_of(caller))

    async def create_game(self, game_id: str) -> None:
        """Admit a new game of the current caller (key already required), or refuse it."""
        caller = current()
        quotas = self.quotas_of(caller)
        await self._admit(
            caller, "games", game_id, creates=quotas.creates_per_minute, live=quotas.live_games
        )
        if quotas.live_games and self.store is not None:
            await self.store.remember_owner(game_id, caller.owner, self._live_ms)

    async def game_finished(self, game_id: str) -> None:
        """The game leaves its creator's live games (best effort: else it lapses)."""
        if not self.tracks_games or self.store is None:
            return
        try:
            owner = await self.store.forget_owner(game_id)
            if owner is not None:
                await self.store.release(owner, "games", game_id)
        except Exception:  # best effort: the entry lapses by its expiry anyway
            log.warning("could not release a finished game from its quota", game_id=game_id)

    async def create_tournament(
        self, tournament_id: str, bots: int, still_live: Callable[[str], Awaitable[bool]]
    ) -> None:
        """Admit a new tournament (and its bots). Refused for its live count or bots, the
        caller's listed tournaments are checked once (``still_live``) and the finished ones
        dropped, since a tournament finishes where no quota sees it."""
        caller = current()
        quotas = self.quotas_of(caller)
        admit = functools.partial(
            self._admit,
            caller,
            "tournaments",
            tournament_id,
            creates=quotas.creates_per_minute,
            live=quotas.live_tournaments,
            weight=bots,
            weight_limit=quotas.live_bots,
        )
        try:
            await admit()
        except QuotaExceeded as error:
            if (
                error.reason == "CREATE_RATE_EXCEEDED"
                or not self._may_look_for_finished(caller)
                or not await self._drop_finished(caller, still_live)
            ):
                raise
            await admit()

    def _may_look_for_finished(self, caller: Caller) -> bool:
        """At most one look for finished tournaments per caller every
        :data:`FINISHED_LOOK_SECONDS` in this process: a flood of refused creates must not
        load the caller's tournaments once per call."""
        now = time.monotonic()
        if now - self._looked.get(caller.owner, -FINISHED_LOOK_SECONDS) < FINISHED_LOOK_SECONDS:
            return False
        if len(self._looked) >= MAX_LOOKED:
            self._looked.clear()
        self._looked[caller.owner] = now
        return True

    async def _drop_finished(
        self, caller: Caller, still_live: Callable[[str], Awaitable[bool]]
    ) -> bool:
        assert self.store is not None
        dropped = False
        # An id admitted moments ago may not be stored yet: only older ones are looked up.
        settled = int(time.time() * 1000) + self._live_ms - SETTLE_MS
        for tournament_id, expiry in await self.store.live(caller.owner, "tournaments"):
            if expiry <= settled and not await still_live(tournament_id):
                await self.store.release(caller.owner, "tournaments", tournament_id)
                dropped = True
        return dropped

    # --- watching ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def watching(self) -> AsyncIterator[None]:
        """Hold one of the current caller's watch streams while the block runs."""
        caller = current()
        limit = self.quotas_of(caller).watch_streams
        if self.store is None or not limit:
            yield
            return
        member = secrets.token_hex(8)
        await self._admit(caller, "watches", member, creates=0, live=limit, lease_ms=WATCH_LEASE_MS)
        held = self._leases.setdefault(caller.owner, set())
        held.add(member)
        self._renew_soon()
        try:
            yield
        finally:
            held.discard(member)
            if not held:
                self._leases.pop(caller.owner, None)
            with contextlib.suppress(Exception):
                await self.store.release(caller.owner, "watches", member)

    def _renew_soon(self) -> None:
        if self._renewing is None or self._renewing.done():
            self._renewing = asyncio.create_task(self._renew_leases())

    async def _renew_leases(self) -> None:
        """Push back the leases of this process's open watches while there are any."""
        while self._leases and self.store is not None:
            await asyncio.sleep(WATCH_LEASE_MS / 3000)
            expiry = int(time.time() * 1000) + WATCH_LEASE_MS
            for owner, members in list(self._leases.items()):
                try:
                    await self.store.renew(owner, "watches", expiry, sorted(members))
                except Exception:  # next round, or the lease lapses
                    log.warning("could not renew watch leases", owner=owner)

    async def aclose(self) -> None:
        if self._renewing is not None:
            self._renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewing
        if self.store is not None:
            await self.store.aclose()


def enter(admit: Callable[[], object] | None) -> None:
    """What every call does first (:func:`service.edge.calls.answering`): ``admit`` names a new
    call's caller (:meth:`Limits.admit`); without one (a request inside a Play stream) the
    caller of the call under way spends one more request."""
    if admit is not None:
        admit()
        return
    gate = _gate.get()
    if gate is not None:
        gate.spend(current())
