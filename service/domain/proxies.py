"""Whose call is it: the peer's address, or the client a trusted proxy forwarded.

Every per-address limit (creates, live games, the request rate, watch streams, wrong join
and seat codes) is kept by the caller's address. Behind a proxy the peer of every call is
the proxy, so the proxy says whom it forwards in a header: ``X-Forwarded-For`` (each hop
appends the address it got the request from) or RFC 7239's ``Forwarded: for=...``, as HTTP
headers on the HTTP face and as the same names in gRPC metadata (Envoy, nginx and
Kubernetes ingresses add them to gRPC calls as to any HTTP/2 request).

A header is believed only from a peer in :class:`TrustedProxies` (``REFEREE_TRUSTED_PROXIES``:
addresses and networks); from anyone else it is ignored, so a client cannot pick the
address its budget is kept under. From a trusted peer the header is read from its end,
skipping the trusted hops, and the first address that is not a trusted proxy is the
client (the left part of the header was written by the client itself and proves nothing).
A trusted peer that sends no usable header is the caller itself.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

FORWARDED_FOR: Final = "x-forwarded-for"
FORWARDED: Final = "forwarded"
# `for=` of one element of a Forwarded header: a token, or a quoted string that may hold
# "[v6]:port" (RFC 7239 section 6).
_FOR = re.compile(r'(?:^|;)\s*for\s*=\s*("[^"]*"|[^;,\s]*)', re.IGNORECASE)
# Hops read from a header at most: a longer chain is cut (its start is the client's own).
MAX_HOPS: Final = 32


def parse_networks(text: str) -> tuple[Network, ...]:
    """``REFEREE_TRUSTED_PROXIES``: addresses or networks, commas or spaces between them
    (``10.0.0.0/8, 127.0.0.1 ::1``); ValueError names the first that is neither."""
    networks: list[Network] = []
    for word in text.replace(",", " ").split():
        try:
            networks.append(ipaddress.ip_network(word, strict=False))
        except ValueError:
            raise ValueError(f"not an address or network: {word[:64]!r}") from None
    return tuple(networks)


def _address(text: str) -> str | None:
    """One hop of a header as an address (its port and brackets dropped), else None
    (``unknown``, an obfuscated ``_name``, garbage)."""
    text = text.strip().strip('"')
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def _hops(headers: Iterable[tuple[str, str | bytes]]) -> list[str | None]:
    """Every hop the forwarding headers name, first to last (X-Forwarded-For's, else
    Forwarded's); None for a hop that is no address."""
    xff: list[str | None] = []
    forwarded: list[str | None] = []
    for name, raw in headers:
        lower = name.lower()
        if lower not in (FORWARDED_FOR, FORWARDED):
            continue
        value = raw.decode("latin-1") if isinstance(raw, bytes) else raw
        if lower == FORWARDED_FOR:
            xff += [_address(part) for part in value.split(",")]
        else:
            forwarded += [
                _address(found.group(1)) if (found := _FOR.search(element)) else None
                for element in value.split(",")
            ]
    return (xff or forwarded)[-MAX_HOPS:]


@dataclass(frozen=True)
class TrustedProxies:
    """The peers whose forwarding headers are believed (none by default)."""

    networks: tuple[Network, ...] = ()

    def trusts(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)

    def client(self, peer: str, headers: Sequence[tuple[str, str | bytes]] | None) -> str:
        """The address a call's limits are kept under: ``peer``, or, when ``peer`` is a
        trusted proxy, the last hop of its forwarding headers that is not one."""
        if not self.networks or not headers or not self.trusts(peer):
            return peer
        hops = _hops(headers)
        for hop in reversed(hops):
            if hop is None:
                return peer  # a hop we cannot read: nothing left of it is provable
            if not self.trusts(hop):
                return hop
        return hops[0] if hops and hops[0] else peer  # every hop a proxy of ours
