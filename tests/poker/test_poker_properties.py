"""Properties that hold for every hand, on hypothesis-generated hands."""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.cards import DECK, Card, Suit
from engines.poker import Category, evaluate, rank_value

SUITLESS_JACK = Card(11, None)
SETTINGS = settings(max_examples=300, deadline=None)

hands = st.lists(st.sampled_from(DECK), min_size=5, max_size=8, unique=True)
jack_hands = st.lists(st.sampled_from(DECK), min_size=4, max_size=7, unique=True).map(
    lambda others: [SUITLESS_JACK, *others]
)
any_hands = st.one_of(hands, jack_hands)


@SETTINGS
@given(hands, st.permutations(list(Suit)))
def test_renaming_suits_changes_nothing(hand: list[Card], suits: list[Suit]) -> None:
    rename = dict(zip(Suit, suits, strict=True))
    renamed = [Card(card.rank, rename[card.suit] if card.suit else None) for card in hand]
    assert evaluate(renamed) == evaluate(hand)
    assert rank_value(renamed) == rank_value(hand)


@SETTINGS
@given(any_hands, st.randoms(use_true_random=False))
def test_card_order_changes_nothing_not_even_best(hand: list[Card], rng: Random) -> None:
    shuffled = list(hand)
    rng.shuffle(shuffled)
    a, b = evaluate(hand), evaluate(shuffled)
    assert a == b
    assert a.best == b.best


@SETTINGS
@given(any_hands)
def test_best_is_five_of_the_cards_and_worth_the_hand(hand: list[Card]) -> None:
    value = evaluate(hand)
    assert len(set(value.best)) == 5
    assert set(value.best) <= set(hand)
    assert evaluate(value.best) == value
    assert rank_value(hand) == value.strength


@SETTINGS
@given(any_hands.filter(lambda hand: len(hand) < 8), st.sampled_from(DECK))
def test_another_card_never_hurts(hand: list[Card], extra: Card) -> None:
    if extra not in hand:
        assert evaluate([*hand, extra]) >= evaluate(hand)


@SETTINGS
@given(jack_hands)
def test_the_suitless_jack_is_a_jack_that_makes_no_flush(hand: list[Card]) -> None:
    """Against the same hand with a suited jack instead: never stronger, and equal unless
    that jack's suit would make a flush (five or more cards of the suit)."""
    others = [card for card in hand if card is not SUITLESS_JACK]
    value = evaluate(hand)
    assert value.category not in (Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH) or any(
        sum(card.suit == suit for card in others) >= 5 for suit in Suit
    )
    for suit in Suit:
        jack = Card(11, suit)
        if jack in others:
            continue
        suited = evaluate([*others, jack])
        assert value <= suited
        if sum(card.suit == suit for card in others) < 4:
            assert value == suited
