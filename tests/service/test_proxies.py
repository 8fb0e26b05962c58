"""Whose budget a call spends: the peer's, or the client a trusted proxy names
(service.domain.proxies)."""

from __future__ import annotations

import pytest

from service.app.limits import Caller, Limits, internal_key
from service.domain.proxies import TrustedProxies, parse_networks
from service.domain.quotas import Quotas
from service.errors import QuotaExceeded
from service.settings import Settings

PROXIES = TrustedProxies(parse_networks("10.0.0.0/8, 127.0.0.1 ::1"))


def test_networks_are_addresses_or_networks_with_commas_or_spaces() -> None:
    assert [str(n) for n in parse_networks("10.0.0.0/8,127.0.0.1  fd00::/8")] == [
        "10.0.0.0/8",
        "127.0.0.1/32",
        "fd00::/8",
    ]
    assert parse_networks("") == ()
    with pytest.raises(ValueError, match=r"not an address or network: 'proxy\.local'"):
        parse_networks("10.0.0.1 proxy.local")


def test_a_header_from_an_untrusted_peer_is_ignored() -> None:
    spoofed = [("x-forwarded-for", "198.51.100.7")]
    assert PROXIES.client("203.0.113.9", spoofed) == "203.0.113.9"
    assert TrustedProxies().client("127.0.0.1", spoofed) == "127.0.0.1"


def test_from_a_trusted_peer_the_last_untrusted_hop_is_the_client() -> None:
    # The client wrote "1.2.3.4" itself; our proxy appended the address it saw.
    headers = [("X-Forwarded-For", "1.2.3.4, 198.51.100.7, 10.1.2.3")]
    assert PROXIES.client("127.0.0.1", headers) == "198.51.100.7"
    assert PROXIES.client("10.0.0.5", [("x-forwarded-for", "2001:db8::9")]) == "2001:db8::9"


def test_repeated_header_lines_are_one_list_in_order() -> None:
    """A client's own X-Forwarded-For line comes first; the proxy's appended line last."""
    headers = [("x-forwarded-for", "192.0.2.1"), ("x-forwarded-for", "198.51.100.7")]
    assert PROXIES.client("::1", headers) == "198.51.100.7"


def test_forwarded_rfc7239_is_read_when_there_is_no_x_forwarded_for() -> None:
    headers = [("forwarded", 'for=192.0.2.60;proto=http, for="[2001:db8:cafe::17]:4711"')]
    assert PROXIES.client("127.0.0.1", headers) == "2001:db8:cafe::17"
    assert PROXIES.client("127.0.0.1", [("Forwarded", b"For=192.0.2.43:80")]) == "192.0.2.43"


def test_a_trusted_peer_without_a_usable_header_is_the_caller() -> None:
    assert PROXIES.client("127.0.0.1", []) == "127.0.0.1"
    assert PROXIES.client("127.0.0.1", [("x-forwarded-for", "unknown")]) == "127.0.0.1"
    assert PROXIES.client("127.0.0.1", [("forwarded", "for=_hidden")]) == "127.0.0.1"
    # every hop one of ours: the first is the client
    assert PROXIES.client("127.0.0.1", [("x-forwarded-for", "10.0.0.1, 10.0.0.2")]) == "10.0.0.1"


def test_each_forwarded_client_spends_its_own_request_rate() -> None:
    limits = Limits(None, quotas=Quotas(requests_per_second=1), proxies=PROXIES)

    def call(forwarded: str) -> Caller:
        return limits.admit_call("ipv4:127.0.0.1:5000", (("x-forwarded-for", forwarded),))

    assert [call("198.51.100.7").address for _ in range(2)] == ["198.51.100.7"] * 2
    with pytest.raises(QuotaExceeded):
        call("198.51.100.7")
    assert call("198.51.100.8").address == "198.51.100.8"  # another client, its own budget


def test_a_spoofed_header_from_an_untrusted_peer_spends_the_peers_budget() -> None:
    limits = Limits(None, quotas=Quotas(requests_per_second=1))
    for spoof in ("1.1.1.1", "2.2.2.2"):
        limits.admit_call("ipv4:127.0.0.1:5000", (("x-forwarded-for", spoof),))
    with pytest.raises(QuotaExceeded):
        limits.admit_call("ipv4:127.0.0.1:5000", (("x-forwarded-for", "3.3.3.3"),))


def test_loopback_is_an_address_like_any_other_unless_set_otherwise() -> None:
    """Behind a proxy on the same host every caller is loopback: by default it has the
    anonymous quotas; only `./dev serve` (and the tests) make it unlimited."""
    assert Settings().loopback_quotas is None
    limited = Limits(None, quotas=Quotas(creates_per_minute=3))
    assert limited.quotas_of(Caller("127.0.0.1")) == Quotas(creates_per_minute=3)
    dev = Limits(None, quotas=Quotas(creates_per_minute=3), loopback_quotas=Quotas())
    assert dev.quotas_of(Caller("127.0.0.1")) == Quotas()
    assert dev.quotas_of(Caller("192.0.2.1")) == Quotas(creates_per_minute=3)


def test_the_referees_own_key_is_unlimited_and_no_operator_key_is_needed_for_it() -> None:
    own = internal_key(b"token-secret-0123456789")
    assert own == internal_key(b"token-secret-0123456789")  # every worker derives the same
    assert own != internal_key(b"another-secret-0123456789")
    limits = Limits(None, quotas=Quotas(requests_per_second=1), internal=own)
    assert not limits.keys_required
    for _ in range(10):
        caller = limits.admit_call("ipv4:127.0.0.1:1", (("x-referee-key", own.secret.decode()),))
    assert caller.owner == "key:referee:internal"
