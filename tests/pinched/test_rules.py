"""One test per rule of Pinched! (Gekraakt!), each quoting the seed line it checks.

Quotes are from the Dutch rule seed (``shared/seeds/004_*.txt``) unless marked RULES-NOTES
(``shared/RULES-NOTES.md``, Pinched!) or ENGINE (a choice the engine documents where the
seed is open). The locations' own rules are in ``test_locations.py``, bad input in
``test_bad_input.py``. Tables come from the public factory functions and are rigged with
``msgspec.structs.replace`` (see ``support.table`` and ``support.rig``).
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from engines.errors import IllegalMoveError, InvalidConfigError
from engines.pinched import GAME
from engines.pinched.components import DEFAULT, JOKER, kinds_of, sale_value
from engines.pinched.events import (
    CardsDrawn,
    CardTaken,
    DayEnded,
    DayStarted,
    DeckReshuffled,
    Discarded,
    DogUsed,
    FieldRefilled,
    GameEnded,
    LocationChosen,
    LocationsRevealed,
    Score,
    Sold,
)
from engines.pinched.model import WEEKS, Curse, Dog, Location, Phase, PinchedState, Slot
from engines.pinched.moves import (
    ChooseLocation,
    EndSelling,
    FieldRef,
    Sell,
    Store,
    TakeCard,
    TakeFromRiver,
    TakeWithGordie,
)
from engines.pinched.setup import BASIC, RECOMMENDED
from tests.pinched.support import (
    COIN,
    CROWN,
    EMPTY,
    GOLD,
    JEWEL,
    PAINTING,
    SEED,
    STATUE,
    STD,
    B,
    C,
    Cards,
    D,
    H,
    S,
    after_heist,
    all_cards,
    alone,
    apply_all,
    choose,
    holdings,
    kind_of,
    last_move_of_day,
    new,
    of_type,
    placements,
    rejects,
    rig,
    setups,
    slot,
    stash_cards,
    store_all,
    table,
)

SPADES_CROWN_4 = [(D, STD), (C, STD), (S, CROWN), (H, STD), (B, CROWN)]


def final_scores(events: list[Any]) -> GameEnded:
    (ended,) = of_type(events, GameEnded)
    assert isinstance(ended, GameEnded)
    return ended


# --- setup -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (2, [(D, STD), (C, STD), (H, STD)]),
        (3, [(D, STD), (C, STD), (S, STD), (H, STD)]),
        (4, [(D, STD), (C, STD), (H, STD), (B, CROWN)]),
        (5, [(D, STD), (C, STD), (S, STD), (H, STD), (B, CROWN)]),
    ],
)
def test_basic_setup_per_player_count(players: int, expected: list[Any]) -> None:
    """Seed, "Basisvoorbereiding": "2 spelers: ruiten, klaveren en harten landhuis [...] 5
    spelers: ruiten, klaveren, schoppen en harten landhuis plus de bank" and "In de
    basisvoorbereiding liggen alle landhuizen op hun standaardkant. De bank heeft alleen een
    kroonkant." For a first game the basic setup is the default."""
    assert GAME.make_config(players, {}).locations == placements(*expected)
    assert GAME.make_config(players, {"setup": "basic"}).locations == placements(*expected)
    assert BASIC[players] == placements(*expected)


@pytest.mark.parametrize(
    ("name", "players", "expected"),
    [
        ("paranoid_owner", 2, [(D, STD), (C, CROWN), (H, STD)]),
        ("search_for_lisa_mona", 3, [(D, CROWN), (C, CROWN), (S, STD), (H, STD)]),
        ("cursed_secrets", 4, [(D, CROWN), (S, STD), (H, CROWN), (B, CROWN)]),
        ("the_whole_package", 5, [(D, CROWN), (C, CROWN), (S, CROWN), (H, CROWN), (B, CROWN)]),
    ],
)
def test_the_four_recommended_setups(name: str, players: int, expected: list[Any]) -> None:
    """Seed, "Aanbevolen voorbereidingen voor latere potjes": "Paranoïde eigenaar (2
    spelers): ruiten, klaveren op de kroonkant en harten; De zoektocht naar Lisa Mona (3
    spelers): ruiten en klaveren op de kroonkant, schoppen en harten; Vervloekte geheimen (4
    spelers): ruiten op de kroonkant, schoppen, harten op de kroonkant en de bank; Het hele
    pakket (5 spelers): alle landhuizen op de kroonkant en de bank"."""
    config = GAME.make_config(players, {"setup": name})
    assert config.locations == placements(*expected)
    assert RECOMMENDED[name] == (players, placements(*expected))
    state = GAME.new_game(config, SEED)
    assert [p.location for p in state.config.locations] == [loc for loc, _ in expected]


SIDES = [
    ((D, STD), range(2, 6)),
    ((D, CROWN), range(3, 6)),
    ((C, STD), range(2, 6)),
    ((C, CROWN), range(2, 6)),
    ((S, STD), range(3, 6)),
    ((S, CROWN), range(4, 6)),
    ((H, STD), range(2, 6)),
    ((H, CROWN), range(4, 6)),
    ((B, CROWN), range(4, 6)),
]


@pytest.mark.parametrize(("side", "seats"), SIDES, ids=[f"{p[0]}-{p[1]}" for p, _ in SIDES])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_custom_choice_respects_each_sides_player_counts(
    side: tuple[Location, Any], seats: range, players: int
) -> None:
    """Seed: "Ken je het spel goed, dan kun je locaties en kanten zelf combineren. Let op het
    spelersaantal dat op elk tableau staat, want niet elke kant is met elk aantal spelers te
    gebruiken." The counts: ruiten standaard 2-5, kroon 3-5; klaveren both 2-5; schoppen
    standaard 3-5, kroon 4-5; harten standaard 2-5, kroon 4-5; de bank 4-5."""
    filler = (C, STD) if side[0] is not C else (D, STD)
    choice = [side, filler]
    if players == 5 and side[0] is not B:
        choice.append((B, CROWN))
    if players in seats:
        config = GAME.make_config(players, {"locations": choice})
        assert set(config.locations) == set(placements(*choice))
        state = GAME.new_game(config, SEED)
        moves = GAME.legal_moves(store_all(state), state.mastermind)
        assert {m.location for m in moves if isinstance(m, ChooseLocation)} == {
            loc for loc, _ in choice
        }
    else:
        with pytest.raises(InvalidConfigError) as info:
            GAME.make_config(players, {"locations": choice})
        assert info.value.reason == "SIDE_NOT_FOR_PLAYERS"


