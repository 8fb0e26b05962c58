"""One test per location side of Pinched! (Gekraakt!), each quoting the seed's location text.

Quotes are from the Dutch rule seed (``shared/seeds/004_*.txt``, "De locaties") unless
marked ENGINE (a choice the engine documents where the seed is open).
"""

from __future__ import annotations

from typing import Any

import pytest

from engines.errors import IllegalMoveError, InvalidMoveError
from engines.pinched import GAME
from engines.pinched.events import (
    BankFailed,
    CardsDrawn,
    CardTaken,
    CurseDrawn,
    CursePassed,
    CursesKept,
    DogTaken,
    DogUsed,
    DrawReason,
    LetterOpened,
    LetterRead,
    PassageUsed,
    Treasure,
    TreasureTaken,
    VaultMoved,
)
from engines.pinched.model import Curse, Dog, Location, Phase, PinchedState, TheLetter
from engines.pinched.moves import (
    EndSelling,
    FieldRef,
    KeepCurses,
    PassCurse,
    SkipPassage,
    TakeCard,
    TakeDog,
    TakeWithGordie,
    UsePassage,
)
from engines.pinched.scoring import final
from tests.pinched.support import (
    COIN,
    CROWN,
    GOLD,
    JEWEL,
    PAINTING,
    STATUE,
    STD,
    B,
    C,
    Cards,
    D,
    H,
    S,
    alone,
    apply_all,
    choose,
    close_day,
    holdings,
    last_move_of_day,
    new,
    of_type,
    rejects,
    rig,
    table,
)

SPADES_CROWN = [(D, STD), (C, STD), (S, CROWN), (H, STD), (B, CROWN)]
CURSED = "cursed_secrets"  # 4 players: diamonds crown, spades, hearts crown, the bank
LISA = "search_for_lisa_mona"  # 3 players: diamonds and clubs crown, spades, hearts


def heist(state: PinchedState, choices: dict[int, Location]) -> tuple[PinchedState, list[Any]]:
    return choose(state, choices)


def lone(state: PinchedState, where: Location, elsewhere: Location = C) -> Any:
    """The mastermind alone at ``where``."""
    if where is elsewhere:
        elsewhere = D if where is not D else C
    return choose(state, alone(state, where, elsewhere))


# --- diamonds, standard side ---------------------------------------------------------------


def test_diamonds_standard_lisa_mona_first_then_two_diamonds() -> None:
    """Seed, Ruiten standaardkant: "Voorbereiding: leg de Lisa Mona en de 2 diamanten naast
    het tableau. Het eerste brein dat hier alleen inbreekt, neemt de Lisa Mona. Die is aan het
    einde 3 punten waard. Elk volgend brein dat hier alleen inbreekt, neemt een diamant zolang
    er nog een is. Een diamant is 1 punt waard. [...] De schatten worden niet aangevuld." """
    state = table(3, mastermind=0)
    assert (state.lisa_mona, state.diamonds_left, state.letter) == (None, 2, None)
    treasures = []
    for day in range(4):
        assert state.mastermind == day % 3
        state, events = lone(state, D)
        treasures += of_type(events, TreasureTaken)
        assert state.fields[state.index(D)] == (None, None, None), "and all open cards"
        state, _ = close_day(state)
    assert treasures == [
        TreasureTaken(0, Treasure.LISA_MONA, 3),
        TreasureTaken(1, Treasure.DIAMOND, 1),
        TreasureTaken(2, Treasure.DIAMOND, 1),
    ], "nothing is left for the fourth"
    assert (state.lisa_mona, state.lisa_mona_points) == (0, 3)
    assert (state.diamonds, state.diamonds_left) == ((0, 1, 1), 0)
    scores = final(state).scores
    assert [(s.lisa_mona, s.diamonds) for s in scores] == [(3, 0), (0, 1), (0, 1)]


def test_diamonds_standard_a_shared_heist_takes_no_treasure() -> None:
    """Seed: "Het eerste brein dat hier alleen inbreekt, neemt de Lisa Mona." — only alone."""
    state = table(3, mastermind=0)
    night, events = heist(state, {0: D, 1: D, 2: C})
    night, more = apply_all(night, [(0, TakeCard(0)), (1, TakeCard(1))])
    assert not of_type(events + more, TreasureTaken)
    assert night.lisa_mona is None and night.diamonds_left == 2


def test_a_mastermind_may_collect_several_treasures() -> None:
    """Seed: "Je kunt als brein over meerdere bezoeken meer dan één schat verzamelen." """
    state = table(2, mastermind=0)
    for _ in range(3):
        if state.mastermind == 0:
            state, _ = lone(state, D)
        else:
            state, _ = heist(state, {0: C, 1: H})
        state, _ = close_day(state)
    assert (state.lisa_mona, state.diamonds) == (0, (1, 0))


