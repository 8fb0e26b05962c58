"""The suitless Jack specialist against an independent oracle: every five-card hand with it.

Seed: "De Jack telt als een boer, maar heeft geen kleur en telt dus niet mee voor een flush.
Heb je met de Jack en de vier gewone boeren vijf boeren, dan telt dat als een carré boeren
met een boer als kicker."

The oracle uses no code of ``engines.poker``, only phevaluator (rank 1 = royal flush ..
7462 = seven high, smaller is stronger). Its key is twice phevaluator's rank, which leaves
an odd slot between two neighbouring hands:

* five cards, ``J*`` and four others: a flush needs all five cards of one suit, so ``J*`` is
  in none. The hand is worth the same five with ``J*`` replaced by an ordinary jack that is
  not among the four and makes no flush (of another suit than the four, when they are all
  one suit). Such a jack exists unless the four are the four ordinary jacks: five jacks,
  four jacks with a jack kicker by the seed, which the kicker rule puts between four jacks
  with a ten and four jacks with a queen (neighbours in phevaluator): the odd slot there;
* six to eight cards: the best of the five-card subsets, those with ``J*`` from the
  five-card table above, those without it all at once by phevaluator on the other cards.

"Agrees" means what it means in ``test_poker_oracle``: the same category for every hand,
and, sorted by our strength, the oracle's key falls strictly where ours rises and stays put
where ours does.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from functools import cache

import pytest
from phevaluator.card import Card as PheCard
from phevaluator.evaluator import evaluate_5cards, evaluate_6cards, evaluate_7cards

from engines.cards import DECK, Card, Suit
from engines.poker import Category, evaluate, rank_values
from engines.poker.hands import decode
from tests.poker.test_poker_oracle import PHE_CATEGORY_ENDS

SEED = 20240611
SAMPLED_HANDS = 30_000
SKEWED_SHARE = 0.4

Hand = tuple[Card, ...]
OracleTable = dict[int, int]

JACK = Card(11, None)
ORDINARY_JACKS = tuple(Card(11, suit) for suit in Suit)
FLUSHES = (Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)

PHE_ID: dict[Card, int] = {card: PheCard(str(card)).id_ for card in DECK}
PHE_BIT: dict[Card, int] = {card: 1 << PHE_ID[card] for card in DECK}
PHE_EVALUATORS: dict[int, Callable[..., int]] = {
    5: evaluate_5cards,
    6: evaluate_6cards,
    7: evaluate_7cards,
}


def phe_key(hand: Sequence[Card]) -> int:
    """Twice phevaluator's rank of the best five of 5 to 7 ordinary cards."""
    return 2 * int(PHE_EVALUATORS[len(hand)](*(PHE_ID[card] for card in hand)))


def four_jacks_and(kicker: str) -> int:
    return phe_key([*ORDINARY_JACKS, Card.parse(kicker)])


# Five jacks: four jacks with a jack kicker, just below four jacks with a queen.
FIVE_JACKS_KEY = four_jacks_and("Qc") + 1