def test_a_custom_choice_may_name_placements_and_is_laid_in_table_order() -> None:
    """Seed: "Leg de locatietableaus onder elkaar in het midden van de tafel" — ENGINE: in the
    order diamonds, clubs, spades, hearts, the bank, whatever order the choice names them."""
    choice = [(H, STD), *placements((C, CROWN)), ("diamonds", "standard")]
    config = GAME.make_config(2, {"locations": choice})
    assert config.locations == placements((D, STD), (C, CROWN), (H, STD))
    state = GAME.new_game(config, SEED)
    assert GAME.seat_count(state) == 2
    assert GAME.outcome(state) is None, "no outcome while the game runs"


def test_with_five_players_the_bank_is_always_in_play() -> None:
    """Seed: "Bij 4 spelers is de bank aanbevolen, bij 5 spelers speel je er altijd mee."
    (The refusal BANK_REQUIRED is in test_bad_input.py.)"""
    assert GAME.make_config(4, {"locations": [(D, STD), (C, STD)]}).locations == placements(
        (D, STD), (C, STD)
    )
    assert any(p.location is B for p in GAME.make_config(5, {}).locations)


@pytest.mark.parametrize(("players", "name"), list(setups()))
def test_every_field_and_the_three_river_fields_are_dealt(players: int, name: str) -> None:
    """Seed: "Schud de kostbaarheden en leg ze als gedekte trekstapel klaar. Leg één kaart open
    op elk kaartveld van de locatietableaus en op de drie velden van de rivier." and "Op de
    bank liggen geen open kaarten, want de buit komt van de trekstapel." """
    state = new(players, name)
    fields = DEFAULT.fields
    for placement, row in zip(state.config.locations, state.fields, strict=True):
        expected = 0 if placement.location is B else fields
        assert len(row) == expected
        assert None not in row
    assert len(state.river) == 3
    assert None not in state.river
    cards = all_cards(state)
    assert sorted(cards) == list(range(len(kinds_of(DEFAULT)))), "every card once"


@pytest.mark.parametrize(("players", "name"), list(setups()))
def test_three_starting_valuables_are_stored_at_once(players: int, name: str) -> None:
    """Seed: "Geef iedere speler 3 kostbaarheden. Die gaan meteen naar de voorraad volgens de
    opslagregels". ENGINE: new kinds onto alike empty slots are stored by themselves; where
    the storage rules leave a real choice (where a joker goes once the slots differ), the seat
    stores with Store moves before anything else."""
    state = new(players, name)
    for seat in range(players):
        assert len(holdings(state, seat)) == 3
        moves = GAME.legal_moves(state, seat)
        owes = bool(state.hands[seat])
        assert all(isinstance(move, Store) == owes for move in moves)
        if owes:
            rejects(
                state,
                seat,
                ChooseLocation(state.config.locations[0].location),
                IllegalMoveError,
                "STORE_FIRST",
            )
    stored = store_all(state)
    for seat in range(players):
        assert stored.hands[seat] == (), "three cards always fit on three slots"
        assert sorted(stash_cards(stored, seat)) == sorted(holdings(state, seat))
        for s in stored.stashes[seat]:
            assert {kind_of(stored, c) for c in s.cards} <= {s.kind, JOKER}
    assert stored.phase is Phase.PLAN
    assert GAME.to_act(stored) == frozenset(range(players)), "everyone lays a location card"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_watch_is_set_to_five_four_or_three_weeks(players: int) -> None:
    """Seed: "Stel het horloge in op het aantal weken dat je speelt: 5 bij 2 spelers, 4 bij 3
    of 4 spelers en 3 bij 5 spelers." """
    assert new(players).watch == {2: 5, 3: 4, 4: 4, 5: 3}[players] == WEEKS[players]


def test_a_first_mastermind_is_chosen_and_holds_the_watch() -> None:
    """Seed: "Kies wie het eerste brein is. Deze speler krijgt de breinpion en het horloge."
    ENGINE: drawn from the seed."""
    firsts = set()
    for byte in range(24):
        state = new(4, seed=bytes([byte]) * 8)
        assert state.first_mastermind == state.mastermind
        assert 0 <= state.mastermind < 4
        assert GAME.view(state, None).first_mastermind == state.first_mastermind
        firsts.add(state.first_mastermind)
    assert len(firsts) > 1, "not always the same seat"


@pytest.mark.parametrize(("players", "name"), list(setups()))
def test_each_seat_has_a_location_card_per_location_in_play(players: int, name: str) -> None:
    """Seed: "Geef iedere speler een voorraadtableau en de bijbehorende set locatiekaarten.
    Haal de locatiekaarten van locaties die niet meedoen uit ieders set." and "De rivier is
    geen locatie, dus het brein kan er geen overval plannen." """
    state = store_all(new(players, name))
    in_play = [p.location for p in state.config.locations]
    for seat in range(players):
        moves = GAME.legal_moves(state, seat)
        assert moves == [ChooseLocation(loc) for loc in in_play]


# --- the morning -------------------------------------------------------------------------


def test_the_mastermind_uses_rufus_before_the_morning() -> None:
    """Seed, "Ochtend": "1. Speel je met het schoppen landhuis, dan voert het brein eerst de
    stap met Rufus of Gordie uit, als het een van die honden bezit" and "Heb je Rufus nog als
    je de volgende keer het brein bent, dan neem je aan het begin van je dag (voor de ochtend)
    alle 3 kaarten uit de rivier. Vul de rivier daarna aan." """
    cards = Cards()
    river, top = cards(COIN, 3), cards(GOLD, 3)
    state = last_move_of_day(3, 0, river=river, dogs=(1, None), top=top)
    after, events = GAME.apply(state, 0, EndSelling())
    assert after.mastermind == 1
    started = events.index(DayStarted(2, after.watch, 1))
    assert events[started + 1] == DogUsed(1, Dog.RUFUS)
    assert [e.card for e in of_type(events, CardTaken)] == list(river)
    assert sorted(holdings(after, 1)) == sorted(river)
    assert after.river == top
    assert after.phase is Phase.PLAN
    assert after.dogs == (1, None), "Rufus stays with its holder"


def test_a_dog_is_used_only_by_the_mastermind() -> None:
    """Seed: "Heb je Rufus nog als je de volgende keer het brein bent" — holding Rufus on
    another seat's day does nothing."""
    state = last_move_of_day(3, 0, dogs=(2, None))
    after, events = GAME.apply(state, 0, EndSelling())
    assert after.mastermind == 1
    assert not of_type(events, DogUsed)
    assert after.river == state.river