# --- diamonds, crown side ------------------------------------------------------------------


def test_diamonds_crown_setup_sealed_letter_and_a_clue_per_player() -> None:
    """Seed, Ruiten kroonkant: "Haal de verzegelde brieven van locaties die niet meedoen weg,
    schud de rest en leg er 1 gedekt op het tableau. [...] Leg evenveel aanwijzingen naast
    het tableau als er spelers zijn. De diamanten gebruik je op deze kant niet." """
    seen = set()
    for byte in range(16):
        state = new(3, LISA, seed=bytes([byte]) * 8)
        assert state.letter is not None and not state.letter.opened
        assert state.letter.location in (C, S, H)
        seen.add(state.letter.location)
        assert (state.clues_left, state.diamonds_left, state.lisa_mona) == (3, 0, None)
        for viewer in (0, 1, 2, None):
            assert GAME.view(state, viewer).letter is None
    assert len(seen) > 1, "the letters are shuffled"
    assert new(5, "the_whole_package").clues_left == 5


def test_diamonds_crown_the_letter_is_read_in_secret_and_a_clue_taken() -> None:
    """Seed: "Breekt het brein hier alleen in, dan bekijkt het in het geheim de verzegelde
    brief en neemt het een aanwijzing. Een aanwijzing is aan het einde 2 punten waard. De
    andere spelers krijgen de locatie niet te zien." Issue: the letter is shown "only to the
    mastermind who looked, and kept for that seat"."""
    state = table(3, LISA, mastermind=1)
    state = rig(state, letter=TheLetter(S))
    state, events = lone(state, D)
    (read,) = of_type(events, LetterRead)
    assert read == LetterRead(1, S)
    assert TreasureTaken(1, Treasure.CLUE, 2) in events
    assert (state.clues, state.clues_left) == ((0, 1, 0), 2)
    for viewer in (0, 2, None):
        assert GAME.view_event(read, viewer) == LetterRead(1, None)
        assert GAME.view(state, viewer).letter is None
        assert GAME.view(state, viewer).letter_read_by == (1,)
    assert GAME.view_event(read, 1) == read
    assert GAME.view(state, 1).letter is S
    later, _ = close_day(state)
    later, _ = close_day(heist(later, {0: C, 1: C, 2: H})[0])
    assert GAME.view(later, 1).letter is S, "kept for that seat"
    assert GAME.view(later, 2).letter is None
    assert final(later).scores[1].clues == 2


def test_diamonds_crown_as_many_clues_as_players() -> None:
    """Seed: "Leg evenveel aanwijzingen naast het tableau als er spelers zijn." and "Je mag
    meer dan één aanwijzing hebben." — once they are gone the letter is still read."""
    state = table(3, LISA, mastermind=0, clues_left=1, clues=(1, 1, 0), letter=TheLetter(H))
    state, events = lone(state, D)
    assert state.clues == (2, 1, 0) and state.clues_left == 0
    state, _ = close_day(state)
    state, events = lone(state, D)
    assert of_type(events, LetterRead) == [LetterRead(1, H)]
    assert not of_type(events, TreasureTaken)
    assert state.clues == (2, 1, 0)


def test_diamonds_crown_a_clue_holder_alone_at_the_letters_place_takes_the_lisa_mona() -> None:
    """Seed: "Heeft een brein al een aanwijzing en breekt het later alleen in op de locatie uit
    de brief, dan neemt het de Lisa Mona. Het brein draait de brief om als bewijs. Op deze kant
    is de Lisa Mona 5 punten waard." """
    letter = TheLetter(H, seen_by=(2,))
    state = table(3, LISA, mastermind=2, clues=(0, 0, 1), clues_left=2, letter=letter)
    state, events = lone(state, H)
    assert TreasureTaken(2, Treasure.LISA_MONA, 5) in events
    (opened,) = of_type(events, LetterOpened)
    assert opened == LetterOpened(H)
    assert (state.lisa_mona, state.lisa_mona_points) == (2, 5)
    for viewer in (0, 1, 2, None):
        assert GAME.view_event(opened, viewer) == opened
        seen = GAME.view(state, viewer)
        assert (seen.letter, seen.letter_opened, seen.lisa_mona_holder) == (H, True, 2)
    assert final(state).scores[2].lisa_mona == 5


