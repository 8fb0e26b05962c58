"""Rule tests: each quotes the line of the seed rules (The Gang, "De pokerhanden") it checks.

Card notation is the poker one: T J Q K A (the seed writes 10 B V H A); ``J*`` is the
suitless Jack specialist.
"""

from __future__ import annotations

import itertools
import random

import pytest

from engines.cards import DECK, Card, cards
from engines.poker import Category, HandValue, evaluate, rank_value


def value(text: str) -> HandValue:
    return evaluate(cards(text))


def test_categories_from_weak_to_strong() -> None:
    """ "Van zwak naar sterk": 1. Hoge kaart ... 10. Royal flush."""
    ladder = [
        ("Ac Jd 9h 6s 3c 2d 4h", Category.HIGH_CARD),
        ("2c 2d 9h 6s 3c Jd 4h", Category.PAIR),
        ("2c 2d 3h 3s 9c Jd 4h", Category.TWO_PAIR),
        ("2c 2d 2h 9s 3c Jd 4h", Category.THREE_OF_A_KIND),
        ("Ac 2d 3h 4s 5c Jd 9h", Category.STRAIGHT),
        ("2c 3c 4c 5c 7c Jd 9h", Category.FLUSH),
        ("2c 2d 2h 3s 3c Jd 4h", Category.FULL_HOUSE),
        ("2c 2d 2h 2s 3c Jd 4h", Category.FOUR_OF_A_KIND),
        ("Ac 2c 3c 4c 5c Jd 9h", Category.STRAIGHT_FLUSH),
        ("Tc Jc Qc Kc Ac 2d 3h", Category.ROYAL_FLUSH),
    ]
    values = [value(text) for text, _ in ladder]
    assert [v.category for v in values] == [category for _, category in ladder]
    assert [int(category) for _, category in ladder] == list(range(1, 11))
    assert all(low < high for low, high in itertools.pairwise(values))


def test_suits_never_rank() -> None:
    """ "De kleur van een kaart maakt voor de waarde niet uit, dus een schoppenaas is
    evenveel waard als een hartenaas." """
    a, b = value("As Kd 9c 7h 4s 3c 2d"), value("Ah Kc 9d 7s 4h 3d 2c")
    assert a == b
    assert hash(a) == hash(b)
    assert a.best != b.best
    assert value("Ts Js Qs Ks As 2c 3d") == value("Th Jh Qh Kh Ah 2c 3d")
    assert rank_value(cards("9s 9h 5c 5d Kc")) == rank_value(cards("9c 9d 5h 5s Kd"))


def test_kickers_fill_the_hand_with_the_highest_other_cards() -> None:
    """ "Een pokerhand bestaat altijd uit precies vijf kaarten. Telt je combinatie minder
    kaarten, zoals een paar, dan vul je hem aan met je hoogste overige kaarten." """
    pair = value("7c 7d Ah 9s 4d 3c 2h")
    assert (pair.category, pair.ranks) == (Category.PAIR, (7, 14, 9, 4))
    assert [c.rank for c in pair.best] == [7, 7, 14, 9, 4]
    assert pair.describe() == "pair of sevens"
    # The sixth and seventh cards never count.
    assert value("7c 7d Ah 9s 4d 3c 2h") == value("7h 7s Ad 9c 4c 2s 3h")


def test_kickers_decide_equal_combinations() -> None:
    """ "Hebben twee spelers dezelfde combinatie, dan beslissen de kickers wie de sterkste
    hand heeft." """
    assert value("7c 7d Ah 9s 4d") > value("7h 7s Ad 8c 6c")
    assert value("7c 7d Ah 9s 5d") > value("7h 7s Ad 9c 4c")


def test_high_card_compares_kickers_one_by_one() -> None:
    """ "Hebben spelers dezelfde hoogste kaart, dan vergelijk je de kickers één voor één,
    van hoog naar laag." """
    assert value("Ac Jd 9h 6s 3c").ranks == (14, 11, 9, 6, 3)
    assert value("Ac Jd 9h 6s 3c") > value("Ad Jc 9s 6h 2c")
    assert value("Ac Jd 9h 6s 3c") < value("Ad Qc 2s 3h 4c")
    assert value("Ac Jd 9h 6s 3c").describe() == "high card ace"