def test_the_mastermind_uses_gordie_before_the_morning() -> None:
    """Seed, Schoppen kroonkant: "Heb je Gordie, dan neem je 1 open kaart van een landhuis
    naar keuze en vul je dat veld direct aan." It is the mastermind's step before the
    morning: nobody lays a location card until it is done."""
    cards = Cards()
    hearts, top = cards(PAINTING, 3), cards(JEWEL, 1)
    state = last_move_of_day(
        4, 3, locations=SPADES_CROWN_4, dogs=(None, 0), top=top, open_cards={H: hearts}
    )
    morning, events = GAME.apply(state, 3, EndSelling())
    assert (morning.mastermind, morning.phase, morning.gordie_due) == (0, Phase.DOGS, (0,))
    assert GAME.to_act(morning) == frozenset({0})
    mansion_cards = [
        TakeWithGordie(FieldRef(p.location, f))
        for p, row in zip(morning.config.locations, morning.fields, strict=True)
        for f, card in enumerate(row)
        if card is not None
    ]
    assert GAME.legal_moves(morning, 0) == mansion_cards
    rejects(morning, 1, ChooseLocation(D), IllegalMoveError, "NOT_NOW")
    planned, events = GAME.apply(morning, 0, TakeWithGordie(FieldRef(H, 1)))
    assert events[0] == DogUsed(0, Dog.GORDIE)
    assert hearts[1] in holdings(planned, 0)
    assert planned.fields[planned.index(H)] == (hearts[0], top[0], hearts[2])
    assert planned.phase is Phase.PLAN


def test_rufus_comes_before_gordie() -> None:
    """Seed: "Je kunt beide honden tegelijk hebben en dan krijg je beide voordelen." ENGINE:
    Rufus first, then Gordie."""
    river = Cards()(COIN, 3)
    state = last_move_of_day(4, 3, locations=SPADES_CROWN_4, dogs=(0, 0), river=river)
    morning, events = GAME.apply(state, 3, EndSelling())
    assert of_type(events, DogUsed) == [DogUsed(0, Dog.RUFUS)]
    assert morning.gordie_due == (0,)
    planned, events = GAME.apply(morning, 0, TakeWithGordie(FieldRef(D, 0)))
    assert of_type(events, DogUsed) == [DogUsed(0, Dog.GORDIE)]
    assert planned.phase is Phase.PLAN


def test_sealed_choices_stay_hidden_until_everyone_has_chosen() -> None:
    """Seed: "2. Het brein kiest een locatiekaart en legt die gedekt voor zich neer. [...] 3.
    Tegelijk kiest iedere andere inbreker een van zijn eigen locatiekaarten en legt die ook
    gedekt neer." Issue: "a sealed choice that no other seat, spectator, event or error can
    see before the reveal"."""
    state = table(3, mastermind=0)
    assert GAME.to_act(state) == frozenset({0, 1, 2}), "all choose at the same time"
    chosen, events = GAME.apply(state, 1, ChooseLocation(H))
    assert chosen.phase is Phase.PLAN
    assert GAME.to_act(chosen) == frozenset({0, 2})
    (event,) = events
    assert GAME.view_event(event, 1) == LocationChosen(1, H)
    for viewer in (0, 2, None):
        assert GAME.view_event(event, viewer) == LocationChosen(1, None)
        assert GAME.view_move(ChooseLocation(H), 1, viewer) is None
        seen, before = GAME.view(chosen, viewer), GAME.view(state, viewer)
        assert (seen.my_choice, seen.choices, seen.chosen) == (None, (), (1,))
        assert msgspec.structs.replace(seen, chosen=()) == before, "only that seat 1 chose"
        for location in (D, C, S, H):
            assert GAME.is_legal(chosen, viewer or 0, ChooseLocation(location))
    assert GAME.view(chosen, 1).my_choice is H
    assert GAME.view_move(ChooseLocation(H), 1, 1) == ChooseLocation(H)


def test_the_cards_are_turned_over_together_when_all_have_chosen() -> None:
    """Seed: "4. Alle inbrekers draaien hun kaart tegelijk om." """
    state = table(3, mastermind=1)
    state, events = apply_all(state, [(1, ChooseLocation(D)), (0, ChooseLocation(S))])
    assert state.phase is Phase.PLAN
    assert not of_type(events, LocationsRevealed)
    state, events = GAME.apply(state, 2, ChooseLocation(D))
    (revealed,) = of_type(events, LocationsRevealed)
    assert revealed == LocationsRevealed((S, D, D), D, (1, 2))
    for viewer in (0, 1, 2, None):
        assert GAME.view_event(revealed, viewer) == revealed
        assert GAME.view(state, viewer).choices == (S, D, D)
    assert state.heist is D


# --- the night ---------------------------------------------------------------------------


def test_alone_the_mastermind_takes_everything() -> None:
    """Seed: "Staat het brein alleen op de locatie, dan neemt het alle kostbaarheden die daar
    open liggen." (Clubs with the vault at 0: "Staat de kluis op 0, dan levert kraken niets
    extra op.")"""
    cards = Cards()
    clubs = (cards.one(GOLD), cards.one(PAINTING), cards.one(STATUE))
    state = table(3, mastermind=2, open_cards={C: clubs})
    after, events = choose(state, alone(state, C, D))
    assert [e.card for e in of_type(events, CardTaken)] == list(clubs)
    assert sorted(holdings(after, 2)) == sorted(clubs)
    assert after.fields[after.index(C)] == (None, None, None)
    assert holdings(after, 0) == holdings(after, 1) == []
    assert after.phase is Phase.AFTER


def test_a_shared_heist_mastermind_then_thieves_clockwise_then_mastermind() -> None:
    """Seed: "1. Het brein neemt 1 kostbaarheid van de locatie. 2. Daarna neemt iedere andere
    inbreker die goed gokte 1 kostbaarheid, met de klok mee vanaf het brein. 3. Tot slot
    neemt het brein nog 1 kostbaarheid. Ligt er niets meer, dan trekt het brein de bovenste
    kaart van de trekstapel." Seats are numbered clockwise."""
    cards = Cards()
    row = (cards.one(GOLD), cards.one(PAINTING), cards.one(JEWEL))
    top = cards(STATUE, 1)
    state = table(4, mastermind=2, open_cards={D: row}, top=top)
    night, events = choose(state, {0: D, 1: C, 2: D, 3: D})
    assert night.present == (2, 3, 0)
    assert GAME.to_act(night) == frozenset({2})
    assert GAME.legal_moves(night, 2) == [TakeCard(0), TakeCard(1), TakeCard(2)]
    rejects(night, 3, TakeCard(0), IllegalMoveError, "NOT_YOUR_TURN")
    night, events = GAME.apply(night, 2, TakeCard(1))
    assert GAME.to_act(night) == frozenset({3}), "the thief left of the mastermind is next"
    rejects(night, 0, TakeCard(0), IllegalMoveError, "NOT_YOUR_TURN")
    after, events = GAME.apply(night, 3, TakeCard(2))
    taken = [(e.seat, e.card) for e in of_type(events, CardTaken)]
    assert taken == [(3, row[2]), (0, row[0])], "seat 0's one option is taken at once"
    (drawn,) = of_type(events, CardsDrawn)
    assert drawn == CardsDrawn(2, 1, top, "last_take")
    assert sorted(holdings(after, 2)) == sorted([row[1], top[0]])
    assert holdings(after, 3) == [row[2]] and holdings(after, 0) == [row[0]]
    assert holdings(after, 1) == [], "a burglar elsewhere gets nothing at night"
    assert after.phase is Phase.AFTER