def oracle_category(key: int) -> Category:
    if key == FIVE_JACKS_KEY:
        return Category.FOUR_OF_A_KIND
    assert key % 2 == 0, f"odd oracle key {key} is not the five jacks"
    return next(category for end, category in PHE_CATEGORY_ENDS if key // 2 <= end)


def stand_in_jack(others: Sequence[Card]) -> Card | None:
    """An ordinary jack worth what ``J*`` is worth among four other cards (None: five jacks)."""
    suits = {card.suit for card in others}
    for jack in ORDINARY_JACKS:
        if jack not in others and (len(suits) > 1 or jack.suit not in suits):
            return jack
    assert set(others) == set(ORDINARY_JACKS)
    return None


def five_card_key(others: Sequence[Card]) -> int:
    """The oracle's key of ``J*`` with four other cards."""
    jack = stand_in_jack(others)
    return FIVE_JACKS_KEY if jack is None else phe_key([*others, jack])


def phe_mask(cards: Sequence[Card]) -> int:
    return sum(PHE_BIT[card] for card in cards)


@cache
def five_card_table() -> tuple[list[Hand], list[int], OracleTable]:
    """Every ``J*`` + four of the 52 (270,725 hands), each one's oracle key, and the keys
    by the phevaluator mask of the four others (the oracle for larger hands)."""
    fours = list(itertools.combinations(DECK, 4))
    keys = [five_card_key(four) for four in fours]
    table = {phe_mask(four): key for four, key in zip(fours, keys, strict=True)}
    return [(JACK, *four) for four in fours], keys, table


def oracle_key(hand: Sequence[Card], table: OracleTable) -> int:
    """The oracle's key of the best five of a hand of 5 to 8 cards holding ``J*``."""
    others = [card for card in hand if card != JACK]
    assert len(others) == len(hand) - 1
    bits = [PHE_BIT[card] for card in others]
    best = min(table[a + b + c + d] for a, b, c, d in itertools.combinations(bits, 4))
    return min(best, phe_key(others)) if len(others) >= 5 else best


def show(hand: Sequence[Card]) -> str:
    return " ".join(map(str, hand))


def assert_same_order(ours: Sequence[int], theirs: Sequence[int], hands: Sequence[Hand]) -> None:
    """Sorted by ours, theirs (smaller = stronger) falls strictly, with identical ties."""
    order = sorted(range(len(ours)), key=ours.__getitem__)
    wrong = []
    for i, j in itertools.pairwise(order):
        same_ours, same_theirs = ours[i] == ours[j], theirs[i] == theirs[j]
        if same_ours != same_theirs or (not same_ours and theirs[j] > theirs[i]):
            wrong.append((show(hands[i]), show(hands[j])))
    assert not wrong, f"{len(wrong)} disagreements, first: {wrong[:3]}"


def assert_same_categories(
    ours: Sequence[int], theirs: Sequence[int], hands: Sequence[Hand]
) -> None:
    wrong = [
        (show(hand), decode(mine)[0].name, oracle_category(other).name)
        for hand, mine, other in zip(hands, ours, theirs, strict=True)
        if decode(mine)[0] is not oracle_category(other)
    ]
    assert not wrong, f"{len(wrong)} category disagreements, first: {wrong[:3]}"


# --- The oracle's own footing -------------------------------------------------------------


def test_the_five_jacks_slot_is_free_in_the_oracle() -> None:
    """ "... een carré boeren met een boer als kicker": the kicker rule ("Bij een gelijke
    carré beslist de vijfde kaart") puts a jack kicker between a ten and a queen, which
    phevaluator ranks next to each other, so the odd key between them is no other hand."""
    assert four_jacks_and("Tc") == four_jacks_and("Qc") + 2
    assert four_jacks_and("Qc") < FIVE_JACKS_KEY < four_jacks_and("Tc")


def test_a_stand_in_jack_exists_for_every_four_but_the_four_jacks() -> None:
    hands, keys, table = five_card_table()
    assert len(hands) == len(table) == 270_725
    assert keys.count(FIVE_JACKS_KEY) == 1
    assert sum(stand_in_jack(hand[1:]) is None for hand in hands) == 1


# --- Five cards: every hand ----------------------------------------------------------------


@pytest.fixture(scope="module")
def five_cards() -> tuple[list[Hand], list[int], list[int]]:
    """Every five-card hand with ``J*``, our strengths (rank_values), the oracle's keys."""
    hands, keys, _ = five_card_table()
    return hands, rank_values(hands), keys


def test_every_five_card_jack_hand_has_the_oracle_category(
    five_cards: tuple[list[Hand], list[int], list[int]],
) -> None:
    hands, ours, theirs = five_cards
    assert_same_categories(ours, theirs, hands)
    assert {decode(mine)[0] for mine in ours} == set(Category) - set(FLUSHES)


def test_every_five_card_jack_hand_orders_like_the_oracle(
    five_cards: tuple[list[Hand], list[int], list[int]],
) -> None:
    """Order and ties, the five jacks included (in the oracle's slot for them)."""
    hands, ours, theirs = five_cards
    assert_same_order(ours, theirs, hands)


def test_every_five_card_jack_hand_is_worth_its_stand_in_jack_hand(
    five_cards: tuple[list[Hand], list[int], list[int]],
) -> None:
    """The same strength, not just the same place: against eval7's path on ordinary cards."""
    hands, ours, _ = five_cards
    pairs = [(hand, stand_in_jack(hand[1:])) for hand in hands]
    ordinary = [(*hand[1:], jack) for hand, jack in pairs if jack is not None]
    jack_hands = [strength for (_, jack), strength in zip(pairs, ours, strict=True) if jack]
    assert rank_values(ordinary) == jack_hands


def test_five_jacks_are_four_jacks_with_a_jack_kicker_and_nothing_else_is(
    five_cards: tuple[list[Hand], list[int], list[int]],
) -> None:
    """ "Heb je met de Jack en de vier gewone boeren vijf boeren, dan telt dat als een carré
    boeren met een boer als kicker." Exactly one five-card hand, and a strength of its own."""
    hands, ours, _ = five_cards
    own = [
        (show(hand), decode(mine))
        for hand, mine in zip(hands, ours, strict=True)
        if decode(mine)[1] == (11, 11)
    ]
    assert own == [("J* Jc Jd Jh Js", (Category.FOUR_OF_A_KIND, (11, 11)))]


def test_every_five_card_jack_hand_plays_all_five_cards_the_jack_too(
    five_cards: tuple[list[Hand], list[int], list[int]],
) -> None:
    """With five cards there is no flush to leave ``J*`` out of: ``best`` is the hand."""
    hands, ours, _ = five_cards
    wrong = []
    for hand, strength in zip(hands, ours, strict=True):
        value = evaluate(hand)
        if value.strength != strength or len(value.best) != 5 or set(value.best) != set(hand):
            wrong.append((show(hand), show(value.best)))
    assert not wrong, f"{len(wrong)} wrong, first: {wrong[:3]}"


def test_four_of_a_suit_and_the_jack_is_never_a_flush() -> None:
    """ "... heeft geen kleur en telt dus niet mee voor een flush": every four hearts with
    ``J*`` and one more card (34,320 hands) is a flush or better only when that card is a
    heart, and agrees with the oracle (``J*`` as a jack of a suit that is not hearts)."""
    hearts = [card for card in DECK if card.suit is Suit.HEARTS]
    hands: list[Hand] = []
    theirs: list[int] = []
    for four in itertools.combinations(hearts, 4):
        for extra in DECK:
            if extra in four:
                continue
            hand = (*four, JACK, extra)
            jack = next(j for j in ORDINARY_JACKS if j.suit is not Suit.HEARTS and j != extra)
            hands.append(hand)
            theirs.append(phe_key([*four, extra, jack]))
    ours = rank_values(hands)
    assert len(hands) == 715 * 48
    wrong = [
        show(hand)
        for hand, mine in zip(hands, ours, strict=True)
        if (decode(mine)[0] in FLUSHES) != (hand[-1].suit is Suit.HEARTS)
    ]
    assert not wrong, f"{len(wrong)} wrong, first: {wrong[:3]}"
    assert_same_categories(ours, theirs, hands)
    assert_same_order(ours, theirs, hands)


# --- Six to eight cards: samples -----------------------------------------------------------


def skewed_others(rng: random.Random, count: int) -> list[Card]:
    """The other cards from a small deck, so jack-heavy and suited hands turn up often: a run
    of 7 ranks around the jack in 2 suits; 3 ranks, the jack among them, in all suits; or one
    suit's run of 6 ranks around the jack with a few other cards."""
    suits = list(Suit)
    kind = rng.random()
    if kind < 0.4:
        low = rng.randint(5, 8)
        deck = [Card(rank, suit) for rank in range(low, low + 7) for suit in rng.sample(suits, 2)]
    elif kind < 0.7:
        ranks = [11, *rng.sample([rank for rank in range(2, 15) if rank != 11], 2)]
        deck = [Card(rank, suit) for rank in ranks for suit in suits]
    else:
        low = rng.randint(7, 9)
        suit = rng.choice(suits)
        run = [Card(rank, suit) for rank in range(low, low + 6)]
        deck = run + rng.sample([card for card in DECK if card not in run], 4)
    return rng.sample(deck, count)


@pytest.fixture(scope="module", params=[6, 7, 8], ids=["6 cards", "7 cards", "8 cards"])
def sample(request: pytest.FixtureRequest) -> tuple[list[Hand], list[int], list[int]]:
    """Hands of one size with ``J*`` (uniform, then skewed), our strengths, oracle keys."""
    size: int = request.param
    rng = random.Random(SEED + size)
    skewed = int(SAMPLED_HANDS * SKEWED_SHARE)
    hands = [(JACK, *rng.sample(DECK, size - 1)) for _ in range(SAMPLED_HANDS - skewed)]
    hands += [(JACK, *skewed_others(rng, size - 1)) for _ in range(skewed)]
    _, _, table = five_card_table()
    return hands, rank_values(hands), [oracle_key(hand, table) for hand in hands]


def test_sampled_jack_hands_have_the_oracle_category(
    sample: tuple[list[Hand], list[int], list[int]],
) -> None:
    hands, ours, theirs = sample
    assert_same_categories(ours, theirs, hands)
    assert {decode(mine)[0] for mine in ours} == set(Category)
    assert FIVE_JACKS_KEY in theirs


def test_sampled_jack_hands_order_like_the_oracle(
    sample: tuple[list[Hand], list[int], list[int]],
) -> None:
    hands, ours, theirs = sample
    assert_same_order(ours, theirs, hands)


def test_best_holds_the_jack_only_when_it_is_needed(
    sample: tuple[list[Hand], list[int], list[int]],
) -> None:
    """``best`` is five of the cards worth the whole hand (by the oracle), and holds ``J*``
    exactly when the other cards alone make a weaker hand: never in a flush, and not when a
    suited jack can play its part (a suited card goes first among equals)."""
    hands, ours, theirs = sample
    _, _, table = five_card_table()
    wrong = []
    for hand, strength, key in zip(hands, ours, theirs, strict=True):
        value = evaluate(hand)
        best = value.best
        needed = phe_key(hand[1:]) > key
        worth = oracle_key(best, table) if JACK in best else phe_key(best)
        if not (
            value.strength == strength
            and len(set(best)) == 5
            and set(best) <= set(hand)
            and worth == key
            and (JACK in best) == needed
            and not (value.category in FLUSHES and JACK in best)
        ):
            wrong.append((show(hand), show(best)))
    assert not wrong, f"{len(wrong)} wrong, first: {wrong[:3]}"
    assert any(JACK in evaluate(hand).best for hand in hands)
    assert any(JACK not in evaluate(hand).best for hand in hands)