@pytest.mark.parametrize(
    ("clues", "others_there"),
    [((0, 0, 0), False), ((0, 0, 1), True), ((1, 0, 0), False)],
    ids=["no-clue", "not-alone", "someone-else-has-the-clue"],
)
def test_diamonds_crown_no_lisa_mona_without_clue_or_when_not_alone(
    clues: tuple[int, ...], others_there: bool
) -> None:
    """Seed: "Heeft een brein al een aanwijzing en breekt het later alleen in op de locatie uit
    de brief" — both conditions."""
    state = table(3, LISA, mastermind=2, clues=clues, letter=TheLetter(S, seen_by=(0, 2)))
    choices = {0: S if others_there else D, 1: C, 2: S}
    state, events = heist(state, choices)
    while state.phase is Phase.NIGHT:
        seat = min(GAME.to_act(state))
        state, more = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
        events += more
    assert not of_type(events, LetterOpened)
    assert state.lisa_mona is None and state.letter is not None and not state.letter.opened


def test_diamonds_crown_clues_remain_after_the_lisa_mona_is_stolen() -> None:
    """Seed: "Ook nadat de Lisa Mona gestolen is, kun je hier nog aanwijzingen halen." """
    letter = TheLetter(C, seen_by=(0,), opened=True)
    state = table(
        3,
        LISA,
        mastermind=1,
        clues=(1, 0, 0),
        clues_left=2,
        letter=letter,
        lisa_mona=0,
        lisa_mona_points=5,
    )
    state, events = lone(state, D)
    assert TreasureTaken(1, Treasure.CLUE, 2) in events
    assert state.clues == (1, 1, 0) and state.lisa_mona == 0


def test_diamonds_crown_the_lisa_mona_can_hide_at_the_bank() -> None:
    """Seed: "Haal de verzegelde brieven van locaties die niet meedoen weg" — the bank is a
    location ("De bank (4 of 5 spelers)"), so a letter may name it; a clue holder alone there
    takes the Lisa Mona (and the bank's two cards)."""
    state = table(4, CURSED, mastermind=3, clues=(0, 0, 0, 1), letter=TheLetter(B, (3,)))
    state, events = lone(state, B, elsewhere=S)
    assert TreasureTaken(3, Treasure.LISA_MONA, 5) in events
    assert of_type(events, CardsDrawn)[0].count == 2


# --- clubs -----------------------------------------------------------------------------------


def test_clubs_standard_the_vault_moves_right_when_the_mastermind_is_not_alone() -> None:
    """Seed, Klaveren standaardkant: "Voorbereiding: leg de kluis op het meest linkse veld van
    het kluisspoor (0). Is het brein hier niet alleen, dan schuif je de kluis 1 veld naar
    rechts. Er komt dan meer buit in de kluis." """
    state = table(3, mastermind=0)
    assert state.vault == 0 and GAME.view(state, None).vault_value == 0
    night, events = heist(state, {0: C, 1: C, 2: D})
    assert of_type(events, VaultMoved) == [VaultMoved(1, 1)]
    assert night.present == (0, 1) and night.takes, "and the usual shared heist"
    assert GAME.view(night, 2).vault_value == 1


def test_clubs_standard_alone_the_vault_is_cracked_and_reset() -> None:
    """Seed: "Is het brein hier alleen, dan kraakt het de kluis en trekt het zoveel
    kostbaarheden van de trekstapel als het getal waarop de kluis staat. Zet de kluis daarna
    terug op het meest linkse veld." """
    cards = Cards()
    top = cards(STATUE, 3)
    state = table(3, mastermind=1, vault=3, top=top)
    track = state.config.components.vault_standard
    after, events = lone(state, C)
    assert len(of_type(events, CardTaken)) == 3, "all open cards too"
    (drawn,) = of_type(events, CardsDrawn)
    assert drawn == CardsDrawn(1, track[3], top[: track[3]], DrawReason.VAULT)
    assert of_type(events, VaultMoved) == [VaultMoved(0, 0)]
    assert after.vault == 0
    for viewer in (0, 2, None):
        assert GAME.view_event(drawn, viewer) == CardsDrawn(1, track[3], (), DrawReason.VAULT)


def test_clubs_standard_a_vault_at_zero_gives_nothing_extra() -> None:
    """Seed: "Staat de kluis op 0, dan levert kraken niets extra op." """
    state = table(3, mastermind=0)
    after, events = lone(state, C)
    assert [d.count for d in of_type(events, CardsDrawn)] == [0]
    assert len(holdings(after, 0)) == 3


def test_clubs_crown_track_one_two_four_six() -> None:
    """Seed, Klaveren kroonkant: "Alle regels zijn gelijk aan de standaardkant, maar het
    kluisspoor loopt van 1 via 2 en 4 naar 6." ENGINE: the vault stays on the track's last
    field when moved further."""
    state = table(2, "paranoid_owner", mastermind=0)
    assert state.config.components.vault_crown == (1, 2, 4, 6)
    assert GAME.view(state, 0).vault_value == 1
    moved = []
    for _ in range(4):
        night, events = heist(state, {0: C, 1: C})
        moved += of_type(events, VaultMoved)
        state = rig(state, vault=night.vault)
    assert moved == [VaultMoved(1, 2), VaultMoved(2, 4), VaultMoved(3, 6), VaultMoved(3, 6)]
    for vault, count in enumerate((1, 2, 4, 6)):
        after, events = lone(rig(state, vault=vault), C, elsewhere=D)
        assert [d.count for d in of_type(events, CardsDrawn)] == [count]
        assert after.vault == 0


