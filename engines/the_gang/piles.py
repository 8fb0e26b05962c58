"""Which challenge and specialist cards are active, heist by heist, in each mode.

Seed, "Spelmodi":

* Gevorderd: "De eerste overval speel je zonder deze kaarten. [...] Is de overval gelukt
  [...] Draai de bovenste uitdagingskaart open [...] Is de overval mislukt [...] Draai de
  bovenste specialistkaart open" and "Na afloop van die overval leg je de uitdagings- of
  specialistkaart onderop de stapel". "Kom je voor de tweede keer bij kaart 1 uit, schud de
  stapel dan. Vanaf dat moment komen de kaarten in willekeurige volgorde."
* Professioneel: "Haal uitdagingskaart 1 (Snelle toegang) uit de stapel" and "Draai aan het
  begin van het potje een willekeurige uitdagingskaart open. Die kaart blijft het hele potje
  actief".
* Meesterdief: no challenge 1, no specialists, "Draai aan het begin van het potje twee
  willekeurige uitdagingskaarten open. [...] Aan het begin van elke volgende overval leg je
  de uitdagingskaart met het laagste nummer weg en draai je een nieuwe open."

Revision 1 (the first release) drew Professional's and Master Thief's first cards at random
from a pile sorted 1..10 and turned later ones off its top, so they came in order. Revision
2 follows "willekeurige": in these modes the challenge pile is shuffled at the start (unless
``ordered_challenges`` keeps it in order, for teaching) and every card comes off its top.

Choices where the seed is open (documented in the proto): Master Thief has no success/
failure flip (it "always" has exactly two challenges); a card laid away goes to the bottom
of its pile, like every card in Advanced; at the game's end every active card goes to the
bottom too, so the final piles continue into the next game.
"""

from __future__ import annotations

import msgspec.structs

from engines.errors import InvalidConfigError
from engines.rng import Rng
from engines.the_gang.events import CardsActive, Event, PileShuffled
from engines.the_gang.model import (
    PILE_SIZE,
    Challenge,
    Mode,
    Pile,
    PileStart,
    Specialist,
    TheGangConfig,
    TheGangState,
)

ALL_CARDS = tuple(range(1, PILE_SIZE + 1))


def check_pile_start(name: str, start: PileStart, without_one: bool) -> None:
    """A continued pile holds each card once: all ten, or (challenges) the nine without 1.
    No cards means the sorted pile (or, shuffled, a fresh shuffle)."""
    if not start.cards:
        return
    cards = sorted(start.cards)
    allowed = [list(ALL_CARDS)]
    if without_one:
        allowed.append(list(ALL_CARDS[1:]))
    if cards not in allowed:
        raise InvalidConfigError(
            "BAD_PILE",
            f"{name} must list the cards 1..10 once each, top first, not {list(start.cards)}",
        )


def _start_pile(
    start: PileStart | None, shuffle: bool, drop_one: bool, rng: Rng, randomise: bool = False
) -> tuple[Pile, Rng]:
    """The pile as ``start`` gives it, or sorted (``shuffle``: shuffled); ``randomise``
    shuffles it whatever the start."""
    start = start or PileStart(cards=ALL_CARDS, shuffled=shuffle)
    cards = start.cards or ALL_CARDS
    if drop_one:
        cards = tuple(card for card in cards if card != Challenge.QUICK_ACCESS)
    elif Challenge.QUICK_ACCESS not in cards:  # continued from a mode without it
        cards = (*cards, Challenge.QUICK_ACCESS)
    shuffled = start.shuffled or randomise
    if shuffled:
        cards, rng = rng.shuffled(cards)
    return Pile(cards, known=not shuffled, card_one_turned=start.card_one_turned), rng


def random_challenges(config: TheGangConfig) -> bool:
    """Revision 2: Professional and Master Thief turn up "willekeurige" challenges, so their
    challenge pile is shuffled at the start, continued or not (``ordered_challenges`` keeps
    its order)."""
    return (
        config.revision >= 2
        and config.mode in (Mode.PROFESSIONAL, Mode.MASTER_THIEF)
        and config.ordered_challenges is not True
    )


def new_piles(config: TheGangConfig, rng: Rng) -> tuple[Pile, Pile, Rng]:
    drop_one = config.mode in (Mode.PROFESSIONAL, Mode.MASTER_THIEF)
    challenges, rng = _start_pile(
        config.challenge_pile, config.shuffle_piles, drop_one, rng, random_challenges(config)
    )
    specialists, rng = _start_pile(config.specialist_pile, config.shuffle_piles, False, rng)
    return challenges, specialists, rng


