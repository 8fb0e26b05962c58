"""Gang of Four's cards and combinations: one test per rule, each quoting the rule it checks.

Quotes are from the German rule seed (``shared/seeds/003_*.txt``, OCR damage and all) unless
marked RULES-NOTES (``shared/RULES-NOTES.md``, Gang of Four). Points the texts leave open are
marked DECISION and documented in ``engines/gang_of_four/combos.py``.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections import Counter
from collections.abc import Sequence

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.errors import InvalidMoveError
from engines.gang_of_four.cards import (
    DECK,
    HAND_SIZE,
    MULTICOLOURED_ONE,
    Colour,
    GofCard,
    cards,
)
from engines.gang_of_four.combos import (
    Combination,
    Kind,
    beats,
    classify,
    combinations_in,
    is_valid_play,
    plays_beating,
)


def combo(text: str) -> Combination:
    return classify(cards(text))


def hand(text: str) -> tuple[GofCard, ...]:
    return tuple(sorted(cards(text)))


def higher(new: str, current: str) -> None:
    """``new`` beats ``current`` and not the other way round."""
    assert beats(combo(new), combo(current))
    assert not beats(combo(current), combo(new))


def refused(text: str) -> str:
    """The reason ``classify`` gives for refusing these cards."""
    with pytest.raises(InvalidMoveError) as info:
        classify(cards(text))
    return info.value.reason


def sub_multisets(held: Sequence[GofCard]) -> set[tuple[GofCard, ...]]:
    """Every non-empty sub-multiset of a sorted hand, as sorted tuples (brute force)."""
    return {
        chosen
        for size in range(1, len(held) + 1)
        for chosen in itertools.combinations(sorted(held), size)
    }


def brute_force_listing(held: Sequence[GofCard]) -> dict[tuple[GofCard, ...], Combination]:
    found = {}
    for chosen in sub_multisets(held):
        with contextlib.suppress(InvalidMoveError):
            found[chosen] = classify(chosen)
    return found


# Hands that stress the listing: long one-colour runs with duplicates and the multicoloured 1
# (the most flushes), three colours over few values (the most straights), many Gangs.
WORST_HANDS = [
    "g1 g1 m1 g2 g3 g4 g5 g6 g6 g7 g8 g8 g9 g9 g10 g10",
    "g1 y1 r1 m1 g2 y2 r2 g3 y3 r3 g4 y4 r4 g5 y5 r5",
    "g3 y3 r3 g4 y4 r4 g5 y5 r5 g6 y6 r6 g7 y7 r7 y8",
    "g1 g1 y1 y1 r1 r1 m1 g2 g2 y2 y2 r2 r2 gP yP rD",
    "r2 r2 r3 r3 r4 r4 r5 r5 r6 r6 r7 r7 r8 r8 r9 r9",
]


# --- the cards ---------------------------------------------------------------------------


def test_the_deck_has_sixty_four_cards() -> None:
    """Seed: "64 Karten" ... "sechzig Karten in den Farben Grün, Gelb und Rot, mit jeweils
    zwei von 1 bis 10 durchnummerierten Kartensätzen / eine mehrfarbige Eins / ein gruner und
    ein gelber Phonix / ein roter Drache"."""
    assert len(DECK) == 64
    counts = Counter(DECK)
    for value in range(1, 11):
        for colour in (Colour.GREEN, Colour.YELLOW, Colour.RED):
            assert counts[GofCard(value, colour)] == 2
    specials = [card for card in DECK if card.value > 10 or card.colour == Colour.MULTICOLOURED]
    assert [str(card) for card in specials] == ["m1", "gP", "yP", "rD"]
    assert list(DECK) == sorted(DECK)


def test_four_players_get_sixteen_cards_each() -> None:
    """Seed: "Die Karten werden an die vier Spieler verteil, so dass jeder 16 erhält."."""
    assert len(DECK) == HAND_SIZE * 4


def test_single_card_order() -> None:
    """RULES-NOTES: "Single-card order: value first, then colour green < yellow < red. The
    multicoloured 1 is the highest 1 (above red 1, below green 2). Phoenixes above every 10
    (yellow > green); Dragon highest". Seed: "GRUN < GELB < ROT", "Die mehrfarbige Eins ist
    die höchste Eins", "Der gelbe Phönix kann den grünen schlagen", "Der Drache ist die
    stärkste Einzelkarte im Spiel"."""
    order = "g1 y1 r1 m1 g2 y2 r2 g9 r9 g10 y10 r10 gP yP rD"
    assert sorted(cards(order)) == list(cards(order))
    for low, high in itertools.pairwise(order.split()):
        higher(high, low)