# --- spades ----------------------------------------------------------------------------------


@pytest.mark.parametrize("holder", [None, 2], ids=["on-the-tableau", "from-another-player"])
def test_spades_standard_alone_the_mastermind_takes_rufus(holder: int | None) -> None:
    """Seed, Schoppen standaardkant: "Voorbereiding: leg Rufus op zijn veld op het tableau.
    Breekt het brein hier alleen in, dan neemt het Rufus en legt hem voor zich neer. Heeft een
    andere speler Rufus al, dan neem je hem van die speler af." """
    state = table(3, mastermind=0, dogs=(holder, None))
    after, events = lone(state, S)
    assert of_type(events, DogTaken) == [DogTaken(0, Dog.RUFUS, holder)]
    assert after.dogs == (0, None)
    assert len(holdings(after, 0)) == 3


def test_spades_standard_no_dog_when_not_alone() -> None:
    """Seed: "Breekt het brein hier alleen in, dan neemt het Rufus" — only alone."""
    state = table(3, mastermind=0)
    night, events = heist(state, {0: S, 1: S, 2: D})
    night, more = apply_all(night, [(0, TakeCard(0)), (1, TakeCard(1))])
    assert not of_type(events + more, DogTaken)
    assert night.dogs == (None, None)


def test_spades_standard_rufus_is_used_the_next_day_as_mastermind() -> None:
    """Seed: "Heb je Rufus nog als je de volgende keer het brein bent, dan neem je aan het
    begin van je dag (voor de ochtend) alle 3 kaarten uit de rivier." (Two players never
    play spades; three do.)"""
    state = table(3, mastermind=0)
    state, _ = lone(state, S)
    for _ in range(2):
        state, _ = close_day(state)
        state, _ = choose(state, {0: C, 1: D, 2: D})
    state, events = close_day(state)
    assert state.mastermind == 0 and state.dogs == (0, None)
    river = [e for e in of_type(events, CardTaken) if e.location is None]
    assert [e.seat for e in river][-3:] == [0, 0, 0]
    assert events.index(DogUsed(0, Dog.RUFUS)) < events.index(river[-1])


def test_spades_crown_both_dogs_free_the_mastermind_chooses() -> None:
    """Seed, Schoppen kroonkant: "Voorbereiding: leg Rufus en Gordie op hun velden op het
    tableau. Breekt het brein hier alleen in, dan neemt het de hond die nog door niemand
    genomen is." — with both free, either one."""
    state = table(4, locations=SPADES_CROWN, mastermind=1)
    night, _ = lone(state, S)
    assert night.phase is Phase.NIGHT and night.dog_due
    assert GAME.to_act(night) == frozenset({1})
    assert GAME.legal_moves(night, 1) == [TakeDog(Dog.RUFUS), TakeDog(Dog.GORDIE)]
    after, events = GAME.apply(night, 1, TakeDog(Dog.GORDIE))
    assert of_type(events, DogTaken) == [DogTaken(1, Dog.GORDIE, None)]
    assert after.dogs == (None, 1) and after.phase is Phase.AFTER


def test_spades_crown_the_free_dog_is_taken() -> None:
    """Seed: "neemt het de hond die nog door niemand genomen is." """
    state = table(4, locations=SPADES_CROWN, mastermind=1, dogs=(3, None))
    after, events = lone(state, S)
    assert of_type(events, DogTaken) == [DogTaken(1, Dog.GORDIE, None)]
    assert after.dogs == (3, 1)


def test_spades_crown_both_dogs_with_others_take_one_of_choice() -> None:
    """Seed: "Hebben andere spelers beide honden al, dan neemt het brein een hond naar keuze
    van een andere speler af." """
    state = table(4, locations=SPADES_CROWN, mastermind=0, dogs=(2, 3))
    night, _ = lone(state, S)
    assert GAME.legal_moves(night, 0) == [TakeDog(Dog.RUFUS), TakeDog(Dog.GORDIE)]
    after, events = GAME.apply(night, 0, TakeDog(Dog.RUFUS))
    assert of_type(events, DogTaken) == [DogTaken(0, Dog.RUFUS, 2)]
    assert after.dogs == (0, 3)