def _turn(pile: Pile, rng: Rng, events: list[Event], specialists: bool) -> tuple[int, Pile, Rng]:
    """Turn the top card; shuffle first when card 1 comes up for the second time."""
    cards = pile.cards
    if pile.known and pile.card_one_turned and cards[0] == 1:
        cards, rng = rng.shuffled(cards)
        pile = Pile(cards, known=False, card_one_turned=True)
        events.append(PileShuffled(specialist_pile=specialists))
    card = cards[0]
    return card, Pile(cards[1:], pile.known, pile.card_one_turned or card == 1), rng


def _draw_random(pile: Pile, rng: Rng) -> tuple[int, Pile, Rng]:
    """ "een willekeurige uitdagingskaart": any card of the pile, its order otherwise kept."""
    index, rng = rng.below(len(pile.cards))
    card = pile.cards[index]
    rest = pile.cards[:index] + pile.cards[index + 1 :]
    return card, msgspec.structs.replace(pile, cards=rest), rng


def _bottom(pile: Pile, *cards: int) -> Pile:
    return msgspec.structs.replace(pile, cards=pile.cards + cards)


def first_heist(state: TheGangState) -> tuple[TheGangState, list[Event]]:
    """The cards active from the game's start (Professional's standing card, Master
    Thief's two)."""
    rng, pile = state.rng, state.challenge_pile
    mode = state.config.mode
    events: list[Event] = []

    def draw(pile: Pile, rng: Rng) -> tuple[int, Pile, Rng]:
        if state.config.revision >= 2:  # shuffled already (or kept in order): the top card
            return _turn(pile, rng, events, specialists=False)
        return _draw_random(pile, rng)

    if mode is Mode.PROFESSIONAL:
        card, pile, rng = draw(pile, rng)
        standing = (Challenge(card),)
        return _with(state, rng, pile, state.specialist_pile, standing, standing, None), events
    if mode is Mode.MASTER_THIEF:
        first, pile, rng = draw(pile, rng)
        second, pile, rng = draw(pile, rng)
        active = tuple(sorted((Challenge(first), Challenge(second))))
        return _with(state, rng, pile, state.specialist_pile, (), active, None), events
    return state, events


def next_heist(state: TheGangState, success: bool) -> tuple[TheGangState, list[Event]]:
    """The cards for the heist after one that ended in ``success`` (or failure)."""
    events: list[Event] = []
    rng = state.rng
    challenges, specialists = put_back(state)
    mode = state.config.mode
    active: tuple[Challenge, ...] = state.standing_challenges
    specialist: Specialist | None = None
    if mode is Mode.MASTER_THIEF:
        lowest, kept = min(state.challenges), tuple(sorted(state.challenges))[1:]
        challenges = _bottom(state.challenge_pile, lowest)
        card, challenges, rng = _turn(challenges, rng, events, specialists=False)
        active = tuple(sorted((*kept, Challenge(card))))
    elif mode in (Mode.ADVANCED, Mode.PROFESSIONAL):
        if success:
            card, challenges, rng = _turn(challenges, rng, events, specialists=False)
            active = tuple(sorted((*active, Challenge(card))))
        else:
            card, specialists, rng = _turn(specialists, rng, events, specialists=True)
            specialist = Specialist(card)
    return _with(
        state, rng, challenges, specialists, state.standing_challenges, active, specialist
    ), events


def put_back(state: TheGangState) -> tuple[Pile, Pile]:
    """The piles once this heist's flipped cards are back at the bottom ("Na afloop van die
    overval leg je de uitdagings- of specialistkaart onderop de stapel")."""
    if state.config.mode is Mode.MASTER_THIEF:
        return state.challenge_pile, state.specialist_pile
    flipped = tuple(c for c in state.challenges if c not in state.standing_challenges)
    specialists = state.specialist_pile
    if state.specialist is not None:
        specialists = _bottom(specialists, state.specialist)
    return _bottom(state.challenge_pile, *flipped), specialists


def continued(state: TheGangState) -> tuple[Pile, Pile]:
    """The piles to continue in the next game: every active card back at the bottom,
    standing cards last. (The finished state itself keeps its last heist as played.)"""
    challenges, specialists = put_back(state)
    if state.config.mode is Mode.MASTER_THIEF:
        challenges = _bottom(challenges, *sorted(state.challenges))
    return _bottom(challenges, *state.standing_challenges), specialists


def cards_active(state: TheGangState) -> list[Event]:
    if state.config.mode is Mode.BASIC:
        return []
    return [CardsActive(state.heist, state.challenges, state.specialist)]


def _with(
    state: TheGangState,
    rng: Rng,
    challenge_pile: Pile,
    specialist_pile: Pile,
    standing: tuple[Challenge, ...],
    challenges: tuple[Challenge, ...],
    specialist: Specialist | None,
) -> TheGangState:
    return msgspec.structs.replace(
        state,
        rng=rng,
        challenge_pile=challenge_pile,
        specialist_pile=specialist_pile,
        standing_challenges=standing,
        challenges=challenges,
        specialist=specialist,
    )