def test_higher_pair_wins() -> None:
    """ "Het hogere paar wint. Bij een gelijk paar beslissen de kickers." """
    assert value("8c 8d 2h 3s 4c") > value("7c 7d Ah Ks Qc")


def test_two_pair_compares_high_pair_then_low_pair_then_fifth_card() -> None:
    """ "Eerst vergelijk je de hoogste paren, daarna de laagste paren en als laatste de
    vijfde kaart." """
    kings_fours = value("Kc Kd 4h 4s 9c 2d 3h")
    assert (kings_fours.category, kings_fours.ranks) == (Category.TWO_PAIR, (13, 4, 9))
    assert kings_fours.describe() == "two pair, kings and fours"
    assert kings_fours > value("Qc Qd Jh Js Ac")
    assert kings_fours > value("Kh Ks 3h 3s Ac")
    assert kings_fours < value("Kh Ks 4c 4d Tc")
    assert kings_fours == value("Kh Ks 4c 4d 9h")


def test_three_pairs_play_the_best_two_and_the_best_fifth_card() -> None:
    """ "Twee paar (Two Pair). Twee keer twee kaarten met dezelfde waarde." (best 5 of 7)"""
    assert value("Kc Kd 4h 4s 9c 9d 2h").ranks == (13, 9, 4)
    assert value("Kc Kd 4h 4s 2c 2d 3h").ranks == (13, 4, 3)
    assert value("Kc Kd 4h 4s 2c 2d Jh Jc").ranks == (13, 11, 4)


def test_highest_three_of_a_kind_wins_then_two_kickers() -> None:
    """ "Het hoogste drietal wint. Bij een gelijk drietal beslissen de twee kickers." """
    trips = value("5c 5d 5h Ks 9c 2d 3h")
    assert (trips.category, trips.ranks) == (Category.THREE_OF_A_KIND, (5, 13, 9))
    assert trips > value("4c 4d 4h As Kc")
    assert trips > value("5c 5d 5s Kh 8c")


@pytest.mark.parametrize(
    ("text", "top"),
    [
        ("Ac 2d 3h 4s 5c", 5),
        ("Ac 2d 3h 4s 5c Kd 9h", 5),
        ("Ac 2d 3h 4s 5c 6d Kh", 6),
        ("Tc Jd Qh Ks Ac", 14),
        ("Tc Jd Qh Ks Ac 9d 8h", 14),
    ],
)
def test_ace_plays_high_or_low_in_a_straight(text: str, top: int) -> None:
    """ "De aas mag de hoogste of de laagste kaart zijn (10-B-V-H-A of A-2-3-4-5), maar nooit
    in het midden." """
    straight = value(text)
    assert (straight.category, straight.ranks) == (Category.STRAIGHT, (top,))


def test_the_wheel_is_the_lowest_straight_with_five_on_top() -> None:
    """ "De straat met de hoogste kaart wint." with A-2-3-4-5 topped by its five."""
    wheel = value("Ac 2d 3h 4s 5c")
    assert wheel.describe() == "straight to the five"
    assert [c.rank for c in wheel.best] == [5, 4, 3, 2, 14]
    assert wheel < value("2c 3d 4h 5s 6c")
    assert wheel > value("Ac Ad Ah Ks Qc")


@pytest.mark.parametrize(
    "text", ["Kc Ad 2h 3s 4c", "Qc Kd Ah 2s 3c", "Jc Qd Kh As 2c", "Kc Ad 2h 3s 4c 8d 9h Tc"]
)
def test_a_straight_never_wraps(text: str) -> None:
    """ "H-A-2-3-4 is dus geen straat." """
    assert value(text).category is Category.HIGH_CARD


