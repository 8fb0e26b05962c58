"""Tables shared by the rule tests of Pinched! (``test_rules_*.py``)."""

from __future__ import annotations

from tests.pinched.support import CROWN, STD, B, C, D, H, S

SPADES_CROWN_4 = [(D, STD), (C, STD), (S, CROWN), (H, STD), (B, CROWN)]