def test_the_mastermind_takes_the_last_open_card_when_one_is_left() -> None:
    """Seed: "3. Tot slot neemt het brein nog 1 kostbaarheid." — from the location while a
    card lies there."""
    cards = Cards()
    row = (cards.one(GOLD), cards.one(PAINTING), cards.one(JEWEL))
    state = table(3, mastermind=0, open_cards={C: row})
    night, _ = choose(state, {0: C, 1: C, 2: D})
    night, _ = GAME.apply(night, 0, TakeCard(0))
    after, events = GAME.apply(night, 1, TakeCard(1))
    assert [(e.seat, e.card) for e in of_type(events, CardTaken)] == [(1, row[1]), (0, row[2])]
    assert not of_type(events, CardsDrawn)
    assert sorted(holdings(after, 0)) == sorted([row[0], row[2]])


def test_a_thief_at_a_bare_location_gets_nothing() -> None:
    """Seed: "Daarna neemt iedere andere inbreker die goed gokte 1 kostbaarheid" — with three
    open cards the fourth and fifth burglar find nothing; only the mastermind's last take
    draws ("Ligt er niets meer, dan trekt het brein de bovenste kaart")."""
    cards = Cards()
    row = (cards.one(GOLD), cards.one(PAINTING), cards.one(JEWEL))
    top = cards(STATUE, 2)
    state = table(5, mastermind=1, open_cards={D: row}, top=top)
    night, _ = choose(state, dict.fromkeys(range(5), D))
    assert night.present == (1, 2, 3, 4, 0)
    night, _ = GAME.apply(night, 1, TakeCard(0))
    after, events = GAME.apply(night, 2, TakeCard(1))
    assert holdings(after, 3) == [row[2]]
    assert holdings(after, 4) == holdings(after, 0) == []
    assert of_type(events, CardsDrawn) == [CardsDrawn(1, 1, top[:1], "last_take")]
    assert after.deck[0] == top[1]


# --- storing -----------------------------------------------------------------------------


def river_pick(stash: tuple[Slot, ...], card: int, hand: tuple[int, ...] = ()) -> PinchedState:
    """Seat 1 (a thief) is about to take ``card`` from the river, field 0."""
    return table(
        3,
        mastermind=0,
        river=(card, *Cards()(STATUE, 6)[4:]),
        stashes=(EMPTY, stash, EMPTY),
        hands=((), hand, ()),
        **after_heist(3, 0),
    )


def test_a_card_of_a_kind_on_the_stash_goes_on_its_slot_without_limit() -> None:
    """Seed: "1. Heb je een kaart van een soort die al op je voorraadtableau ligt, dan leg je
    die op dat veld. Er is geen limiet aan het aantal kaarten op een veld." and "Krijg je om
    welke reden dan ook kostbaarheden, dan sla je die direct op." """
    cards = Cards()
    coins = cards(COIN, 9)
    stash = (slot(GOLD, *cards(GOLD, 1)), slot(COIN, *coins[:8]), EMPTY[0])
    state = river_pick(stash, coins[8])
    after, _ = GAME.apply(state, 1, TakeFromRiver(0))
    assert after.stashes[1][1] == slot(COIN, *coins)
    assert after.hands[1] == ()
    assert not any(isinstance(m, Store) for m in GAME.legal_moves(after, 1))


def test_a_new_kind_must_go_on_an_empty_slot() -> None:
    """Seed: "2. Heb je een leeg veld, dan moet je daar een nieuwe soort uit je hand op
    leggen. Een soort ligt altijd op één veld bij elkaar." A new kind goes on an empty slot at
    once (ENGINE: which of two alike empty slots is no real choice); when several new kinds
    want the last empty slot, the seat chooses which, never a slot of another kind."""
    cards = Cards()
    gold, coin = cards.one(GOLD), cards.one(COIN)
    one_empty = (slot(COIN, coin), Slot(), slot(JEWEL, *cards(JEWEL, 1)))
    after, _ = GAME.apply(river_pick(one_empty, gold), 1, TakeFromRiver(0))
    assert after.stashes[1][1] == slot(GOLD, gold)
    two_empty = (slot(COIN, *cards(COIN, 1)), Slot(), Slot())
    after, _ = GAME.apply(river_pick(two_empty, gold), 1, TakeFromRiver(0))
    assert after.hands[1] == ()
    assert [s.kind for s in after.stashes[1]].count(GOLD) == 1
    # Alone at the clubs mansion: three new kinds for one empty slot.
    loot = (cards.one(PAINTING), cards.one(STATUE), *cards(JEWEL, 1))
    stash = (slot(COIN, *cards(COIN, 1)), Slot(), slot(GOLD, *cards(GOLD, 1)))
    state = table(3, mastermind=0, open_cards={C: loot}, stashes=(stash, EMPTY, EMPTY))
    owing, _ = choose(state, alone(state, C, D))
    assert sorted(owing.hands[0]) == sorted(loot)
    assert GAME.legal_moves(owing, 0) == [Store(card, 1) for card in owing.hands[0]]
    rejects(owing, 0, Store(loot[0], 0), IllegalMoveError, "CANNOT_STORE")
    stored, _ = GAME.apply(owing, 0, Store(loot[1], 1))
    assert stored.stashes[0][1] == slot(STATUE, loot[1])
    assert sorted(stored.hands[0]) == sorted([loot[0], loot[2]]), "the rest stays in hand"
    assert not any(isinstance(m, Store) for m in GAME.legal_moves(stored, 0))


def test_a_card_that_cannot_be_stored_stays_in_hand() -> None:
    """Seed: "3. Kostbaarheden die je daarna niet kwijt kunt, houd je in je hand tot je weer
    het brein bent." """
    cards = Cards()
    full = (slot(COIN, *cards(COIN, 1)), slot(GOLD, *cards(GOLD, 1)), slot(JEWEL, *cards(JEWEL, 1)))
    statue = cards.one(STATUE)
    after, _ = GAME.apply(river_pick(full, statue), 1, TakeFromRiver(0))
    assert after.hands[1] == (statue,)
    assert after.stashes[1] == full
    assert GAME.legal_moves(after, 1) == [], "nothing owed: the day goes on"
    assert GAME.view(after, 1).hand == (statue,)
    assert GAME.view(after, 0).hand == () and GAME.view(after, 0).hand_sizes[1] == 1