def test_flushes_compare_card_by_card() -> None:
    """ "Bij meerdere flushes wint de hoogste kaart. Is die gelijk, dan kijk je naar de
    tweede kaart, enzovoort." """
    flush = value("Ah Jh 9h 6h 3h 2c Kd")
    assert (flush.category, flush.ranks) == (Category.FLUSH, (14, 11, 9, 6, 3))
    assert flush.describe() == "flush to the ace"
    assert flush > value("Kc Qc Jc 9c 7c")
    assert flush > value("As Js 9s 6s 2s")
    assert flush < value("As Js 9s 6s 4s")
    six_hearts = value("Ah Jh 9h 6h 3h 2h Kd")
    assert six_hearts == flush
    assert all(c.suit == "h" for c in six_hearts.best)


def test_full_house_by_its_trio_then_its_pair() -> None:
    """ "Het hoogste drietal wint. Is dat gelijk, dan wint het hoogste paar." """
    boat = value("6c 6d 6h 3s 3c Kd 2h")
    assert (boat.category, boat.ranks) == (Category.FULL_HOUSE, (6, 3))
    assert boat.describe() == "full house, sixes over threes"
    assert boat > value("5c 5d 5h As Ac")
    assert boat < value("6c 6d 6h 4s 4c")
    assert value("6c 6d 6h 3s 3c 3d Kd").ranks == (6, 3)
    assert value("6c 6d 6h 3s 3c 9d 9h").ranks == (6, 9)


def test_four_of_a_kind_then_the_fifth_card() -> None:
    """ "De hoogste carré wint. Bij een gelijke carré beslist de vijfde kaart." """
    quads = value("9c 9d 9h 9s 2c Kd 3h")
    assert (quads.category, quads.ranks) == (Category.FOUR_OF_A_KIND, (9, 13))
    assert quads > value("8c 8d 8h 8s Ac")
    assert quads > value("9c 9d 9h 9s Qc")
    assert value("9c 9d 9h 9s 2c 2d 2h Kc").ranks == (9, 13)
    assert value("9c 9d 9h 9s 2c 2d 2h 2s").ranks == (9, 2)


def test_straight_flush_by_its_top_card() -> None:
    """ "Een straat waarvan alle vijf kaarten dezelfde kleur hebben. De straight flush met
    de hoogste kaart wint." """
    steel_wheel = value("Ad 2d 3d 4d 5d 6c Kd")
    assert (steel_wheel.category, steel_wheel.ranks) == (Category.STRAIGHT_FLUSH, (5,))
    assert steel_wheel.describe() == "straight flush to the five"
    assert steel_wheel < value("2h 3h 4h 5h 6h")
    assert steel_wheel > value("Ac Ad Ah As Kc")
    # Five to a straight and five of a suit are not a straight flush unless they coincide.
    assert value("4c 5c 6c 7c 8d Kc 2h").category is Category.FLUSH


def test_royal_flush_is_its_own_category_and_the_strongest() -> None:
    """ "Royal flush. Een straight flush van 10 tot en met aas. Dit is de sterkste hand in
    het spel." """
    royal = value("Tc Jc Qc Kc Ac 9c 2h")
    assert (royal.category, royal.ranks) == (Category.ROYAL_FLUSH, (14,))
    assert royal.describe() == "royal flush"
    assert Category.ROYAL_FLUSH.label == "royal flush"
    assert royal > value("9d Td Jd Qd Kd")
    assert royal == value("Th Jh Qh Kh Ah")
    assert [c.rank for c in royal.best] == [14, 13, 12, 11, 10]


def test_security_cameras_best_five_of_three_hole_cards_and_the_board() -> None:
    """ "Iedereen krijgt drie handkaarten in plaats van twee. Bij de onthulling maak je de
    sterkste hand van vijf kaarten uit je drie handkaarten en de vijf gedeelde kaarten." """
    hole, board = cards("Qs Qd 7h"), cards("Qc 7c 7d 2s 3h")
    boat = evaluate(hole + board)
    assert (boat.category, boat.ranks) == (Category.FULL_HOUSE, (12, 7))
    assert value("Kh Qh 2c Jh Th 9h 3d 4s").category is Category.STRAIGHT_FLUSH