def test_card_codes_round_trip_and_bad_codes_are_refused() -> None:
    """Codes "g1".."r10", "m1", "gP", "yP", "rD"; ``parse`` refuses anything else."""
    for card in DECK:
        assert GofCard.parse(str(card)) == card
    assert cards("g5 g5 m1") == (GofCard(5, Colour.GREEN),) * 2 + (MULTICOLOURED_ONE,)
    for bad in ["", "g0", "g11", "x5", "m2", "rP", "gD", "G5", "g 5", "yD"]:
        with pytest.raises(InvalidMoveError) as info:
            GofCard.parse(bad)
        assert info.value.reason == "UNKNOWN_CARD"


def test_card_predicates_and_encoding() -> None:
    """Phoenix, Dragon and the multicoloured 1 are recognisable; cards encode compactly."""
    assert [card for card in DECK if card.is_phoenix] == list(cards("gP yP"))
    assert [card for card in DECK if card.is_dragon] == list(cards("rD"))
    assert [card for card in DECK if card.is_multicoloured_one] == [MULTICOLOURED_ONE]
    assert msgspec.json.encode(cards("g10 m1")) == b"[[10,0],[1,3]]"
    decoded = msgspec.msgpack.decode(msgspec.msgpack.encode(DECK), type=tuple[GofCard, ...])
    assert decoded == DECK


# --- what may be played together ---------------------------------------------------------


@pytest.mark.parametrize("card", sorted(set(DECK)), ids=str)
def test_any_one_card_is_a_single(card: GofCard) -> None:
    """Seed: "EINZELKARTE (z. B. eine gelbe 3 oder der Drache)"."""
    assert classify([card]) == Combination(Kind.SINGLE, (card,), 1, (Kind.SINGLE, 1, card.rank))


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("r1 r1", Kind.PAIR),
        ("gP yP", Kind.PAIR),
        ("g3 y3", Kind.PAIR),
        ("m1 g1", Kind.PAIR),
        ("g2 y2 r2", Kind.THREE_OF_A_KIND),
        ("r4 r4 y4", Kind.THREE_OF_A_KIND),
        ("y1 r1 m1", Kind.THREE_OF_A_KIND),
    ],
)
def test_pairs_and_triples(text: str, kind: Kind) -> None:
    """Seed: "PARCHEN (z.B. zwei rote Einser oder die beiden Phönixe)", "DRILLING (z.B. eine
    grüne, eine gelbe und eine rote Zwei, oder zwei rote und eine gelbe vier)"."""
    assert combo(text).kind == kind
    assert combo(text).size == len(text.split())


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("g2 y3 r4 g5 y6", Kind.STRAIGHT),
        ("m1 g2 y3 r4 g5", Kind.STRAIGHT),
        ("g6 y7 r8 y9 g10", Kind.STRAIGHT),
        ("g2 g2 g4 g7 g10", Kind.FLUSH),
        ("r5 r6 r7 r7 r9", Kind.FLUSH),
        ("g6 y6 r6 g3 y3", Kind.FULL_HOUSE),
        ("g2 y2 r2 r8 r8", Kind.FULL_HOUSE),
        ("y2 y3 y4 y5 y6", Kind.STRAIGHT_FLUSH),
        ("r6 r7 r8 r9 r10", Kind.STRAIGHT_FLUSH),
    ],
)
def test_five_card_combinations(text: str, kind: Kind) -> None:
    """Seed: "StraBe (5 aufeinander folgende Karten mit beliebigen Farben - z.B. 2, 3, 4, 5, 6)",
    "Flush (5 Karten derselben Farbe mit beliebigen Zahlen)", "Full House (ein Drilling und
    ein Pärchen)", "Straight (fünfaufeinander folgende Karten derselben Farbe)"."""
    assert combo(text).kind == kind
    assert combo(text).size == 5