def test_spades_crown_holding_one_dog_the_mastermind_takes_the_other() -> None:
    """ENGINE (night.dog_options): "With one dog its own and the other elsewhere, it takes the
    other." Holding both, nothing changes."""
    state = table(4, locations=SPADES_CROWN, mastermind=0, dogs=(0, 2))
    after, events = lone(state, S)
    assert of_type(events, DogTaken) == [DogTaken(0, Dog.GORDIE, 2)]
    assert after.dogs == (0, 0)
    both = table(4, locations=SPADES_CROWN, mastermind=0, dogs=(0, 0))
    after, events = lone(both, S)
    assert not of_type(events, DogTaken) and after.dogs == (0, 0)


def test_spades_crown_gordie_takes_an_open_mansion_card_and_refills_it() -> None:
    """Seed: "Heb je Gordie, dan neem je 1 open kaart van een landhuis naar keuze en vul je dat
    veld direct aan." (The whole morning step is in test_rules_setup_and_day.py.)"""
    cards = Cards()
    spades, top = cards(GOLD, 3), cards(JEWEL, 1)
    state = last_move_of_day(
        4, 3, locations=SPADES_CROWN, dogs=(None, 0), top=top, open_cards={S: spades}
    )
    morning, _ = GAME.apply(state, 3, EndSelling())
    after, events = GAME.apply(morning, 0, TakeWithGordie(FieldRef(S, 2)))
    assert of_type(events, CardTaken) == [CardTaken(0, S, 2, spades[2])]
    assert spades[2] in holdings(after, 0)
    assert after.fields[after.index(S)] == (*spades[:2], top[0])


# --- hearts, standard side -------------------------------------------------------------------


def _passage_refs(state: PinchedState) -> list[FieldRef]:
    return [
        FieldRef(p.location, f)
        for p, row in zip(state.config.locations, state.fields, strict=True)
        if p.location not in (H, B)
        for f, card in enumerate(row)
        if card is not None
    ]


def test_hearts_standard_a_taker_may_use_the_passage_instead() -> None:
    """Seed, Harten standaardkant: "Voorbereiding: schuif de geheime doorgang open. Bij een
    overval in dit landhuis mag de inbreker die een kaart neemt, zolang de doorgang open is, in
    plaats daarvan 1 open kaart uit een ander landhuis nemen. Daarna schuif je de doorgang
    dicht. Per overval kan maar één inbreker de doorgang gebruiken." """
    state = table(3, mastermind=0)
    assert state.passage_open
    night, _ = heist(state, {0: H, 1: H, 2: H})
    refs = _passage_refs(night)
    moves = GAME.legal_moves(night, 0)
    assert moves == [TakeCard(0), TakeCard(1), TakeCard(2)] + [UsePassage((r,)) for r in refs]
    rejects(night, 0, UsePassage((FieldRef(H, 0),)), IllegalMoveError, "NOT_ANOTHER_MANSION")
    rejects(night, 0, UsePassage(tuple(refs[:2])), IllegalMoveError, "PASSAGE_CARDS")
    night, _ = GAME.apply(night, 0, TakeCard(0))
    wanted = night.fields[night.index(S)][1]
    night, events = GAME.apply(night, 1, UsePassage((FieldRef(S, 1),)))
    assert PassageUsed(1) in events
    assert holdings(night, 1) == [wanted]
    assert night.fields[night.index(S)][1] is None
    assert not night.passage_open
    assert night.takes[0].seat == 2
    assert not any(isinstance(m, UsePassage) for m in GAME.legal_moves(night, 2))
    rejects(night, 2, UsePassage((FieldRef(D, 0),)), IllegalMoveError, "PASSAGE_CLOSED")
    assert night.fields[night.index(H)][1:] == state.fields[state.index(H)][1:]


def test_hearts_standard_alone_take_everything_and_the_passage_too() -> None:
    """Seed: "Is het brein alleen, dan neemt het alle kostbaarheden en mag het ook de geheime
    doorgang gebruiken." """
    state = table(3, mastermind=2)
    night, _ = lone(state, H)
    assert len(holdings(night, 2)) == 3
    assert night.passage_due and GAME.to_act(night) == frozenset({2})
    refs = _passage_refs(night)
    assert GAME.legal_moves(night, 2) == [UsePassage((r,)) for r in refs] + [SkipPassage()]
    after, _ = GAME.apply(night, 2, UsePassage((FieldRef(C, 0),)))
    assert len(holdings(after, 2)) == 4 and not after.passage_open
    assert after.phase is Phase.AFTER
    skipped, _ = GAME.apply(night, 2, SkipPassage())
    assert len(holdings(skipped, 2)) == 3 and skipped.passage_open
    assert skipped.phase is Phase.AFTER


def test_hearts_standard_the_passage_reopens_at_the_end_of_the_day() -> None:
    """Seed: "Aan het einde van de dag schuif je de doorgang weer open." and "3. Speel je met
    het harten landhuis, schuif de geheime doorgang dan weer open." """
    state = table(3, mastermind=2)
    night, _ = lone(state, H)
    after, _ = GAME.apply(night, 2, UsePassage((FieldRef(C, 0),)))
    assert not after.passage_open
    morning, _ = close_day(after)
    assert morning.passage_open and morning.mastermind == 0


