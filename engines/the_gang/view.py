"""The single projection of The Gang's state for a seat or a spectator.

A seat sees its own pocket cards, the board, every chip (earlier rounds included, they stay
"op een rij voor je liggen") and every finished heist's showdown. Nobody sees another seat's
pocket cards before its showdown, nor the deck or the seed. A spectator (``None``) sees only
what is public.
"""

from __future__ import annotations

import msgspec

from engines.base import Viewer
from engines.cards import Card
from engines.the_gang.events import Event, PocketDealt
from engines.the_gang.model import (
    ALARMS_TO_LOSE,
    VAULTS_TO_WIN,
    Colour,
    HeistResult,
    TheGangState,
)
from engines.the_gang.moves import Move


class TheGangView(msgspec.Struct, frozen=True):
    viewer: int | None
    players: int
    confirm_round_end: bool
    heist: int
    round: Colour
    vaults: int
    alarms: int
    vaults_to_win: int
    alarms_to_lose: int
    board: tuple[Card, ...]
    pocket: tuple[Card, ...]  # empty for a spectator and once the game is over
    chips: tuple[tuple[int | None, ...], ...]
    confirmed: tuple[int, ...]
    deck_size: int
    history: tuple[HeistResult, ...]
    finished: bool


def view(state: TheGangState, viewer: Viewer) -> TheGangView:
    if viewer is not None and not 0 <= viewer < state.config.players:
        raise ValueError(f"no seat {viewer} at this table")
    return TheGangView(
        viewer=viewer,
        players=state.config.players,
        confirm_round_end=state.config.confirm_round_end,
        heist=state.heist,
        round=state.round,
        vaults=state.vaults,
        alarms=state.alarms,
        vaults_to_win=VAULTS_TO_WIN,
        alarms_to_lose=ALARMS_TO_LOSE,
        board=state.board,
        pocket=state.pockets[viewer] if viewer is not None and not state.finished else (),
        chips=state.chips,
        confirmed=state.confirmed,
        deck_size=len(state.deck),
        history=state.history,
        finished=state.finished,
    )


def view_event(event: Event, viewer: Viewer) -> Event | None:
    if isinstance(event, PocketDealt) and event.seat != viewer:
        return None
    return event


def view_move(move: Move, seat: int, viewer: Viewer) -> Move | None:
    """Chip moves are made in the open: everyone sees them."""
    return move