@pytest.mark.parametrize("size", [6, 7, 8])
def test_best_of_many_is_the_best_five_card_subset(size: int) -> None:
    """ "Een pokerhand bestaat altijd uit precies vijf kaarten." (brute force over subsets)"""
    rng = random.Random(size)
    for _ in range(300):
        hand = rng.sample(DECK, size)
        assert evaluate(hand) == max(evaluate(five) for five in itertools.combinations(hand, 5))


SUITLESS_JACK = Card(11, None)


@pytest.mark.parametrize(
    ("text", "category", "ranks", "plays_the_jack"),
    [
        ("2h 5h 9h Kh J* 3c 4d", Category.HIGH_CARD, (13, 11, 9, 5, 4), True),
        ("9h Th Qh Kh J* 2c 3d", Category.STRAIGHT, (13,), True),
        ("9h Th Qh Kh Ah J* 3d", Category.FLUSH, (14, 13, 12, 10, 9), False),
        ("Th Qh Kh Ah J* 2c 3d", Category.STRAIGHT, (14,), True),
        ("8c 9d Tc J* Qh 2s 3s", Category.STRAIGHT, (12,), True),
        ("Jc J* 2h 5s 8c 9d Kh", Category.PAIR, (11, 13, 9, 8), True),
        ("Jc Jd J* 4h 4s 2c 9d", Category.FULL_HOUSE, (11, 4), True),
        ("Jc Jd Jh J* 2c 9d 3h", Category.FOUR_OF_A_KIND, (11, 9), True),
    ],
)
def test_the_suitless_jack_counts_as_a_jack_but_never_for_a_flush(
    text: str, category: Category, ranks: tuple[int, ...], plays_the_jack: bool
) -> None:
    """ "De Jack telt als een boer, maar heeft geen kleur en telt dus niet mee voor een
    flush." """
    hand = value(text)
    assert (hand.category, hand.ranks) == (category, ranks)
    assert rank_value(cards(text)) == hand.strength
    assert (SUITLESS_JACK in hand.best) is plays_the_jack


def test_the_suitless_jack_plays_like_any_jack_outside_flushes() -> None:
    """ "De Jack telt als een boer" """
    assert value("Jc Jd Jh J* 2c") == value("Jc Jd Jh Js 2c")
    assert value("8c 9d Tc J* Qh") == value("8c 9d Tc Js Qh")
    assert value("8h 9h Th J* Qh") < value("8h 9h Th Jh Qh")


@pytest.mark.parametrize(
    "text", ["Jc Jd Jh Js J*", "Jc Jd Jh Js J* 9c 2d", "Jc Jd Jh Js J* Tc 9c 8c"]
)
def test_five_jacks_are_four_jacks_with_a_jack_kicker(text: str) -> None:
    """ "Heb je met de Jack en de vier gewone boeren vijf boeren, dan telt dat als een carré
    boeren met een boer als kicker." """
    hand = value(text)
    assert (hand.category, hand.ranks) == (Category.FOUR_OF_A_KIND, (11, 11))
    assert sorted(str(c) for c in hand.best) == ["J*", "Jc", "Jd", "Jh", "Js"]
    assert hand.describe() == "four of a kind, jacks"
    assert hand > value("Jc Jd Jh Js Tc")
    assert hand < value("Jc Jd Jh Js Qc")
    assert hand < value("Qc Qd Qh Qs 2c")


def test_five_jacks_with_a_higher_card_keep_the_higher_kicker() -> None:
    """A judgement on "... dan telt dat als een carré boeren met een boer als kicker": the
    general kicker rule ("dan vul je hem aan met je hoogste overige kaarten") picks the
    best five of seven, so five jacks with an ace play J-J-J-J-A."""
    hand = value("Jc Jd Jh Js J* Ac 2d")
    assert (hand.category, hand.ranks) == (Category.FOUR_OF_A_KIND, (11, 14))