def test_a_joker_is_placed_at_once_on_any_slot_and_counts_for_its_kind() -> None:
    """Seed, "Jokers": "Krijg je een joker, dan leg je die meteen op een van je drie velden.
    Daar telt hij als 1 extra exemplaar van de soort op dat veld." """
    cards = Cards()
    joker = cards.one(JOKER)
    gold = cards(GOLD, 2)
    stash = (slot(COIN, *cards(COIN, 1)), slot(GOLD, *gold), Slot())
    owing, _ = GAME.apply(river_pick(stash, joker), 1, TakeFromRiver(0))
    assert GAME.legal_moves(owing, 1) == [Store(joker, 0), Store(joker, 1), Store(joker, 2)]
    rejects(owing, 1, TakeFromRiver(1), IllegalMoveError, "STORE_FIRST")
    stored, _ = GAME.apply(owing, 1, Store(joker, 1))
    assert stored.stashes[1][1] == slot(GOLD, *gold, joker)
    # Three gold bars' worth: 2 points when sold.
    selling = rig(stored, mastermind=1, selling=(1,), river_turns=())
    sold, events = GAME.apply(selling, 1, Sell(1))
    assert of_type(events, Sold) == [Sold(1, 1, GOLD, 3, 2)]
    assert sold.sold[1] == gold


def test_a_slot_of_only_jokers_is_still_empty() -> None:
    """Seed: "Leg je de joker op een leeg veld, dan telt hij mee als de soort die je daar later
    neerlegt. Een veld met alleen jokers geldt nog steeds als leeg, dus dat veld moet je vullen
    zodra je een nieuwe soort krijgt." """
    cards = Cards()
    jokers = cards(JOKER, 2)
    painting = cards.one(PAINTING)
    stash = (slot(COIN, *cards(COIN, 1)), slot(None, *jokers), slot(GOLD, *cards(GOLD, 1)))
    after, _ = GAME.apply(river_pick(stash, painting), 1, TakeFromRiver(0))
    assert after.stashes[1][1] == slot(PAINTING, *jokers, painting)
    # With a truly empty slot beside it, either may take the new kind.
    stash = (slot(None, *jokers), Slot(), slot(GOLD, *cards(GOLD, 1)))
    owing, _ = GAME.apply(river_pick(stash, painting), 1, TakeFromRiver(0))
    assert GAME.legal_moves(owing, 1) == [Store(painting, 0), Store(painting, 1)]
    rejects(owing, 1, Store(painting, 2), IllegalMoveError, "CANNOT_STORE")


def test_a_joker_on_an_empty_slot_counts_as_the_kind_laid_there_later() -> None:
    """Seed: "Leg je de joker op een leeg veld, dan telt hij mee als de soort die je daar later
    neerlegt." """
    cards = Cards()
    joker, statues = cards.one(JOKER), cards(STATUE, 1)
    stash = (slot(COIN, *cards(COIN, 1)), slot(GOLD, *cards(GOLD, 1)), Slot())
    owing, _ = GAME.apply(river_pick(stash, joker), 1, TakeFromRiver(0))
    on_empty, _ = GAME.apply(owing, 1, Store(joker, 2))
    assert on_empty.stashes[1][2] == slot(None, joker)
    later = rig(on_empty, river_turns=(1,), river=(statues[0], *on_empty.river[1:]))
    later, _ = GAME.apply(later, 1, TakeFromRiver(0))
    assert later.stashes[1][2] == slot(STATUE, joker, statues[0])
    selling = rig(later, mastermind=1, selling=(1,), river_turns=())
    _, events = GAME.apply(selling, 1, Sell(2))
    assert of_type(events, Sold) == [Sold(1, 2, STATUE, 2, 2)], "a pair of statues"


def test_owed_storing_blocks_every_other_move() -> None:
    """Seed: "Krijg je om welke reden dan ook kostbaarheden, dan sla je die direct op." ENGINE:
    a real storage choice is a Store move, owed before any other (STORE_FIRST), and the day
    does not end while one is owed."""
    cards = Cards()
    joker = cards.one(JOKER)
    stash = (slot(COIN, *cards(COIN, 1)), Slot(), Slot())
    state = river_pick(stash, joker)
    state = rig(state, river_turns=(1,), selling=())
    owing, _ = GAME.apply(state, 1, TakeFromRiver(0))
    assert owing.phase is Phase.AFTER, "the day waits for the store"
    assert GAME.to_act(owing) == frozenset({1})
    for move in (TakeFromRiver(0), EndSelling(), Sell(0), ChooseLocation(D)):
        rejects(owing, 1, move, IllegalMoveError, "STORE_FIRST")
    _, events = GAME.apply(owing, 1, Store(joker, 1))
    assert of_type(events, DayEnded)


# --- selling -----------------------------------------------------------------------------


def selling_table(stash: tuple[Slot, ...], hand: tuple[int, ...] = ()) -> PinchedState:
    """Seat 0 is the mastermind after its heist, about to sell."""
    return table(
        3,
        mastermind=0,
        stashes=(stash, EMPTY, EMPTY),
        hands=(hand, (), ()),
        **after_heist(3, 0, river_turns=()),
    )


@pytest.mark.parametrize(("count", "points"), [(1, 0), (2, 1), (3, 2), (4, 4), (5, 4), (7, 4)])
def test_gold_bars_sell_two_for_one_three_for_two_four_or_more_for_four(
    count: int, points: int
) -> None:
    """Seed: "Bij goudstaven levert een set van 2 bijvoorbeeld 1 punt op, een set van 3 levert
    2 punten op en een set van 4 of meer levert 4 punten op. Haal je de laagste drempel niet,
    dan levert de set niets op." and "3. Leg zoveel kaarten uit die set gedekt op het veld
    voor verkochte kostbaarheden als de verkoopwaarde aangeeft. [...] 4. Leg de overige
    kaarten van die set open op de aflegstapel"."""
    gold = Cards()(GOLD, count)
    state = selling_table((Slot(), slot(GOLD, *gold), Slot()))
    sold, events = GAME.apply(state, 0, Sell(1))
    assert of_type(events, Sold) == [Sold(0, 1, GOLD, count, points)]
    assert sold.sold[0] == gold[:points]
    assert sold.discard == gold[points:]
    assert sold.stashes[0][1] == Slot(), "the slot is free again"
    assert sale_value(DEFAULT.kinds[GOLD], count) == points


