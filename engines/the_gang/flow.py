"""Rounds and heists: dealing, the round's end, the challenges that change the rounds, the
specialists that act for everyone at the deal, and the heist's end.

Seed: "Schud de 52 speelkaarten en geef iedere speler twee kaarten", then the flop (three
cards), the turn and the river, a chip colour per round. The challenges quoted here:

* Snelle toegang: "Je speelt deze overval zonder witte fiches. Na het delen van de
  handkaarten leg je meteen de drie gedeelde kaarten open en ga je door naar ronde 2."
* Bewegingsmelder: "Ligt er in ronde 2 minstens één boer, vrouw of heer tussen de gedeelde
  kaarten, dan legt de speler met het witte fiche met één ster zijn handkaarten dicht op de
  aflegstapel. Hij trekt twee nieuwe handkaarten van de stapel."
* Haastige aftocht: "In ronde 3 verdeel je geen oranje fiches. Je legt de vierde gedeelde
  kaart open en gaat meteen door naar ronde 4."
* Laserstralen: "Ligt er in ronde 2 geen enkele boer, vrouw of heer tussen de gedeelde
  kaarten, dan legt de speler met het hoogste witte fiche zijn handkaarten dicht op de
  aflegstapel. Hij trekt twee nieuwe handkaarten van de stapel."
* Stroomstoring: "Aan het begin van ronde 2 leg je allemaal je fiches van ronde 1 weg [...]"
* Beveiligingscamera's: "Iedereen krijgt drie handkaarten in plaats van twee."

and the specialists that need no decision: Investor, Coordinator, Math Whiz, Con Artist.
A redrawing seat draws as many cards as it discarded (two; three under Security Cameras).
"""

from __future__ import annotations

import msgspec
import msgspec.structs

from engines.cards import DECK
from engines.the_gang import piles, showdown, tables
from engines.the_gang.events import (
    Announced,
    BoardDealt,
    ChipsSetAside,
    Event,
    GameEnded,
    GuessesDue,
    HeistEnded,
    PocketDealt,
    PocketRedrawn,
    PocketsGathered,
    ProposalWithdrawn,
    RoundEnded,
    RoundStarted,
)
from engines.the_gang.model import (
    BOARD_AFTER_ROUND,
    DECISION_SPECIALISTS,
    SCANS,
    VAULTS_TO_WIN,
    Announcement,
    AnnouncementKind,
    Challenge,
    Colour,
    Specialist,
    TheGangState,
    UseSpecialist,
)

_FACES = frozenset({11, 12, 13})


def all_hold_a_chip(state: TheGangState) -> bool:
    return all(holder is not None for holder in state.chips[state.round])


def needs_confirmation(state: TheGangState) -> bool:
    """This round ends only once every seat confirmed: the table's ``confirm_round_end``,
    or (revision 2) a red round that began with a decision specialist unused."""
    return state.config.confirm_round_end or state.red_round_confirmed is True


def _round_over(state: TheGangState) -> bool:
    """Everyone holds a chip, no card action is owed, and (when needed) everyone confirmed."""
    if state.awaiting_guesses or state.pending or state.passes or not all_hold_a_chip(state):
        return False
    return not needs_confirmation(state) or len(state.confirmed_seats) == state.config.players


def _specialist_window(state: TheGangState) -> bool | msgspec.UnsetType:
    """Revision 2, at the start of the red round. The seed: "Iedere speler mag op elk moment
    voor de onthulling voorstellen om de specialist in te zetten." The last red chip would
    start the showdown at once, so while a decision specialist is unused the red round waits
    for every seat's confirmation; it stays so for the round, also once the gang used it,
    so that they can still act on what it told them."""
    unused = state.specialist in DECISION_SPECIALISTS and state.specialist_use is None
    return True if state.config.revision >= 2 and unused else msgspec.UNSET


def _scans(state: TheGangState) -> tuple[Challenge, ...]:
    return tuple(c for c in SCANS if state.active(c))


