"""The showdown order with the Muscle specialist (The Gang), on every distinct hand value.

Seed: "Bij de onthulling wint die speler van iedere andere speler met een hand van dezelfde
soort. [...] Tegen een sterkere soort hand, zoals drie gelijke, verliest hij nog steeds."

"Soort" is the category; the royal flush is a category of its own (the seed lists ten), so
a Muscle's straight flush still loses to a royal flush. The values compared are all 7,462
distinct values of five ordinary cards, made from rank patterns (one hand per value) and
evaluated, plus the one value only the suitless jack makes: five jacks.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.cards import DECK, Card, Suit, cards
from engines.poker import Category, HandValue, evaluate, showdown_key

SEED = 20240612
SETTINGS = settings(max_examples=500, deadline=None)

JACK = Card(11, None)
SUITS = list(Suit)


def every_value() -> list[HandValue]:
    """One hand for each distinct value: every multiset of 5 ranks (at most 4 alike) with
    suits c d h s c by position, which is never a flush; every 5 distinct ranks in clubs;
    and five jacks."""
    hands: list[tuple[Card, ...]] = []
    for ranks in itertools.combinations_with_replacement(range(2, 15), 5):
        if len(set(ranks)) == 1:
            continue
        hands.append(tuple(Card(rank, SUITS[i % 4]) for i, rank in enumerate(ranks)))
        if len(set(ranks)) == 5:
            hands.append(tuple(Card(rank, Suit.CLUBS) for rank in ranks))
    hands.append(cards("Jc Jd Jh Js J*"))
    return [evaluate(hand) for hand in hands]


VALUES = every_value()
BY_CATEGORY: dict[Category, list[HandValue]] = {
    category: sorted(value for value in VALUES if value.category is category)
    for category in Category
}


def test_the_values_are_every_distinct_hand() -> None:
    assert len(set(VALUES)) == len(VALUES) == 7462 + 1
    assert Counter(value.category for value in VALUES) == {
        Category.HIGH_CARD: 1277,
        Category.PAIR: 2860,
        Category.TWO_PAIR: 858,
        Category.THREE_OF_A_KIND: 858,
        Category.STRAIGHT: 10,
        Category.FLUSH: 1277,
        Category.FULL_HOUSE: 156,
        Category.FOUR_OF_A_KIND: 156 + 1,
        Category.STRAIGHT_FLUSH: 9,
        Category.ROYAL_FLUSH: 1,
    }


def test_the_muscles_weakest_pair_beats_every_other_pair() -> None:
    """ "Bij de onthulling wint die speler van iedere andere speler met een hand van
    dezelfde soort." Twos with 5-4-3 against all 2,860 pairs, its own value included."""
    weakest = evaluate(cards("2c 2d 3h 4s 5c"))
    assert weakest == BY_CATEGORY[Category.PAIR][0]
    muscle = showdown_key(weakest, muscle=True)
    assert all(muscle > showdown_key(other) for other in BY_CATEGORY[Category.PAIR])
    assert showdown_key(weakest) < showdown_key(evaluate(cards("2h 2s 6c 4d 3c")))


def test_the_muscle_beats_every_hand_of_its_own_category() -> None:
    """ "... wint die speler van iedere andere speler met een hand van dezelfde soort":
    every value with the Muscle against every value of its category (13 million pairs), ties
    (the same value) included; five jacks among the fours of a kind."""
    for category in Category:
        others = [showdown_key(other) for other in BY_CATEGORY[category]]
        for value in BY_CATEGORY[category]:
            muscle = showdown_key(value, muscle=True)
            beaten = [other for other in others if not muscle > other]
            assert not beaten, f"Muscle {value} does not beat {beaten[:3]}"


def test_the_muscle_loses_to_every_hand_of_a_stronger_category() -> None:
    """ "Tegen een sterkere soort hand, zoals drie gelijke, verliest hij nog steeds." Every
    value with the Muscle against every value of every stronger category."""
    for category in Category:
        stronger = [showdown_key(v) for v in VALUES if v.category > category]
        for value in BY_CATEGORY[category]:
            muscle = showdown_key(value, muscle=True)
            winners = [other for other in stronger if not muscle < other]
            assert not winners, f"Muscle {value} is not below {winners[:3]}"


