"""Who a finished table rates, at which place, and openskill's update (pure:
service.app.rating_math)."""

from __future__ import annotations

import pytest

from engines.base import Outcome
from service.app import rating_math
from service.app.rating_math import Rated
from service.domain import hosting, records
from service.domain.records import BOT, OPEN_SEAT, PLAYER, HostRecord, SeatHold, TableActionRecord
from service.errors import BadRequest
from service.storage.ratings import Skill


def outcome(placings: tuple[int, ...], *, team: bool = False, won: bool = True) -> Outcome:
    seats = len(placings)
    winners = tuple(s for s in range(seats) if placings[s] == 1) if (won or not team) else ()
    return Outcome(
        winners=winners,
        summary="",
        scores=tuple(0 for _ in range(seats)),
        placings=placings,
        tiebreaks=tuple(0 for _ in range(seats)),
        team=team,
    )


def host(*holds: SeatHold) -> HostRecord:
    return HostRecord(records.TABLE_LIVE, holds, 0.0, rated=True)


def player(player_id: str, name: str = "") -> SeatHold:
    return SeatHold(PLAYER, name or player_id, player_id=player_id)


def bot(strategy: int, name: str = "Bot") -> SeatHold:
    return SeatHold(BOT, name, bot=strategy)


def test_places_are_one_plus_the_seats_strictly_better_and_ties_share_one() -> None:
    """Rule (rating_math): "place 1 + the seats strictly better, tied seats sharing a
    place"; the placing a tournament scores with is the same function."""
    assert rating_math.seat_places(outcome((2, 1, 2, 4))) == [2, 1, 2, 4]
    assert rating_math.seat_places(outcome((3, 1, 1))) == [3, 1, 1]


def test_a_team_places_every_seat_one_when_it_won_and_two_when_it_lost() -> None:
    """Rule: the team "wins (place 1) when the outcome has winners ..., else it loses (place 2)"."""
    assert rating_math.seat_places(outcome((1, 1, 1), team=True, won=True)) == [1, 1, 1]
    assert rating_math.seat_places(outcome((1, 1, 1), team=True, won=False)) == [2, 2, 2]


def test_players_by_their_ids_bots_by_their_strategy_and_seats_without_an_id_not_at_all() -> None:
    """Rule: a player's seat is rated under its player_id, a seat without one is not, and a
    seat the referee's bot held from the start is rated as ``bot:<strategy>``, named by its
    kind ("heuristic bot"), never by its seat's display name."""
    table = host(player("alice"), SeatHold(PLAYER, "Anon"), bot(2, "Bot 3"), SeatHold(OPEN_SEAT))
    rated = rating_math.who_is_rated(table, [1, 2, 3, 4])
    assert rated == [
        Rated("alice", "alice", 0, 1, 1.0),
        Rated("bot:heuristic", "heuristic bot", 2, 3, 3.0),
    ]


def test_a_seat_handed_to_a_bot_is_rated_as_the_person_who_left_it() -> None:
    """Rule (rating_math, Who): a seat with a player_id "is rated under it, even when it was
    handed to the referee's bot ...: walking away from a lost position still counts as a
    loss"; a person's seat without an id is not rated once a bot holds it (the bot never
    chose that position), and ``bot:search`` takes no one's name."""
    handed = TableActionRecord(hosting.BOT_REPLACED, 9, 1, "Bo", 0.0, True)
    table = HostRecord(
        records.TABLE_LIVE,
        (
            SeatHold(BOT, "Alice", player_id="alice", bot=3),
            SeatHold(BOT, "Bo", bot=3),
            bot(3, "Bot 3"),
            player("carol"),
        ),
        0.0,
        rated=True,
        actions=(handed,),
    )
    rated = rating_math.who_is_rated(table, [4, 1, 3, 2])
    assert rated == [
        Rated("alice", "Alice", 0, 4, 4.0),
        Rated("bot:search", "search bot", 2, 3, 3.0),
        Rated("carol", "carol", 3, 2, 2.0),
    ]


def test_a_player_at_several_seats_is_rated_once_at_its_mean_place() -> None:
    """Rule: a player at several seats "takes part once, ranked at the mean of its seats'
    places, and its history names its best-placed seat"."""
    table = host(bot(1, "Bot 1"), player("alice"), bot(1, "Bot 3"))
    rated = rating_math.who_is_rated(table, [3, 2, 1])
    assert rated == [
        Rated("bot:random", "random bot", 2, 1, 2.0),
        Rated("alice", "alice", 1, 2, 2.0),
    ]


def test_the_better_placed_player_gains_and_equal_places_gain_alike() -> None:
    """Rule: competitive tables rate one-player teams ranked by place; ties share a rank."""
    players = [Rated("a", "a", 0, 1, 1.0), Rated("b", "b", 1, 2, 2.0), Rated("c", "c", 2, 2, 2.0)]
    new = rating_math.competitive(players, {p: Skill() for p in "abc"})
    assert new["a"].mu > Skill().mu > new["b"].mu
    assert new["b"] == new["c"]
    assert all(skill.sigma < Skill().sigma for skill in new.values())


def test_one_rated_player_alone_is_not_rated() -> None:
    """Rule: "One rated player alone is not rated" (nobody to be compared with)."""
    assert rating_math.competitive([Rated("a", "a", 0, 1, 1.0)], {"a": Skill()}) == {}


def test_a_team_that_cracked_the_vaults_beats_the_game_and_moves_as_one() -> None:
    """Rule: the team plays one match against the pseudo-player ``game:<game>`` as one player
    at its members' mean; every member's mu moves by the team's change, its sigma shrinks in
    the team's proportion, and the pseudo-player takes the other side."""
    pseudo = rating_math.game_id_of("g")
    skills = {"a": Skill(30.0, 5.0), "b": Skill(20.0, 7.0), pseudo: Skill()}
    players = [Rated("a", "a", 0, 1, 1.0), Rated("b", "b", 1, 1, 1.0)]
    won = rating_math.team(players, skills, pseudo)
    gain_a, gain_b = won["a"].mu - 30.0, won["b"].mu - 20.0
    assert gain_a > 0 and gain_a == pytest.approx(gain_b)
    assert won["a"].sigma / 5.0 == pytest.approx(won["b"].sigma / 7.0)
    assert won["a"].sigma < 5.0
    assert won[pseudo].mu < Skill().mu
    lost = rating_math.team(
        [Rated(p.player_id, p.name, p.seat, 2, 2.0) for p in players], skills, pseudo
    )
    assert lost["a"].mu < 30.0 and lost[pseudo].mu > Skill().mu


def test_a_team_with_nobody_rated_rates_nobody_not_even_the_game() -> None:
    assert rating_math.team([], {"game:g": Skill()}, "game:g") == {}


def test_the_referees_own_ids_are_not_an_operators_player_ids() -> None:
    """Rule: player ids starting with ``bot:`` or ``game:`` are the referee's own (a rated
    table's JoinGame refuses them: nobody takes a bot's or a game's rating)."""
    assert rating_math.check_own_player_id("alice:bot") == "alice:bot"
    for taken in ("bot:search", "game:x"):
        with pytest.raises(BadRequest) as refused:
            rating_math.check_own_player_id(taken)
        assert refused.value.reason == "PLAYER_ID_INVALID"
