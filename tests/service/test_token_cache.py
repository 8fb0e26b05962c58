"""The signer remembers only tokens that verified, and only so many (service.domain.auth)."""

from __future__ import annotations

import pytest

from service.domain import auth
from service.domain.auth import SeatClaim, TokenSigner
from service.errors import Unauthenticated

SECRET = b"0123456789abcdef0123456789abcdef"


def test_a_remembered_token_gives_the_same_claim_and_a_forged_one_is_never_kept() -> None:
    signer = TokenSigner(SECRET)
    token = signer.issue("game1", 2, generation=3)
    assert signer.verify(token) == signer.verify(token) == SeatClaim("game1", 2, 3)
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    for _ in range(2):  # refused every time, not only the first
        with pytest.raises(Unauthenticated, match="not valid"):
            signer.verify(forged)
    assert forged not in signer._verified
    # Another secret's signer knows nothing of this one's tokens.
    with pytest.raises(Unauthenticated, match="not valid"):
        TokenSigner(b"another secret, 16+ bytes").verify(token)


def test_the_memory_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(auth, "VERIFIED_TOKENS", 3)
    signer = TokenSigner(SECRET)
    tokens = [signer.issue("g", seat) for seat in range(5)]
    for token in tokens:
        signer.verify(token)
    assert list(signer._verified) == tokens[2:]  # the oldest forgotten first
    assert signer.verify(tokens[0]) == SeatClaim("g", 0, 0)  # checked again, still good