@pytest.mark.parametrize(
    "text",
    [
        "g10 y10 y10 r10",
        "g8 g8 y8 y8 r8",
        "g4 g4 y4 y4 r4 r4",
        "g1 g1 y1 y1 r1 r1 m1",
        "g1 y1 r1 m1",
        "g1 g1 y1 r1 m1",
    ],
)
def test_gangs_are_four_to_seven_cards_of_one_value(text: str) -> None:
    """Seed: "Gang of Four (z. B. grüne 10, zwei gelbe 10er, rote 10) / Gang of Five (z. B. zwei
    grüne 8er, zwei gelbe 8er, rote 8) / Gang of Six (z. B. zwei grüne 4er, zwei gelbe 4er,
    zwei rote 4er) / Gang of Seven (alle sieben 1er, inklusive der mehrfarbigen 1)"."""
    assert (combo(text).kind, combo(text).size) == (Kind.GANG, len(text.split()))


def test_five_of_one_value_is_a_gang_not_a_five_card_combination() -> None:
    """Seed: "Wenn in dieser Regel von einer Kombination aus fünf Karten die Rede ist, sind damit
    eine Straße, ein Flush, ein Full House und ein Straight Flush gemeint - kein „Gang of
    Five"."."""
    assert combo("g8 g8 y8 y8 r8").kind == Kind.GANG
    assert beats(combo("g8 g8 y8 y8 r8"), combo("r6 r7 r8 r9 r10"))


def test_the_phoenix_pair_may_be_the_pair_of_a_full_house() -> None:
    """Seed: "Werden sie zusammen als Paar gelegt, sind sieHigher als jeder andere Paar. Außer
    dem konnen sie als Paar in einem Full House verwendet werden."."""
    assert combo("g7 y7 r7 gP yP").kind == Kind.FULL_HOUSE
    higher("gP yP", "r10 r10")
    higher("gP yP", "y1 m1")
    higher("g7 y7 r7 gP yP", "g7 y7 r7 r10 r10")  # same trio: the pair decides


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("g3 g5 g7 g9 m1", Kind.FLUSH),
        ("y3 y5 y7 y9 m1", Kind.FLUSH),
        ("r3 r5 r7 r9 m1", Kind.FLUSH),
        ("m1 g2 g3 g4 g5", Kind.STRAIGHT_FLUSH),
        ("m1 r2 r3 r4 r5", Kind.STRAIGHT_FLUSH),
        ("g1 g1 m1 g4 g4", Kind.FULL_HOUSE),
        ("y1 y1 m1 y4 y7", Kind.FLUSH),
    ],
)
def test_the_multicoloured_one_is_a_one_of_any_colour(text: str, kind: Kind) -> None:
    """Seed: "In einer Kombination kann sie als Eins einer beliebigen Farbe verwendet werden."
    DECISION: five cards forming several kinds count as the highest (a full house that is also
    a flush is a full house)."""
    assert combo(text).kind == kind


def test_the_multicoloured_one_keeps_its_rank_when_compared() -> None:
    """Seed: "Die mehrfarbige Eins ist die höchste Eins." DECISION: standing in for a colour in
    a flush or straight flush, it still compares as the highest 1; in a straight the 1 is only
    ever the lowest card."""
    higher("g3 g5 g7 g9 m1", "g1 g3 g5 g7 g9")
    higher("r1 r3 r5 r7 r9", "g3 g5 g7 g9 m1")  # the red 9 decides first
    higher("m1 g2 g3 g4 g5", "g1 g2 g3 g4 g5")
    higher("m1 y2 y3 y4 r5", "r1 y2 y3 y4 r5")
    higher("g2 g3 g4 g5 y6", "m1 r2 r3 r4 y5")