@pytest.mark.parametrize("kind", range(len(DEFAULT.kinds)))
def test_every_kind_sells_by_its_own_thresholds(kind: int) -> None:
    """Seed: "2. Kijk op de kaarten van die soort welke drempel je haalt. Onder elke drempel
    staat de verkoopwaarde." (RULES-NOTES: the table other than gold bars is provisional
    data.) A set below the lowest threshold sells for nothing."""
    table_kind = DEFAULT.kinds[kind]
    for count in range(1, table_kind.copies + 1):
        cards = Cards()(kind, count)
        state = selling_table((slot(kind, *cards), Slot(), Slot()))
        sold, events = GAME.apply(state, 0, Sell(0))
        reached = [value for threshold, value in table_kind.sales if count >= threshold]
        points = reached[-1] if reached else 0
        assert of_type(events, Sold) == [Sold(0, 0, kind, count, points)]
        assert len(sold.sold[0]) == points and len(sold.discard) == count - points


def test_sets_are_sold_one_at_a_time() -> None:
    """Seed: "Je mag zoveel sets verkopen als je wilt, één voor één. 1. Kies een van de drie
    sets op je voorraadtableau"."""
    cards = Cards()
    coins, gold = cards(COIN, 3), cards(GOLD, 2)
    jewels = cards(JEWEL, 2)
    state = selling_table((slot(COIN, *coins), slot(GOLD, *gold), slot(JEWEL, *jewels)))
    once, _ = GAME.apply(state, 0, Sell(1))
    assert once.stashes[0][0] == state.stashes[0][0]
    assert once.stashes[0][2] == state.stashes[0][2]
    assert once.selling == (0,), "still selling"
    twice, _ = GAME.apply(once, 0, Sell(2))
    assert twice.sold[0] == (gold[0], *jewels)
    assert twice.stashes[0] == (slot(COIN, *coins), Slot(), Slot())


def test_sold_cards_are_face_down_points_the_count_public() -> None:
    """Seed: "Leg zoveel kaarten uit die set gedekt op het veld voor verkochte kostbaarheden
    [...] Elke gedekte kaart is 1 punt waard." and "4. Leg de overige kaarten van die set open
    op de aflegstapel naast de trekstapel." Issue: "face-down sold cards (count public, cards
    private)"."""
    gold = Cards()(GOLD, 3)
    state = selling_table((slot(GOLD, *gold), Slot(), Slot()))
    sold, _ = GAME.apply(state, 0, Sell(0))
    assert GAME.view(sold, 0).sold == gold[:2]
    for viewer in (1, 2, None):
        seen = GAME.view(sold, viewer)
        assert seen.sold == () and seen.sold_counts == (2, 0, 0)
        assert seen.discard == gold[2:], "the rest lies face up"


def test_a_sale_puts_the_kinds_own_cards_face_down_before_jokers() -> None:
    """ENGINE (stash.py): "A sale puts the kind's own cards face down before jokers (what the
    tie-break by gold bars favours)." — the seed leaves open which cards go face down."""
    cards = Cards()
    jokers, gold = cards(JOKER, 2), cards(GOLD, 2)
    state = selling_table((slot(GOLD, jokers[0], gold[0], jokers[1], gold[1]), Slot(), Slot()))
    sold, _ = GAME.apply(state, 0, Sell(0))
    assert sold.sold[0] == gold + jokers
    state = selling_table((slot(GOLD, jokers[0], gold[0], jokers[1]), Slot(), Slot()))
    sold, _ = GAME.apply(state, 0, Sell(0))
    assert sold.sold[0] == (gold[0], jokers[0]) and sold.discard == (jokers[1],)


def test_a_freed_slot_is_filled_from_the_hand_and_may_be_sold_again() -> None:
    """Seed: "5. Is er door de verkoop een veld vrijgekomen, dan mag je meteen een set uit je
    hand op dat veld leggen. Die set mag je ook direct verkopen." """
    cards = Cards()
    coins, gold, jewels = cards(COIN, 3), cards(GOLD, 4), cards(JEWEL, 2)
    statues = cards(STATUE, 2)
    full = (slot(COIN, *coins), slot(PAINTING, *cards(PAINTING, 1)), slot(JEWEL, *jewels))
    state = selling_table(full, hand=(*gold, *statues))
    freed, _ = GAME.apply(state, 0, Sell(0))
    assert GAME.legal_moves(freed, 0) == [Store(card, 0) for card in (*gold, *statues)]
    filled, _ = GAME.apply(freed, 0, Store(gold[2], 0))
    assert filled.stashes[0][0] == slot(GOLD, gold[2], gold[0], gold[1], gold[3])
    assert filled.hands[0] == statues
    again, events = GAME.apply(filled, 0, Sell(0))
    assert of_type(events, Sold) == [Sold(0, 0, GOLD, 4, 4)]
    assert again.stashes[0][0] == slot(STATUE, *statues), "and the next set moves in"


def test_the_mastermind_never_keeps_cards_in_hand() -> None:
    """Seed: "Wil of kun je niets meer verkopen, dan moet je alle kaarten uit je hand die je
    niet kunt opslaan open op de aflegstapel leggen. Als brein houd je dus nooit kaarten in je
    hand over." """
    cards = Cards()
    full = (slot(COIN, *cards(COIN, 1)), slot(GOLD, *cards(GOLD, 1)), slot(JEWEL, *cards(JEWEL, 1)))
    hand = (cards.one(STATUE), cards.one(PAINTING))
    state = selling_table(full, hand=hand)
    after, events = GAME.apply(state, 0, EndSelling())
    assert Discarded(0, hand) in events
    assert after.hands[0] == ()
    assert after.discard[-2:] == hand
    assert after.stashes[0] == full, "the stash stays"


def test_only_the_mastermind_sells_during_the_day() -> None:
    """Seed: "Verkopen en dumpen (alleen het brein)" and "Alleen het brein mag verkopen." """
    cards = Cards()
    state = table(
        3,
        mastermind=0,
        stashes=(EMPTY, (slot(GOLD, *cards(GOLD, 4)), Slot(), Slot()), EMPTY),
        **after_heist(3, 0),
    )
    rejects(state, 1, Sell(0), IllegalMoveError, "NOT_SELLING")
    rejects(state, 2, EndSelling(), IllegalMoveError, "NOT_SELLING")


# --- the river ---------------------------------------------------------------------------


