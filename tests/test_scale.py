"""REFEREE_TEST_SCALE: unset is CI's sizes, a whole number multiplies them, nothing less."""

from __future__ import annotations

import pytest

from tests.scale import VARIABLE, read_scale


def test_unset_or_empty_is_one() -> None:
    assert read_scale({}) == 1
    assert read_scale({VARIABLE: ""}) == 1


def test_a_whole_number_is_the_scale() -> None:
    assert read_scale({VARIABLE: "10"}) == 10


@pytest.mark.parametrize("raw", ["0", "-1", "0.5", "ten"])
def test_less_than_ci_or_not_a_number_is_refused(raw: str) -> None:
    with pytest.raises(ValueError, match=VARIABLE):
        read_scale({VARIABLE: raw})
