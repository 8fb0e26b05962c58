"""After the end, everything is public (RULES-NOTES, "After a game": "The seed is revealed
at the end, so everything can be derived then: finished views and histories may show every
hand (never one version earlier)")."""

from __future__ import annotations

import json

import msgspec

from engines.base import replay
from engines.pinched import GAME, Move, PinchedConfig
from tests.pinched.make_golden import SPECS

VIEWERS = (None, 0, 1, 2, 3)


def test_the_finished_view_reveals_every_hidden_part_to_everyone_never_earlier() -> None:
    """Cursed secrets: the letter, curses, hands, sold piles, the deck and the curse pile."""
    spec = next(spec for spec in SPECS if spec.name == "cursed_secrets_four_players")
    data = json.loads(spec.path.read_text(encoding="utf-8"))
    config = msgspec.convert(data["config"], PinchedConfig)
    moves = [(step["seat"], msgspec.convert(step["move"], Move)) for step in data["steps"]]
    _, steps = replay(GAME, config, bytes.fromhex(data["seed"]), moves)
    before, final = steps[-2].state, steps[-1].state
    assert not before.finished and final.finished
    for viewer in VIEWERS:
        early = GAME.view(before, viewer)
        assert early.revealed_hands == () and early.revealed_sold == ()
        assert early.revealed_curses == () and early.revealed_curse_pile == ()
        assert early.revealed_deck == ()
        assert early.revealed_letter is None
    shown = [GAME.view(final, viewer) for viewer in VIEWERS]
    view = shown[0]
    assert final.letter is not None and view.revealed_letter == final.letter.location
    assert [[card.id for card in row.cards] for row in view.revealed_hands] == [
        list(hand) for hand in final.hands
    ]
    assert [[card.id for card in row.cards] for row in view.revealed_sold] == [
        list(sold) for sold in final.sold
    ]
    assert tuple(row.curses for row in view.revealed_curses) == final.curses
    assert any(final.curses) and any(final.sold)
    assert tuple(card.id for card in view.revealed_deck) == final.deck
    assert view.revealed_curse_pile == final.curse_pile
    reveal = ("revealed_hands", "revealed_sold", "revealed_curses", "revealed_letter")
    for other in shown[1:]:
        assert all(getattr(other, name) == getattr(view, name) for name in reveal)
        assert other.revealed_deck == view.revealed_deck


def test_a_revision_one_game_reveals_nothing_after_the_end() -> None:
    """A game recorded under revision 1 keeps its finished views as they were, so a view a
    player kept from it still verifies against the replay."""
    path = SPECS[0].path.parent / "revision1" / SPECS[0].path.name
    data = json.loads(path.read_text(encoding="utf-8"))
    config = msgspec.convert(data["config"], PinchedConfig)
    assert config.rules_revision is msgspec.UNSET
    moves = [(step["seat"], msgspec.convert(step["move"], Move)) for step in data["steps"]]
    _, steps = replay(GAME, config, bytes.fromhex(data["seed"]), moves)
    final = steps[-1].state
    assert final.finished
    for viewer in VIEWERS[: config.players + 1]:
        seen = GAME.view(final, viewer)
        assert seen.revealed_hands == seen.revealed_sold == ()
        assert seen.revealed_curses == ()
        assert seen.revealed_deck == () and seen.revealed_curse_pile == ()
        assert seen.revealed_letter is None