def test_the_others_pick_from_the_river_from_the_mastermind_s_left_with_refills() -> None:
    """Seed: "Terwijl het brein verkoopt, kiest iedere andere inbreker 1 van de 3 open kaarten
    uit de rivier. De inbreker links van het brein begint en daarna gaat het met de klok mee.
    Na elke keuze sla je de kaart op en vul je de rivier aan met een kaart van de trekstapel,
    zodat de volgende inbreker weer uit drie kaarten kan kiezen." Left = the next seat."""
    cards = Cards()
    river, top = cards(GOLD, 3), cards(COIN, 3)
    state = table(4, mastermind=2, river=river, top=top, **after_heist(4, 2))
    assert state.river_turns == (3, 0, 1)
    assert GAME.to_act(state) == frozenset({2, 3}), "the mastermind sells meanwhile"
    for seat in (0, 1, 2):
        rejects(state, seat, TakeFromRiver(0), IllegalMoveError, "NOT_YOUR_TURN")
    state, events = GAME.apply(state, 3, TakeFromRiver(1))
    assert FieldRefilled(None, 1, top[0]) in events
    assert state.river == (river[0], top[0], river[2])
    assert holdings(state, 3) == [river[1]]
    state, _ = GAME.apply(state, 0, TakeFromRiver(1))
    assert holdings(state, 0) == [top[0]]
    assert state.river == (river[0], top[1], river[2])
    state, _ = GAME.apply(state, 1, TakeFromRiver(2))
    assert state.river == (river[0], top[1], top[2])
    assert state.river_turns == ()
    assert state.mastermind == 2, "the day waits for the mastermind's selling"
    state, events = GAME.apply(state, 2, EndSelling())
    assert of_type(events, DayEnded) == [DayEnded(1, 3, state.watch)]


def test_the_river_picks_go_on_while_any_river_card_is_left() -> None:
    """Seed: "kiest iedere andere inbreker 1 van de 3 open kaarten uit de rivier" — when the
    draw and discard piles are out the river is not refilled, but a card still lying there
    can be picked. Here the only river card left is card id 0 (a coin)."""
    cards = Cards()
    coin0 = cards.one(COIN)
    assert coin0 == 0
    state = table(3, mastermind=0, river=(coin0, None, None))
    # Every other card is out of play in sold piles: no draw, no reshuffle.
    state = rig(state, deck=(), sold=((), (), state.deck))
    after, _ = choose(state, alone(state, C, D))
    assert after.phase is Phase.AFTER
    assert after.river == (coin0, None, None)
    assert after.river_turns == (1, 2), "seat 1 may still pick the coin"
    assert TakeFromRiver(0) in GAME.legal_moves(after, 1)


def test_the_mastermind_takes_no_river_card() -> None:
    """Seed: "Rivier (alle andere inbrekers)": "Terwijl het brein verkoopt, kiest iedere andere
    inbreker 1 van de 3 open kaarten uit de rivier." """
    state = table(3, mastermind=0, **after_heist(3, 0))
    assert GAME.legal_moves(state, 0) == [EndSelling()], "its stash is empty: only stop"
    rejects(state, 0, TakeFromRiver(0), IllegalMoveError, "NOT_YOUR_TURN")
    state = rig(state, river_turns=())
    rejects(state, 0, TakeFromRiver(0), IllegalMoveError, "NOT_NOW")


# --- the end of a day --------------------------------------------------------------------


def test_the_day_ends_with_refills_and_the_mastermind_passes_left() -> None:
    """Seed, "Einde van een dag": "1. Vul alle lege kaartvelden op de locatietableaus aan met
    kaarten van de trekstapel. [...] 2. Geef de breinpion door aan de speler links van je." """
    cards = Cards()
    top = cards(JEWEL, 2)
    state = last_move_of_day(4, 1, top=top, open_cards={C: (cards.one(GOLD), None, None)})
    after, events = GAME.apply(state, 1, EndSelling())
    assert after.fields[after.index(C)][1:] == top
    assert of_type(events, DayEnded) == [DayEnded(1, 2, after.watch)]
    assert (after.mastermind, after.day, after.phase) == (2, 2, Phase.PLAN)
    assert after.choices == (None,) * 4


def test_an_empty_draw_pile_is_made_from_the_shuffled_discards() -> None:
    """Seed: "Is de trekstapel op, schud dan de aflegstapel en vorm een nieuwe trekstapel." """
    state = last_move_of_day(3, 0)
    fields = list(state.fields)
    fields[state.index(D)] = (None, None, None)
    state = rig(state, fields=tuple(fields))
    state = rig(state, deck=(), discard=state.deck)
    pile = set(state.discard)
    after, events = GAME.apply(state, 0, EndSelling())
    assert of_type(events, DeckReshuffled) == [DeckReshuffled(len(pile))]
    row = after.fields[after.index(D)]
    assert None not in row and set(row) <= pile
    assert after.discard == ()
    assert set(after.deck) == pile - set(row)
    assert sorted(all_cards(after)) == sorted(all_cards(state))


def test_the_watch_turns_back_when_the_pawn_returns_to_the_first_mastermind() -> None:
    """Seed: "4. Komt de breinpion terug bij het eerste brein (de speler met het horloge), dan
    draai je het horloge 1 week terug." """
    mid = last_move_of_day(3, 1, first=2, watch=3)
    after, _ = GAME.apply(mid, 1, EndSelling())
    assert (after.mastermind, after.watch) == (2, 2)
    other = last_move_of_day(3, 2, first=2, watch=3)
    after, _ = GAME.apply(other, 2, EndSelling())
    assert (after.mastermind, after.watch) == (0, 3), "mid-week: the watch stays"


def test_the_game_ends_after_the_week_the_watch_shows_one() -> None:
    """Seed: "Stond het horloge deze week al op 1, dan is het spel voorbij." and "Het spel
    eindigt na de week waarin het horloge op 1 staat." """
    state = last_move_of_day(3, 0, first=1, watch=1)
    after, events = GAME.apply(state, 0, EndSelling())
    assert after.phase is Phase.FINAL_SALE
    assert not of_type(events, DayStarted)
    assert after.selling == (0, 1, 2)


@pytest.mark.parametrize(("players", "name"), list(setups()))
def test_every_seat_is_mastermind_once_a_week(players: int, name: str) -> None:
    """Seed: "Het spel duurt een aantal weken. In elke week is iedere speler precies één dag
    het brein." — 5 weeks with 2 players, 4 with 3 or 4, 3 with 5 (random legal play)."""
    state = new(players, name, seed=bytes([players]) * 4 + name.encode()[:4])
    rng = random.Random(players)
    events: list[Any] = [DayStarted(1, state.watch, state.mastermind)]
    while not state.finished:
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, more = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        events += more
    masterminds = [e.mastermind for e in of_type(events, DayStarted)]
    first = masterminds[0]
    assert masterminds == [(first + d) % players for d in range(WEEKS[players] * players)]
    assert GAME.outcome(state) is not None
    assert GAME.to_act(state) == frozenset()


