"""Pinched! (Gekraakt!): the rules of setup, the morning and the night.

One test per rule, each quoting the seed line it checks. Quotes are from the Dutch rule
seed (``shared/seeds/004_*.txt``) unless marked RULES-NOTES (``shared/RULES-NOTES.md``,
Pinched!) or ENGINE (a choice the engine documents where the seed is open). Tables come
from the public factory functions and are rigged with ``msgspec.structs.replace`` (see
``support.table`` and ``support.rig``).

The rules are split by topic: ``test_rules_setup_and_day.py`` (setup, the morning, the
night), ``test_rules_storing_and_selling.py`` and ``test_rules_river_and_end.py`` (the
river, the end of a day, the end of the game); the locations' own rules are in
``test_locations.py``, bad input in ``test_bad_input.py``.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engines.errors import IllegalMoveError, InvalidConfigError
from engines.pinched import GAME
from engines.pinched.components import DEFAULT, JOKER, kinds_of
from engines.pinched.events import (
    CardsDrawn,
    CardTaken,
    DayStarted,
    DogUsed,
    DrawReason,
    LocationChosen,
    LocationsRevealed,
)
from engines.pinched.model import WEEKS, Dog, Location, Phase
from engines.pinched.moves import (
    ChooseLocation,
    EndSelling,
    FieldRef,
    Store,
    TakeCard,
    TakeWithGordie,
)
from engines.pinched.setup import BASIC, RECOMMENDED
from tests.pinched.rules_support import SPADES_CROWN_4
from tests.pinched.support import (
    COIN,
    CROWN,
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
    setups,
    stash_cards,
    store_all,
    table,
)

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
        assert (seen.my_choice, seen.choices, seen.chosen_seats) == (None, (), (1,))
        assert msgspec.structs.replace(seen, chosen_seats=()) == before, "only that seat 1 chose"
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
    assert drawn == CardsDrawn(2, 1, top, DrawReason.LAST_TAKE)
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
    assert of_type(events, CardsDrawn) == [CardsDrawn(1, 1, top[:1], DrawReason.LAST_TAKE)]
    assert after.deck[0] == top[1]


def test_every_view_is_the_definitions_view_type() -> None:
    """engines/base.py: ``view_type`` is the Struct ``view`` returns, for seats and spectators
    alike (a codec derived from the types relies on it)."""
    state = GAME.new_game(GAME.make_config(2, {}), SEED)
    for viewer in (None, 0, 1):
        seen = GAME.view(state, viewer)
        assert type(seen) is GAME.view_type
        assert msgspec.json.decode(msgspec.json.encode(seen), type=GAME.view_type) == seen