def test_a_straight_is_ordered_by_its_highest_value_then_colour() -> None:
    """Seed: "ist der Wert der jeweils hochsten Zahl entscheidend" ... "dann entscheidet die
    Farbe dieser hochsten Zahl". DECISION: a straight's highest card is its highest value
    (there is no wrap, so the 1 is never above a 10)."""
    higher("g6 g7 g8 g9 y10", "r5 r6 r7 r8 g9")
    higher("g2 g3 g4 g5 r6", "r2 r3 r4 r5 y6")
    higher("r2 g3 g4 g5 r6", "g2 g3 g4 g5 r6")  # all equal down to the 2


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "EMPTY_PLAY"),
        ("rD gP", "DRAGON_ONLY_ALONE"),
        ("rD r10", "DRAGON_ONLY_ALONE"),
        ("g6 y7 r8 y9 rD", "DRAGON_ONLY_ALONE"),
        ("gP g10", "PHOENIX_NOT_ALLOWED_HERE"),
        ("g7 g8 g9 g10 gP", "PHOENIX_NOT_ALLOWED_HERE"),
        ("g7 y8 r9 g10 yP", "PHOENIX_NOT_ALLOWED_HERE"),
        ("gP yP g5", "PHOENIX_NOT_ALLOWED_HERE"),
        ("g7 y7 gP yP r2", "PHOENIX_NOT_ALLOWED_HERE"),
        ("g7 y7 r7 r8 gP", "PHOENIX_NOT_ALLOWED_HERE"),
        ("g8 y9 r10 m1 g2", "NOT_A_COMBINATION"),
        ("g8 y9 r10 r1 g2", "NOT_A_COMBINATION"),
        ("g3 y4 r5 g6", "NOT_A_COMBINATION"),
        ("g3 g3 y4 y4", "NOT_A_COMBINATION"),
        ("g2 y3 r4 g5 y7", "NOT_A_COMBINATION"),
        ("g2 g2 y3 y3 r4", "NOT_A_COMBINATION"),
        ("g2 y3", "NOT_A_COMBINATION"),
        ("g2 g2 y3", "NOT_A_COMBINATION"),
        ("g2 y3 r4 g5 y6 r7", "NOT_A_COMBINATION"),
        ("g2 g3 g4 g5 g6 g7", "NOT_A_COMBINATION"),
        ("g5 g5 g5", "TOO_MANY_COPIES"),
        ("m1 m1", "TOO_MANY_COPIES"),
    ],
)
def test_bad_shapes_are_refused_with_a_reason(text: str, reason: str) -> None:
    """Seed: Dragon "Er kann nur einzeln gespielt werden - nicht als Teil einer Kombination";
    Phoenixes "Ansonsten sind sie in keiner anderen Kombination einsetzbar."; "Eine Folge wie
    8, 9, 10, 1, 2 ist also nicht möglich."; four mixed cards, five cards that are nothing."""
    assert refused(text) == reason
    assert not is_valid_play(cards(text))


def test_things_that_are_no_cards_are_refused() -> None:
    """engines/errors.py: "An engine never raises anything else for bad input."."""
    for bad in [[GofCard(5, Colour.MULTICOLOURED)], [GofCard(13, Colour.RED)], ["g5"], [None]]:
        with pytest.raises(InvalidMoveError) as info:
            classify(bad)  # type: ignore[arg-type]
        assert info.value.reason == "UNKNOWN_CARD"


# --- what beats what ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("new", "current"),
    [
        ("g6 y6 r6 g3 y3", "g2 y2 r2 r8 r8"),
        ("g2 g2 g4 g7 g10", "r5 r6 r7 r7 r9"),
        ("y2 y3 y5 y7 y9", "r2 r3 r4 r5 r7"),
        ("r3 g3", "y3 y3"),
        ("g8 y8 r8 r8", "r3 r3 y3 y3"),
        ("g2 g2 y2 y2 r2", "y10 y10 r10 r10"),
        ("g2 g2 y2 y2 r2 r2", "g1 g1 y1 r1 m1"),
        ("g1 g1 y1 y1 r1 r1 m1", "g10 g10 y10 y10 r10 r10"),
        ("g2 y2 r2 r2", "rD"),
        ("g2 y2 r2 r2", "gP yP"),
        ("g2 y2 r2 r2", "r1 r1 m1"),
        ("g2 y2 r2 r2", "r6 r7 r8 r9 r10"),
        ("g10", "g8"),
    ],
    ids=[
        "full-house-666-33-over-222-88",
        "flush-2-2-4-7-10-over-5-6-7-7-9",
        "yellow-flush-23579-over-red-23457",
        "red-green-3-over-yellow-yellow-3",
        "four-8s-over-four-3s",
        "gang-of-five-over-any-gang-of-four",
        "gang-of-six-over-gang-of-five",
        "gang-of-seven-over-gang-of-six",
        "gang-of-four-over-the-dragon",
        "gang-of-four-over-the-phoenix-pair",
        "gang-of-four-over-a-triple",
        "gang-of-four-over-a-straight-flush",
        "single-10-over-8",
    ],
)
def test_worked_examples(new: str, current: str) -> None:
    """Seed: "Der Flush 2, 2, 4, 7, 10 ist hoher als der Flush 5, 6, 7, 7, 9." "(Beispiel: 6, 6,
    6, 3, 3 ist hoher als 2, 2, 2, 8, 8.)" "Ein roter Flush mit den Zahlen 2, 3, 4, 5, 7 ist
    niedriger als ein gelber Flush mit den Zahlen 2, 3, 5, 7, 9, obwohl Rot hoher ist als
    Gelb." "Ein Paar aus zwei gelben Dreiem ist niedriger als ein Paar aus einer roten und
    einer grünen Drei." "(Vier Achter sind beispiselsweise hoher als vier Dreier.)" "Gang of
    Seven > Gang of Six > Gang of Five > Gang of Four" "Gang-Kombinationen können auf jeder
    beliebige andere Karten-kombination gespielt werden und sind grundsatzlich hoher als
    diese." "z. B.: 10 > 8"."""
    higher(new, current)