def test_hearts_standard_a_bare_turn_may_still_use_the_passage() -> None:
    """Seed: "mag de inbreker die een kaart neemt, zolang de doorgang open is, in plaats
    daarvan 1 open kaart uit een ander landhuis nemen" — ENGINE: a thief finding the mansion
    bare may still go through the open passage, or decline and get nothing; the mastermind
    declining its last take draws from the deck."""
    cards = Cards()
    top, gold = cards(STATUE, 1), cards.one(GOLD)
    state = table(3, mastermind=0, open_cards={H: (gold, None, None)}, top=top)
    night, _ = heist(state, {0: H, 1: H, 2: H})
    assert GAME.legal_moves(night, 0)[0] == TakeCard(0)
    night, _ = GAME.apply(night, 0, TakeCard(0))
    assert SkipPassage() in GAME.legal_moves(night, 1)
    night, _ = GAME.apply(night, 1, SkipPassage())
    assert holdings(night, 1) == []
    night, _ = GAME.apply(night, 2, SkipPassage())
    after, events = GAME.apply(night, 0, SkipPassage())
    assert of_type(events, CardsDrawn) == [CardsDrawn(0, 1, top, DrawReason.LAST_TAKE)]
    assert sorted(holdings(after, 0)) == sorted([gold, *top])


# --- hearts, crown side ----------------------------------------------------------------------


def test_hearts_crown_two_cards_and_a_curse() -> None:
    """Seed, Harten kroonkant: "Voorbereiding: schuif de geheime doorgang open. Schud de 6
    vloeken en leg ze gedekt op het tableau. Bij een overval in dit landhuis mag de inbreker
    die een kaart neemt, zolang de doorgang open is, in plaats daarvan 2 open kaarten uit
    andere landhuizen nemen. Dat mogen 2 kaarten uit hetzelfde landhuis zijn of 1 kaart uit 2
    verschillende landhuizen. De inbreker die de doorgang gebruikt, trekt een vloek en schuift
    de doorgang dicht." """
    state = table(4, CURSED, mastermind=0)
    assert len(state.curse_pile) == 6
    assert sorted(c.points for c in state.curse_pile) == sorted(state.config.components.curses)
    night, _ = heist(state, {0: H, 1: H, 2: D, 3: S})
    rejects(night, 0, UsePassage((FieldRef(D, 0),)), IllegalMoveError, "PASSAGE_CARDS")
    same = (FieldRef(D, 0), FieldRef(D, 0))
    rejects(night, 0, UsePassage(same), InvalidMoveError, "SAME_CARD_TWICE")
    pairs = [m for m in GAME.legal_moves(night, 0) if isinstance(m, UsePassage)]
    assert UsePassage((FieldRef(D, 0), FieldRef(D, 2))) in pairs, "two from one mansion"
    assert UsePassage((FieldRef(D, 1), FieldRef(S, 0))) in pairs, "one from each of two"
    assert all(len(m.cards) == 2 for m in pairs)
    taken = [
        c
        for c in (night.fields[night.index(D)][1], night.fields[night.index(S)][0])
        if c is not None
    ]
    assert len(taken) == 2
    curse = night.curse_pile[0]
    after, events = GAME.apply(night, 0, UsePassage((FieldRef(D, 1), FieldRef(S, 0))))
    assert sorted(holdings(after, 0)) == sorted(taken)
    (drawn,) = of_type(events, CurseDrawn)
    assert drawn == CurseDrawn(0, curse)
    assert after.curses[0] == (curse,) and len(after.curse_pile) == 5
    assert not after.passage_open


def test_hearts_crown_curses_are_secret() -> None:
    """Seed: "Je vloeken houd je geheim. De vloeken zijn -1, -2 of -3 punten waard." """
    state = table(4, CURSED, mastermind=0)
    night, _ = heist(state, {0: H, 1: D, 2: D, 3: D})
    after, events = GAME.apply(night, 0, UsePassage((FieldRef(D, 0), FieldRef(D, 1))))
    (drawn,) = of_type(events, CurseDrawn)
    for viewer in (1, 2, 3, None):
        assert GAME.view_event(drawn, viewer) == CurseDrawn(0, None)
        seen = GAME.view(after, viewer)
        assert seen.curses == () and seen.curse_counts == (1, 0, 0, 0)
    assert GAME.view(after, 0).curses == after.curses[0]
    assert all(c.points in (1, 2, 3) for c in state.curse_pile)


