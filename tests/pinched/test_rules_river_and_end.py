"""Pinched! (Gekraakt!): the rules of the river, the end of a day and the end of the game.

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

import random
from typing import Any

import pytest

from engines.errors import IllegalMoveError
from engines.pinched import GAME
from engines.pinched.components import DEFAULT, kinds_of
from engines.pinched.events import (
    DayEnded,
    DayStarted,
    DeckReshuffled,
    DogUsed,
    FieldRefilled,
    GameEnded,
    Score,
)
from engines.pinched.model import WEEKS, Curse, Dog, Phase, PinchedState, Slot
from engines.pinched.moves import EndSelling, FieldRef, Sell, TakeFromRiver, TakeWithGordie
from tests.pinched.rules_support import SPADES_CROWN_4
from tests.pinched.support import (
    COIN,
    EMPTY,
    GOLD,
    JEWEL,
    PAINTING,
    C,
    Cards,
    D,
    after_heist,
    all_cards,
    alone,
    apply_all,
    choose,
    holdings,
    last_move_of_day,
    new,
    of_type,
    rejects,
    rig,
    setups,
    slot,
    table,
)


def final_scores(events: list[Any]) -> GameEnded:
    (ended,) = of_type(events, GameEnded)
    assert isinstance(ended, GameEnded)
    return ended


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


def test_a_bare_river_field_is_filled_again_once_there_are_cards() -> None:
    """Seed: "vul je de rivier aan met een kaart van de trekstapel, zodat de volgende
    inbreker weer uit drie kaarten kan kiezen": a field left bare while the piles were out
    is filled at the next pick, so the next burglar chooses from three again."""
    cards = Cards()
    gold, top = cards.one(GOLD), cards(COIN, 3)
    state = table(4, mastermind=2, river=(gold, None, None), top=top, **after_heist(4, 2))
    state, events = GAME.apply(state, 3, TakeFromRiver(0))
    assert holdings(state, 3) == [gold]
    assert of_type(events, FieldRefilled) == [FieldRefilled(None, f, top[f]) for f in range(3)]
    assert state.river == top


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
    gold, coins = cards(GOLD, 4), cards(COIN, 4)  # four coins sell for one
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
    assert GAME.view(over, None).result == ended
    outcome = GAME.outcome(over)
    assert outcome is not None and outcome.winners == (1,)
    assert outcome.scores == (3, 11, 3)  # the totals, seat 0 first
    assert outcome.tiebreaks == (0, 2, 0)
    assert outcome.placings == (2, 1, 2)  # equal totals and gold bars share a place
    assert outcome.team is False


def _apply_ends(state: PinchedState) -> PinchedState:
    for seat in range(state.config.players):
        state, _ = GAME.apply(state, seat, EndSelling())
    return state


def test_a_tie_goes_to_the_most_gold_bars_among_the_sold_cards() -> None:
    """Seed: "Bij een gelijke stand wint de speler met de meeste goudstaven tussen zijn
    verkochte kaarten." """
    cards = Cards()
    sold = (cards(COIN, 4), (*cards(GOLD, 1), *cards(COIN, 3)), (*cards(GOLD, 2), cards.one(COIN)))
    state = _ending(sold=sold, diamonds=(0, 0, 1))
    ended = _finish(state)
    assert [s.total for s in ended.scores] == [4, 4, 4]
    assert [s.tiebreak for s in ended.scores] == [0, 1, 2]
    assert ended.winners == (2,)
    outcome = GAME.outcome(_apply_ends(state))
    assert outcome is not None
    assert (outcome.scores, outcome.tiebreaks) == ((4, 4, 4), (0, 1, 2))
    assert outcome.placings == (3, 2, 1)  # the gold bars place the equal totals


def test_a_tie_in_gold_bars_too_is_a_shared_victory() -> None:
    """Seed: "Is het dan nog gelijk, dan delen die spelers de overwinning." """
    cards = Cards()
    sold = ((*cards(GOLD, 1), *cards(COIN, 2)), (*cards(GOLD, 1), *cards(JEWEL, 2)), cards(COIN, 2))
    state = _ending(sold=sold)
    ended = _finish(state)
    assert ended.winners == (0, 1)
    outcome = GAME.outcome(_apply_ends(state))
    assert outcome is not None and outcome.winners == (0, 1)
    assert outcome.placings == (1, 1, 3)  # the shared victory shares first place


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