def test_the_muscles_best_pair_loses_to_the_weakest_three_of_a_kind() -> None:
    """ "Tegen een sterkere soort hand, zoals drie gelijke, verliest hij nog steeds." """
    aces = evaluate(cards("Ac Ad Kh Qs Jc 2d 3h"))
    assert aces == BY_CATEGORY[Category.PAIR][-1]
    trips = evaluate(cards("2c 2d 2h 3s 4c"))
    assert trips == BY_CATEGORY[Category.THREE_OF_A_KIND][0]
    assert showdown_key(aces, muscle=True) < showdown_key(trips)


def test_the_muscles_straight_flush_loses_to_a_royal_flush() -> None:
    """A royal flush is its own "soort" (the seed's tenth hand), so it is a stronger kind
    than every straight flush, even the Muscle's king-high one."""
    royal = showdown_key(evaluate(cards("Th Jh Qh Kh Ah 2c 3d")))
    king_high = evaluate(cards("9s Ts Js Qs Ks 2c 3d"))
    assert king_high == BY_CATEGORY[Category.STRAIGHT_FLUSH][-1]
    assert all(
        showdown_key(value, muscle=True) < royal for value in BY_CATEGORY[Category.STRAIGHT_FLUSH]
    )


def test_the_muscles_royal_flush_beats_a_royal_flush() -> None:
    royal = evaluate(cards("Th Jh Qh Kh Ah"))
    other = evaluate(cards("Ts Js Qs Ks As"))
    assert royal == other
    assert showdown_key(royal, muscle=True) > showdown_key(other)
    assert showdown_key(other, muscle=True) > showdown_key(royal)


def test_the_muscles_five_jacks_beat_four_aces() -> None:
    """Five jacks (J* and the four jacks) are a four of a kind: the Muscle's beats any."""
    five_jacks = evaluate(cards("Jc Jd Jh Js J*"))
    assert showdown_key(five_jacks, muscle=True) > showdown_key(evaluate(cards("Ac Ad Ah As Kc")))
    assert five_jacks < evaluate(cards("Ac Ad Ah As Kc"))
    assert showdown_key(five_jacks, muscle=True) < showdown_key(evaluate(cards("2c 3c 4c 5c 6c")))
    assert showdown_key(five_jacks) < showdown_key(evaluate(cards("Jc Jd Jh Js Ac")))


def test_without_the_muscle_the_key_orders_every_value_like_hand_value() -> None:
    """Sorting every distinct value by the key or by HandValue gives the same order."""
    rng = random.Random(SEED)
    shuffled = rng.sample(VALUES, len(VALUES))
    by_key = sorted(shuffled, key=showdown_key)
    assert by_key == sorted(shuffled)
    assert all(showdown_key(a) < showdown_key(b) for a, b in itertools.pairwise(by_key))


ordinary_hands = st.lists(st.sampled_from(DECK), min_size=5, max_size=8, unique=True)
jack_hands = st.lists(st.sampled_from(DECK), min_size=4, max_size=7, unique=True).map(
    lambda others: [JACK, *others]
)
values = st.one_of(ordinary_hands, jack_hands).map(evaluate)


@SETTINGS
@given(values, values)
def test_without_the_muscle_the_key_compares_like_hand_value(a: HandValue, b: HandValue) -> None:
    """Ties included: equal keys exactly for equal values (kickers and all)."""
    assert (showdown_key(a) < showdown_key(b)) == (a < b)
    assert (showdown_key(a) == showdown_key(b)) == (a == b)
    assert showdown_key(a, muscle=False) == showdown_key(a)


@SETTINGS
@given(values, values)
def test_the_muscle_matters_only_within_a_category(muscle: HandValue, other: HandValue) -> None:
    """Against another category the Muscle's hand compares as usual; within its own it wins."""
    key = showdown_key(muscle, muscle=True)
    if muscle.category is other.category:
        assert key > showdown_key(other)
    else:
        assert (key > showdown_key(other)) == (muscle > other)