def test_hearts_crown_the_passage_without_curses_left() -> None:
    """Seed: "Zijn de vloeken op, dan kun je de doorgang nog steeds gebruiken zonder een vloek
    te trekken." """
    state = table(4, CURSED, mastermind=0, curse_pile=())
    night, _ = lone(state, H, elsewhere=D)
    after, events = GAME.apply(night, 0, UsePassage((FieldRef(D, 0), FieldRef(S, 0))))
    assert PassageUsed(0) in events and not of_type(events, CurseDrawn)
    assert after.curses[0] == () and len(holdings(after, 0)) == 5


def test_hearts_crown_with_one_open_card_the_passage_takes_it() -> None:
    """ENGINE (night.passage_size): the crown passage takes two cards, or as many as are open
    in the other mansions when fewer."""
    cards = Cards()
    one = cards.one(GOLD)
    state = table(4, CURSED, mastermind=0, open_cards={D: (None, one, None), S: (None, None, None)})
    night, _ = lone(state, H, elsewhere=D)
    assert GAME.legal_moves(night, 0) == [UsePassage((FieldRef(D, 1),)), SkipPassage()]
    after, _ = GAME.apply(night, 0, UsePassage((FieldRef(D, 1),)))
    assert one in holdings(after, 0) and len(after.curses[0]) == 1


def cursed_heist(
    curses: tuple[tuple[Curse, ...], ...], choices: dict[int, Location], **changes: Any
) -> PinchedState:
    """A cursed-secrets table (mastermind 0) right after the reveal."""
    used = {c.id for row in curses for c in row}
    pile = tuple(Curse(i, 1) for i in range(6) if i not in used)
    state = table(4, CURSED, mastermind=0, curses=curses, curse_pile=pile, **changes)
    night, _ = heist(state, choices)
    return night


def _night_takes(state: PinchedState) -> PinchedState:
    """Play the heist's takes (first legal take each) up to the curse passing."""
    while state.takes or state.passage_due:
        seat = state.takes[0].seat if state.takes else state.mastermind
        moves = [m for m in GAME.legal_moves(state, seat) if isinstance(m, TakeCard)]
        state, _ = GAME.apply(state, seat, moves[0] if moves else SkipPassage())
    return state


def test_hearts_crown_curses_pass_among_those_present_at_a_later_heist() -> None:
    """Seed: "Bij elke volgende overval, op welke locatie ook, mag iedere inbreker die bij die
    overval aanwezig is 1 van zijn vloeken geven aan een andere inbreker die daar ook is.
    Aanwezig zijn het brein en alle inbrekers die de goede locatie kozen." """
    curse = Curse(4, 3)
    passing = _night_takes(cursed_heist(((), (), (curse,), ()), {0: D, 1: S, 2: D, 3: D}))
    assert passing.phase is Phase.NIGHT and passing.present == (0, 2, 3)
    assert GAME.to_act(passing) == frozenset({2})
    assert GAME.legal_moves(passing, 2) == [
        KeepCurses(),
        PassCurse(4, 0),
        PassCurse(4, 3),
    ]
    rejects(passing, 2, PassCurse(4, 1), IllegalMoveError, "NOT_PRESENT")
    rejects(passing, 2, PassCurse(4, 2), IllegalMoveError, "NOT_PRESENT")
    after, events = GAME.apply(passing, 2, PassCurse(4, 3))
    (passed,) = of_type(events, CursePassed)
    assert passed == CursePassed(2, 3, curse)
    assert after.curses == ((), (), (), (curse,))
    assert after.phase is Phase.AFTER
    for viewer in (0, 1, None):
        assert GAME.view_event(passed, viewer) == CursePassed(2, 3, None)
        assert GAME.view_move(PassCurse(4, 3), 2, viewer) is None
    assert GAME.view_event(passed, 3) == passed
    kept, events = GAME.apply(passing, 2, KeepCurses())
    assert events[0] == CursesKept(2) and kept.curses == passing.curses


def test_hearts_crown_curses_pass_at_any_location_but_not_when_alone() -> None:
    """Seed: "Bij elke volgende overval, op welke locatie ook" — at the bank too; a lone
    mastermind has nobody to give one to."""
    curses: tuple[tuple[Curse, ...], ...] = ((Curse(0, 2),), (), (), ())
    at_bank = cursed_heist(curses, {0: B, 1: B, 2: D, 3: D})
    assert at_bank.curse_turns == (0,)
    lone_heist = cursed_heist(curses, {0: D, 1: S, 2: S, 3: S})
    assert lone_heist.curse_turns == () and lone_heist.phase is Phase.AFTER