def test_a_completely_identical_play_never_beats() -> None:
    """Seed: "Es ist nicht möglich, eine vollig identische Karte oder Kartenkombination zu
    legen (z. B. grüne 2 und gelbe 2 auf grüne 2 und gelbe 2)."."""
    for text in ["g2 y2", "g5", "g2 g2 g4 g7 g10", "g8 y8 r8 r8", "g7 y7 r7 gP yP"]:
        assert not beats(combo(text), combo(text))


def test_five_card_kinds_are_ranked() -> None:
    """Seed: "Bei den Kombinationen aus fünf Karten gilt folgende Wertigkeit: Straight Flush >
    Full House > Flush > Straße" ... "Ein Full House kann also immer auf eine Straße gelegt
    werden."."""
    weakest = ["g1 g2 g3 g4 y5", "g1 g2 g3 g4 g6", "g1 y1 r1 g2 y2", "g1 g2 g3 g4 g5"]
    strongest = ["r6 r7 r8 r9 y10", "r8 r9 r9 r10 r10", "y10 r10 r10 gP yP", "r6 r7 r8 r9 r10"]
    for low in range(4):
        for high in range(low + 1, 4):
            higher(weakest[high], strongest[low])


def test_only_the_same_number_of_cards_may_be_played() -> None:
    """Seed: "Auf die ausgespielen Karten darf generell nur eine hoherwertige Kombination mit
    derselben Anzahl Karten gelegt werden." "Ist beispiselsweise ein Drilling
    ausgespielt,)dürfen nur Drillinge gelegt werden."."""
    weakest = ["g1", "g1 g1", "g1 g1 y1", "g1 g2 g3 g4 y5"]
    strongest = ["rD", "gP yP", "r1 r1 m1", "r6 r7 r8 r9 r10"]
    for new, current in itertools.product(strongest, weakest):
        assert beats(combo(new), combo(current)) == (len(new.split()) == len(current.split()))


def test_only_a_higher_gang_beats_a_gang() -> None:
    """Seed: "Sie können nur von jeweils higheren Gang-Kombinationen geschlagen werden."
    "Ein „Gang of Four" kann von einem hoherwertigen „Gang of Four" übertruppf werden."
    RULES-NOTES: "same size compares like other combinations"."""
    for other in ["rD", "gP yP", "r1 r1 m1", "r6 r7 r8 r9 r10", "g10 r10 r10 gP yP"]:
        assert not beats(combo(other), combo("g2 y2 r2 g2"))
    higher("y10 y10 r10 r10", "g10 y10 r10 r10")  # same size and value: highest card, then next
    higher("g2 y2 r2 r2", "g1 y1 r1 m1")
    higher("g1 y1 r1 m1", "g1 g1 y1 r1")  # the multicoloured 1 is the highest 1 in a Gang too
    assert not beats(combo("g9 g9 y9 y9"), combo("g2 g2 y2 y2 r2"))


# --- the listing -------------------------------------------------------------------------


def test_two_equal_cards_give_one_single() -> None:
    """Combinations are multisets: the two green 5s of a hand are one single "g5"."""
    listed = [str(combination) for combination in combinations_in(hand("g5 g5 m1"))]
    assert listed == ["single m1", "single g5", "pair g5 g5"]