def _showdown_due(state: TheGangState) -> bool:
    guessed = {guess.challenge for guess in state.guesses}
    return state.awaiting_guesses and not state.pending and guessed >= set(_scans(state))


def advance(state: TheGangState) -> tuple[TheGangState, list[Event]]:
    """After a move: end the round, ask for the scan guesses, or hold the showdown."""
    if _showdown_due(state):
        return _finish_heist(state)
    if _round_over(state):
        return _end_round(state)
    return state, []


def _end_round(state: TheGangState) -> tuple[TheGangState, list[Event]]:
    events: list[Event] = [RoundEnded(state.heist, state.round)]
    if state.round == Colour.RED:
        scans = _scans(state)
        if not scans:
            state, more = _finish_heist(state)
            return state, events + more
        seat = tables.top_red_seat(state)
        assert seat is not None
        # the showdown has begun: a specialist can no longer be proposed
        lapsed = [p for p in state.proposals if isinstance(p.decision, UseSpecialist)]
        events += [ProposalWithdrawn(p.id) for p in lapsed]
        state = _replace(
            state,
            awaiting_guesses=True,
            confirmed_seats=(),
            proposals=tuple(p for p in state.proposals if p not in lapsed),
        )
        events.append(GuessesDue(seat, scans, showdown.shown_before_guessing(state)))
        return state, events
    visible_before = tables.visible_rounds(state)
    skipped = state.skipped_colours()
    colour = Colour(state.round + 1)
    while True:
        state, dealt = _deal_street(state, colour)
        events.append(dealt)
        if colour not in skipped:
            break
        colour = Colour(colour + 1)
    state = _replace(state, round=colour, confirmed_seats=())
    if colour == Colour.RED:
        state = _replace(state, red_round_confirmed=_specialist_window(state))
    if colour == Colour.YELLOW:
        state = _alarm_sensors(state, events)
    events += [ChipsSetAside(c) for c in visible_before if c not in tables.visible_rounds(state)]
    events.append(RoundStarted(state.heist, colour))
    return state, events


def _deal_street(state: TheGangState, colour: Colour) -> tuple[TheGangState, BoardDealt]:
    count = BOARD_AFTER_ROUND[colour] - len(state.board)
    dealt, deck = state.deck[:count], state.deck[count:]
    return _replace(state, deck=deck, board=state.board + dealt), BoardDealt(dealt)


def _alarm_sensors(state: TheGangState, events: list[Event]) -> TheGangState:
    """Motion Detector and Laser Tripwires, at the start of round 2."""
    if Colour.WHITE in state.skipped_colours():
        return state
    faces = any(card.rank in _FACES for card in state.board)
    white = state.chips[Colour.WHITE]
    for challenge, stars, trigger in (
        (Challenge.MOTION_DETECTOR, 1, faces),
        (Challenge.LASER_TRIPWIRES, state.config.players, not faces),
    ):
        seat = white[stars - 1]
        if state.active(challenge) and trigger and seat is not None:
            state = _redraw(state, seat, challenge, events)
    return state


def _redraw(
    state: TheGangState, seat: int, challenge: Challenge, events: list[Event]
) -> TheGangState:
    old = state.pockets[seat]
    new, deck = state.deck[: len(old)], state.deck[len(old) :]
    pockets = list(state.pockets)
    pockets[seat] = new
    events.append(PocketRedrawn(seat, challenge, new))
    return _replace(state, deck=deck, pockets=tuple(pockets), discards=state.discards + old)


def _finish_heist(state: TheGangState) -> tuple[TheGangState, list[Event]]:
    result = showdown.judge(state)
    vaults = state.vaults + result.success
    alarms = state.alarms + (not result.success)
    state = _replace(
        state,
        vaults=vaults,
        alarms=alarms,
        heists=(*state.heists, result),
        awaiting_guesses=False,
    )
    events: list[Event] = [HeistEnded(result, vaults, alarms)]
    if vaults >= VAULTS_TO_WIN or alarms >= state.alarms_to_lose:
        events.append(GameEnded(won=vaults >= VAULTS_TO_WIN))
        return _replace(state, finished=True, confirmed_seats=(), proposals=(), pending=()), events
    state, more = start_heist(state, success=result.success)
    return state, events + more