def test_hearts_crown_a_curse_received_this_heist_cannot_be_passed_at_once() -> None:
    """Seed: "Een vloek die je tijdens de huidige overval kreeg, mag je niet meteen
    doorgeven." — neither one drawn through the passage nor one passed to you."""
    old, own = Curse(5, 1), Curse(4, 2)
    night = cursed_heist(((), (old,), (own,), ()), {0: H, 1: H, 2: H, 3: D})
    fresh = night.curse_pile[0]
    night, _ = GAME.apply(night, 0, UsePassage((FieldRef(D, 0), FieldRef(D, 1))))
    assert night.curses[0] == (fresh,)
    passing = _night_takes(night)
    assert passing.curse_turns == (1, 2), "seat 0 holds only this heist's curse"
    rejects(passing, 0, PassCurse(fresh.id, 1), IllegalMoveError, "NOT_NOW")
    after, _ = GAME.apply(passing, 1, PassCurse(old.id, 2))
    assert sorted(after.curses[2], key=lambda c: c.id) == [own, old]
    rejects(after, 2, PassCurse(old.id, 0), IllegalMoveError, "CURSE_NOT_PASSABLE")
    assert GAME.legal_moves(after, 2) == [KeepCurses(), PassCurse(own.id, 0), PassCurse(own.id, 1)]
    done, _ = GAME.apply(after, 2, PassCurse(own.id, 0))
    assert sorted(done.curses[0], key=lambda c: c.id) == sorted([fresh, own], key=lambda c: c.id)
    assert done.phase is Phase.AFTER


def test_hearts_crown_at_most_one_curse_per_seat_per_heist() -> None:
    """Seed: "mag iedere inbreker [...] 1 van zijn vloeken geven" — one, not more."""
    two = (Curse(0, 1), Curse(1, 3))
    passing = _night_takes(cursed_heist((two, (Curse(2, 2),), (), ()), {0: D, 1: D, 2: S, 3: S}))
    assert passing.curse_turns == (0, 1)
    after, _ = GAME.apply(passing, 0, PassCurse(1, 1))
    assert after.curses[0] == (Curse(0, 1),)
    assert after.curse_turns == (1,)
    rejects(after, 0, PassCurse(0, 1), IllegalMoveError, "NOT_NOW")
    rejects(after, 0, KeepCurses(), IllegalMoveError, "NOT_NOW")


# --- the bank --------------------------------------------------------------------------------


def test_bank_alone_draws_two() -> None:
    """Seed, De bank: "Voorbereiding: leg de bank met de kroonkant naar boven naast het
    riviertableau." and "Is alleen het brein bij de bank, dan trekt het 2 kostbaarheden van
    de trekstapel." """
    cards = Cards()
    top = (*cards(GOLD, 1), *cards(PAINTING, 1))
    state = table(4, mastermind=1, top=top)
    assert state.fields[state.index(B)] == ()
    after, events = lone(state, B)
    assert of_type(events, CardsDrawn) == [CardsDrawn(1, 2, top, DrawReason.BANK)]
    assert sorted(holdings(after, 1)) == sorted(top)
    assert not any(isinstance(m, TakeCard) for s in range(4) for m in GAME.legal_moves(after, s))


def test_bank_some_present_each_draws_four() -> None:
    """Seed: "Zijn er meer inbrekers bij de bank, maar niet allemaal, dan trekt ieder van hen
    4 kostbaarheden." """
    top = Cards()(COIN, 8)
    state = table(4, mastermind=2, top=top)
    after, events = heist(state, {0: B, 1: D, 2: B, 3: C})
    drawn = of_type(events, CardsDrawn)
    assert drawn == [
        CardsDrawn(2, 4, top[:4], DrawReason.BANK),
        CardsDrawn(0, 4, top[4:], DrawReason.BANK),
    ]
    assert holdings(after, 3) == holdings(after, 1) == []
    for viewer in (1, 3, None):
        assert [GAME.view_event(d, viewer) for d in drawn] == [
            CardsDrawn(2, 4, (), DrawReason.BANK),
            CardsDrawn(0, 4, (), DrawReason.BANK),
        ]


def test_bank_everyone_present_the_heist_fails() -> None:
    """Seed: "Zijn alle inbrekers bij de bank, dan mislukt de overval en krijgt niemand
    iets." """
    state = table(5, mastermind=4)
    after, events = heist(state, dict.fromkeys(range(5), B))
    assert BankFailed() in events
    assert not of_type(events, CardsDrawn)
    assert after.deck == state.deck
    assert all(holdings(after, s) == [] for s in range(5))


def test_the_crown_treasures_score() -> None:
    """Seed, "Einde van het spel en puntentelling": "de Lisa Mona (3 punten, of 5 op de
    kroonkant), diamanten (1 punt per stuk) en aanwijzingen (2 punten per stuk)"."""
    state = table(3, LISA, clues=(2, 0, 1), lisa_mona=2, lisa_mona_points=5)
    scores = final(state).scores
    assert [(s.lisa_mona, s.clues) for s in scores] == [(0, 4), (0, 0), (5, 2)]
    assert [s.total for s in scores] == [4, 0, 7]