@pytest.mark.parametrize("text", WORST_HANDS)
def test_listing_of_a_whole_hand_matches_brute_force(text: str) -> None:
    """Every sub-multiset that ``classify`` accepts is listed, once, as the same value."""
    held = hand(text)
    listed = combinations_in(held)
    assert len({combination.cards for combination in listed}) == len(listed)
    assert {combination.cards: combination for combination in listed} == brute_force_listing(held)


def test_listing_matches_brute_force_on_random_small_hands() -> None:
    """Listing completeness checked against every subset of 40 random hands of 0 to 11."""
    rng = random.Random(20240601)
    for _ in range(40):
        held = tuple(sorted(rng.sample(DECK, rng.randint(0, 11))))
        listed = combinations_in(held)
        assert len({combination.cards for combination in listed}) == len(listed)
        assert {c.cards: c for c in listed} == brute_force_listing(held)


def test_plays_beating_is_the_listing_filtered_by_beats() -> None:
    """``plays_beating(hand, current)`` == every listed ``c`` with ``beats(c, current)``."""
    rng = random.Random(7)
    hands = [hand(text) for text in WORST_HANDS] + [
        tuple(sorted(rng.sample(DECK, HAND_SIZE))) for _ in range(20)
    ]
    currents = [
        combination
        for held in [*hands[:3], hand("g1 y1 r1 m1 g2 g3 g4 g5 g6 g8 gP yP rD")]
        for combination in combinations_in(held)
    ]
    currents = rng.sample(currents, 150)
    for held in hands:
        everything = combinations_in(held)
        assert plays_beating(held, None) == everything
        for current in currents:
            expected = [c for c in everything if beats(c, current)]
            assert sorted(plays_beating(held, current), key=_order) == sorted(expected, key=_order)


def _order(combination: Combination) -> tuple[int, ...]:
    return combination.key


def test_every_listed_combination_classifies_to_itself_and_survives_encoding() -> None:
    for text in WORST_HANDS:
        for combination in combinations_in(hand(text)):
            assert classify(combination.cards) == combination
            assert list(combination.cards) == sorted(combination.cards)
            assert combination.size == len(combination.cards)
            encoded = msgspec.msgpack.encode(combination)
            assert msgspec.msgpack.decode(encoded, type=Combination) == combination


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    deal=st.permutations(DECK),
    chosen=st.sets(st.integers(0, HAND_SIZE - 1), max_size=7),
    pick=st.integers(0, 10_000),
)
def test_classify_agrees_with_the_listing(deal: list[GofCard], chosen: set[int], pick: int) -> None:
    """``classify(subset)`` succeeds iff the subset is listed, as the same combination; and
    ``is_valid_play(subset, current)`` iff it is among ``plays_beating(hand, current)``."""
    held = tuple(sorted(deal[:HAND_SIZE]))
    listed = {combination.cards: combination for combination in combinations_in(held)}
    some = listed[sorted(listed)[pick % len(listed)]]
    subsets = [tuple(sorted(held[at] for at in chosen)), some.cards]
    currents = [None, some, *(listed[cards] for cards in sorted(listed)[pick % 7 :: 23])]
    allowed = [plays_beating(held, current) for current in currents]
    for subset in subsets:
        try:
            combination: Combination | None = classify(subset)
        except InvalidMoveError:
            combination = None
        assert listed.get(subset) == combination
        for current, plays in zip(currents, allowed, strict=True):
            assert is_valid_play(subset, current) == (combination in plays)


@settings(max_examples=200, deadline=None)
@given(deal=st.permutations(DECK), first=st.integers(0, 10_000), second=st.integers(0, 10_000))
def test_beats_is_asymmetric_and_the_key_orders_comparable_plays(
    deal: list[GofCard], first: int, second: int
) -> None:
    """Never both ``beats(a, b)`` and ``beats(b, a)``; comparable plays compare as their keys."""
    listed = combinations_in(tuple(sorted(deal[:HAND_SIZE]))) + combinations_in(
        tuple(sorted(deal[HAND_SIZE : 2 * HAND_SIZE]))
    )
    one, other = listed[first % len(listed)], listed[second % len(listed)]
    assert not (beats(one, other) and beats(other, one))
    assert not beats(one, one)
    if one.kind != Kind.GANG and other.kind != Kind.GANG and one.size == other.size:
        assert beats(one, other) == (one.key > other.key)