def start_heist(state: TheGangState, success: bool | None) -> tuple[TheGangState, list[Event]]:
    """The next heist's cards, a fresh shuffle of all 52 cards, pockets dealt one at a time,
    the specialists that act at the deal, and round 1 (or 2 under Quick Access)."""
    if success is None:
        state, events = piles.first_heist(state)
    else:
        state, events = piles.next_heist(state, success)
    players = state.config.players
    size = state.pocket_size()
    deck, rng = state.rng.shuffled(DECK)
    pockets = tuple(tuple(deck[seat + players * i] for i in range(size)) for seat in range(players))
    heist = state.heist + 1
    state = _replace(
        state,
        rng=rng,
        heist=heist,
        round=Colour.WHITE,
        deck=deck[players * size :],
        pockets=pockets,
        board=(),
        chips=((None,) * players,) * len(Colour),
        confirmed_seats=(),
        discards=(),
        specialist_use=None,
        pending=(),
        passes=(),
        proposals=(),
        announcements=(),
        guesses=(),
        awaiting_guesses=False,
        red_round_confirmed=msgspec.UNSET,
    )
    events += piles.cards_active(state)
    events += [PocketDealt(heist, seat, pockets[seat]) for seat in range(players)]
    state = _specialist_at_deal(state, events)
    if Colour.WHITE in state.skipped_colours():
        state, dealt = _deal_street(state, Colour.YELLOW)
        state = _replace(state, round=Colour.YELLOW)
        events.append(dealt)
    events.append(RoundStarted(heist, state.round))
    return state, events


def _specialist_at_deal(state: TheGangState, events: list[Event]) -> TheGangState:
    """The specialists that "werken voor iedereen vanaf ronde 1".

    * Oplichter: "leg je alle handkaarten dicht op een stapel in het midden, schud je ze en
      deel je ze opnieuw uit. Je schudt alleen de kaarten die al gedeeld waren."
    * Investeerder: "vertelt iedere speler hoeveel plaatjes (boer, vrouw of heer) hij in
      zijn hand heeft."
    * Rekenwonder: "noemt iedere speler de som van de waarden van zijn handkaarten."
    * Coördinator: "kiest iedere speler een van zijn handkaarten. Iedereen geeft die kaart
      tegelijk door aan zijn linkerbuur" (the passes are moves; see ``decisions``).
    """
    specialist, players = state.specialist, state.config.players
    if specialist is Specialist.CON_ARTIST:
        gathered = [card for pocket in state.pockets for card in pocket]
        shuffled, rng = state.rng.shuffled(gathered)
        size = len(state.pockets[0])
        pockets = tuple(
            tuple(shuffled[seat + players * i] for i in range(size)) for seat in range(players)
        )
        state = _replace(state, rng=rng, pockets=pockets)
        events.append(PocketsGathered(state.heist))
        events += [PocketDealt(state.heist, seat, pockets[seat]) for seat in range(players)]
    elif specialist in (Specialist.INVESTOR, Specialist.MATH_WHIZ):
        kind, count = (
            (AnnouncementKind.INVESTOR, tables.faces)
            if specialist is Specialist.INVESTOR
            else (AnnouncementKind.MATH_WHIZ, tables.pip_sum)
        )
        said = tuple(
            Announcement(kind, seat, count(state.pockets[seat])) for seat in range(players)
        )
        state = _replace(state, announcements=said)
        events += [Announced(item) for item in said]
    elif specialist is Specialist.COORDINATOR:
        state = _replace(state, passes=(None,) * players)
    return state


def _replace(state: TheGangState, **changes: object) -> TheGangState:
    return msgspec.structs.replace(state, **changes)