# --- the end of the game -----------------------------------------------------------------


def test_the_dogs_are_used_a_last_time_at_the_end() -> None:
    """Seed, "Einde van het spel": "1. Heb je Rufus of Gordie, dan gebruik je die hond nog een
    laatste keer." — whoever holds it, mastermind or not."""
    cards = Cards()
    river = cards(GOLD, 3)
    state = last_move_of_day(4, 2, first=3, watch=1, locations=SPADES_CROWN_4)
    state = rig(state, river=river, dogs=(0, 1))
    final, events = GAME.apply(state, 2, EndSelling())
    assert of_type(events, DogUsed) == [DogUsed(0, Dog.RUFUS)]
    assert sorted(holdings(final, 0)) == sorted(river)
    assert (final.phase, final.gordie_due) == (Phase.FINAL_DOGS, (1,))
    assert GAME.to_act(final) == frozenset({1})
    sale, events = GAME.apply(final, 1, TakeWithGordie(FieldRef(C, 2)))
    assert of_type(events, DogUsed) == [DogUsed(1, Dog.GORDIE)]
    assert sale.phase is Phase.FINAL_SALE


def test_everyone_sells_at_the_end_with_the_usual_rules() -> None:
    """Seed: "2. Alle inbrekers mogen de kostbaarheden op hun voorraadtableau verkopen
    volgens de gewone regels. Je mag daarbij ook vrijgekomen velden vullen met kaarten uit je
    hand en die opnieuw verkopen." """
    cards = Cards()
    gold, coins = cards(GOLD, 4), cards(COIN, 3)
    stashes = (
        (slot(GOLD, *gold), slot(PAINTING, *cards(PAINTING, 1)), slot(JEWEL, *cards(JEWEL, 1))),
        EMPTY,
        (slot(COIN, *cards(COIN, 2)), Slot(), Slot()),
    )
    state = last_move_of_day(3, 1, first=2, watch=1, stashes=stashes, hands=(coins, (), ()))
    final, _ = GAME.apply(state, 1, EndSelling())
    assert final.selling == (0, 1, 2)
    assert GAME.to_act(final) == frozenset({0, 1, 2})
    final, _ = apply_all(final, [(0, Sell(0))])
    assert final.stashes[0][0] == slot(COIN, *coins), "the freed slot takes the hand's set"
    final, _ = apply_all(final, [(0, Sell(0)), (2, Sell(0)), (0, EndSelling()), (1, EndSelling())])
    assert final.phase is Phase.FINAL_SALE
    over, events = GAME.apply(final, 2, EndSelling())
    assert over.phase is Phase.OVER
    scores = final_scores(events).scores
    assert [s.sold for s in scores] == [4 + 1, 0, 0]


def _ending(**changes: Any) -> PinchedState:
    """Three seats at the final sale with nothing left to sell."""
    state = last_move_of_day(3, 0, first=1, watch=1, **changes)
    final, _ = GAME.apply(state, 0, EndSelling())
    assert final.phase is Phase.FINAL_SALE
    return final


def _finish(state: PinchedState) -> GameEnded:
    events: list[Any] = []
    for seat in range(state.config.players):
        state, more = GAME.apply(state, seat, EndSelling())
        events += more
    return final_scores(events)


def test_the_final_score_sold_cards_treasures_clues_minus_curses() -> None:
    """Seed: "3. Tel je gedekte, verkochte kaarten. Elke kaart is 1 punt waard. 4. Tel de
    bonuspunten erbij op: de Lisa Mona (3 punten, of 5 op de kroonkant), diamanten (1 punt per
    stuk) en aanwijzingen (2 punten per stuk). 5. Trek de waarde van de vloeken die je nog
    hebt ervan af. De inbreker met de meeste rijkdom wint." """
    cards = Cards()
    sold = (cards(COIN, 5), cards(GOLD, 2), cards(PAINTING, 3))
    state = _ending(
        sold=sold,
        lisa_mona=1,
        lisa_mona_points=5,
        diamonds=(1, 0, 1),
        clues=(0, 2, 1),
        curses=((Curse(0, 3),), (), (Curse(1, 1), Curse(2, 2))),
    )
    ended = _finish(state)
    assert ended.scores == (
        Score(0, 5, 0, 1, 0, 3, 5 + 1 - 3, 0),
        Score(1, 2, 5, 0, 4, 0, 2 + 5 + 4, 2),
        Score(2, 3, 0, 1, 2, 3, 3 + 1 + 2 - 3, 0),
    )
    assert ended.winners == (1,)
    over = _apply_ends(state)
    assert GAME.view(over, None).scores == ended
    outcome = GAME.outcome(over)
    assert outcome is not None and outcome.winners == (1,)


def _apply_ends(state: PinchedState) -> PinchedState:
    for seat in range(state.config.players):
        state, _ = GAME.apply(state, seat, EndSelling())
    return state


def test_a_tie_goes_to_the_most_gold_bars_among_the_sold_cards() -> None:
    """Seed: "Bij een gelijke stand wint de speler met de meeste goudstaven tussen zijn
    verkochte kaarten." """
    cards = Cards()
    sold = (cards(COIN, 4), (*cards(GOLD, 1), *cards(COIN, 3)), (*cards(GOLD, 2), cards.one(COIN)))
    ended = _finish(_ending(sold=sold, diamonds=(0, 0, 1)))
    assert [s.total for s in ended.scores] == [4, 4, 4]
    assert [s.tiebreak for s in ended.scores] == [0, 1, 2]
    assert ended.winners == (2,)


def test_a_tie_in_gold_bars_too_is_a_shared_victory() -> None:
    """Seed: "Is het dan nog gelijk, dan delen die spelers de overwinning." """
    cards = Cards()
    sold = ((*cards(GOLD, 1), *cards(COIN, 2)), (*cards(GOLD, 1), *cards(JEWEL, 2)), cards(COIN, 2))
    state = _ending(sold=sold)
    ended = _finish(state)
    assert ended.winners == (0, 1)
    outcome = GAME.outcome(_apply_ends(state))
    assert outcome is not None and outcome.winners == (0, 1)


def test_cards_are_conserved_through_random_games() -> None:
    """Seed: the valuables move between the draw pile, the fields, the river, the stashes,
    hands, sold piles and the discard pile; none appears or vanishes."""
    for players, name in setups():
        state = new(players, name, seed=bytes([players, len(name)]))
        total = sorted(all_cards(state))
        assert total == list(range(len(kinds_of(DEFAULT))))
        rng = random.Random(name)
        while not state.finished:
            seat = rng.choice(sorted(GAME.to_act(state)))
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
            assert sorted(all_cards(state)) == total
