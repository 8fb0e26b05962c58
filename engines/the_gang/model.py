"""The Gang's pieces and state: chips, heists, challenge and specialist cards (frozen
msgspec Structs)."""

from __future__ import annotations

import functools
from enum import IntEnum, StrEnum
from typing import Final

import msgspec

from engines.base import RulesRevision, rules_revision
from engines.cards import Card
from engines.rng import Rng

MIN_PLAYERS = 3
MAX_PLAYERS = 6
VAULTS_TO_WIN = 3
ALARMS_TO_LOSE = 3
MASTER_THIEF_ALARMS_TO_LOSE = 2
POCKET_SIZE = 2
CAMERA_POCKET_SIZE = 3
PILE_SIZE = 10

JACK_CARD = Card(11, None)
"""The Jack specialist card: a jack without a suit."""


class Colour(IntEnum):
    """Chip colours in the order of the heist's four rounds."""

    WHITE = 0  # round 1, pre-flop
    YELLOW = 1  # round 2, flop
    ORANGE = 2  # round 3, turn
    RED = 3  # round 4, river


BOARD_AFTER_ROUND: dict[Colour, int] = {
    Colour.WHITE: 0,
    Colour.YELLOW: 3,
    Colour.ORANGE: 4,
    Colour.RED: 5,
}


class Mode(StrEnum):
    """The seed's "Spelmodi", plus the base game."""

    BASIC = "basic"
    ADVANCED = "advanced"  # Gevorderd
    PROFESSIONAL = "professional"  # Professioneel
    MASTER_THIEF = "master_thief"  # Meesterdief


class Challenge(IntEnum):
    """The ten challenge cards (uitdagingskaarten), by their printed number."""

    QUICK_ACCESS = 1  # Snelle toegang
    NOISE_SENSORS = 2  # Geluidssensoren
    MOTION_DETECTOR = 3  # Bewegingsmelder
    RETINA_SCAN = 4  # Netvliesscan
    HASTY_GETAWAY = 5  # Haastige aftocht
    VENTILATION_SHAFT = 6  # Ventilatieschacht
    LASER_TRIPWIRES = 7  # Laserstralen
    BLACKOUT = 8  # Stroomstoring
    FINGERPRINT_SCAN = 9  # Vingerafdrukscan
    SECURITY_CAMERAS = 10  # Beveiligingscamera's


class Specialist(IntEnum):
    """The ten specialist cards (specialistkaarten), by their printed number."""

    INFORMANT = 1
    GETAWAY_DRIVER = 2  # Vluchtautochauffeur
    INVESTOR = 3  # Investeerder
    MASTERMIND = 4  # Brein
    HACKER = 5
    COORDINATOR = 6  # Coördinator
    JACK = 7
    MATH_WHIZ = 8  # Rekenwonder
    CON_ARTIST = 9  # Oplichter
    MUSCLE = 10  # Spierbundel


AUTOMATIC_SPECIALISTS = frozenset(
    {Specialist.INVESTOR, Specialist.COORDINATOR, Specialist.MATH_WHIZ, Specialist.CON_ARTIST}
)
"""Specialists that "werken voor iedereen vanaf ronde 1": nobody decides to use them."""

SCANS = (Challenge.RETINA_SCAN, Challenge.FINGERPRINT_SCAN)


class PileStart(msgspec.Struct, frozen=True):
    """How a pile starts: sorted 1..10 (first play), shuffled, or continued from an earlier
    game ("Wil je alle kaarten leren kennen, sorteer de stapels dan niet opnieuw").

    ``cards`` is the order top first, as an earlier game's final view gives it; with
    ``shuffled`` the pile's order is secret and a fresh shuffle stands in for it.
    ``card_one_turned``: card 1 already came up once in this run of games, so the next time
    it does, the pile is shuffled.
    """

    cards: tuple[int, ...] = ()
    card_one_turned: bool = False
    shuffled: bool = False


RULES_REVISION: Final = 2
"""Revision 2: Professional and Master Thief shuffle the challenge pile by default (the
cards turned come off its top), and a decision specialist unused when the red round begins
keeps that round open until every seat confirms."""

DECISION_SPECIALISTS = frozenset(Specialist) - AUTOMATIC_SPECIALISTS
"""Specialists the gang decides to use ("Bij andere specialisten bepaal je samen wie de
kaart gebruikt en wanneer")."""


class TheGangConfig(msgspec.Struct, frozen=True):
    """Table options.

    ``confirm_round_end``: the seed ends a round the instant every player holds a chip of
    its colour; digital tables may instead wait until every seat has confirmed, any chip
    change clearing the confirmations. ``mode`` chooses the base game or a mode with
    challenge and specialist cards; ``shuffle_piles`` shuffles both piles instead of
    sorting them 1..10; ``challenge_pile`` / ``specialist_pile`` continue earlier piles.

    ``rules_revision``: the revision of this game's rules the table plays by
    (``RULES_REVISION`` for every new table; read it with :attr:`revision`).

    ``ordered_challenges`` (revision 2, Professional and Master Thief): turn the challenge
    cards up in the pile's order (sorted, or as continued) instead of shuffling the pile
    first; for teaching. Stored only when set (UNSET = off).
    """

    players: int
    confirm_round_end: bool = False
    mode: Mode = Mode.BASIC
    shuffle_piles: bool = False
    challenge_pile: PileStart | None = None
    specialist_pile: PileStart | None = None
    rules_revision: RulesRevision = msgspec.UNSET
    ordered_challenges: bool | msgspec.UnsetType = msgspec.UNSET

    @property
    def revision(self) -> int:
        """The rules revision this table plays by (1 = the first release)."""
        return rules_revision(self.rules_revision)


class TheGangOptions(msgspec.Struct, frozen=True):
    """A table's options as a client gives them: the config without its seat count and
    revision, every option a plain value (the config stores ``ordered_challenges`` only
    when set, so that a revision-1 config keeps its stored bytes)."""

    confirm_round_end: bool = False
    mode: Mode = Mode.BASIC
    shuffle_piles: bool = False
    challenge_pile: PileStart | None = None
    specialist_pile: PileStart | None = None
    ordered_challenges: bool = False

    @staticmethod
    def of(config: TheGangConfig) -> TheGangOptions:
        """The options that make ``config``."""
        return TheGangOptions(
            confirm_round_end=config.confirm_round_end,
            mode=config.mode,
            shuffle_piles=config.shuffle_piles,
            challenge_pile=config.challenge_pile,
            specialist_pile=config.specialist_pile,
            ordered_challenges=config.ordered_challenges is True,
        )


class Pile(msgspec.Struct, frozen=True):
    """A face-down pile of challenge or specialist cards, top first.

    ``known``: the order is public (sorted, or continued from a known order) until the pile
    is shuffled.
    """

    cards: tuple[int, ...]
    known: bool
    card_one_turned: bool = False


class UseSpecialist(msgspec.Struct, frozen=True, tag="use_specialist"):
    """Who uses the active specialist: ``seat``; for the Informant also the seat who sees
    the card (``viewer``), for the Mastermind the card value asked about (``rank``)."""

    seat: int
    viewer: int | None = None
    rank: int | None = None


class GuessRank(msgspec.Struct, frozen=True, tag="guess_rank"):
    """Retina Scan: a value (2..14) the top red chip's holder has among his pocket cards."""

    rank: int


class GuessHand(msgspec.Struct, frozen=True, tag="guess_hand"):
    """Fingerprint Scan: the poker hand (1 high card .. 10 royal flush) of the top red chip's
    holder."""

    category: int


Decision = UseSpecialist | GuessRank | GuessHand


class Proposal(msgspec.Struct, frozen=True):
    """A group decision in progress; it takes effect once every required seat accepted."""

    id: int
    proposer: int
    decision: Decision
    accepted: tuple[int, ...]


class AnnouncementKind(StrEnum):
    INVESTOR = "investor"  # number: face cards (J, Q, K) in the pocket
    MATH_WHIZ = "math_whiz"  # number: the pocket's sum
    GETAWAY_DRIVER = "getaway_driver"  # number: the poker hand category so far
    MASTERMIND = "mastermind"  # rank asked; number: how many of that rank in the pocket
    INFORMANT = "informant"  # card shown by seat to to_seat, seen only by the two of them


class Announcement(msgspec.Struct, frozen=True):
    """What a specialist makes a seat tell, computed by the referee from the true cards.

    ``card`` is hidden from everyone but ``seat`` and ``to_seat`` (Informant).
    """

    kind: AnnouncementKind
    seat: int
    number: int = 0
    rank: int = 0
    to_seat: int | None = None
    card: Card | None = None


class PendingKind(StrEnum):
    DISCARD = "discard"  # Hacker, Jack: put one pocket card face down on the discards
    SHOW_CARD = "show_card"  # Informant: show one pocket card to to_seat


class Pending(msgspec.Struct, frozen=True):
    """A card action a seat owes before the round can end."""

    seat: int
    kind: PendingKind
    to_seat: int | None = None


class Chip(msgspec.Struct, frozen=True):
    """One chip and the seat holding it (None while it lies in the centre)."""

    colour: Colour
    stars: int
    holder: int | None


class ChipRow(msgspec.Struct, frozen=True):
    """The chips of one round's colour, by stars (1 first)."""

    colour: Colour
    chips: tuple[Chip, ...]

    @property
    def holders(self) -> tuple[int | None, ...]:
        """The seat holding each chip, by stars; None in the centre."""
        return tuple(chip.holder for chip in self.chips)

    @staticmethod
    def of(colour: Colour, holders: tuple[int | None, ...]) -> ChipRow:
        """The row whose ``s``-star chip ``holders[s - 1]`` holds (built once per value:
        every view repeats the rows of the rounds played)."""
        return _chip_row(colour, holders)


@functools.lru_cache(maxsize=4096)
def _chip_row(colour: Colour, holders: tuple[int | None, ...]) -> ChipRow:
    chips = tuple(Chip(colour, stars, holder) for stars, holder in enumerate(holders, start=1))
    return ChipRow(colour, chips)


class DarkChip(msgspec.Struct, frozen=True):
    """A chip turned to its dark side (Noise Sensors, Ventilation Shaft): once taken from
    the centre it can no longer change owner."""

    colour: Colour
    stars: int


class Reveal(msgspec.Struct, frozen=True):
    """One seat's hand shown at the showdown, in red-chip order.

    ``category`` is the poker hand (1 high card .. 10 royal flush), ``ranks`` its tie-break
    ranks (the engine's to compare hands), ``best_five`` the five cards that make it.
    """

    seat: int
    red_stars: int
    pocket: tuple[Card, ...]
    category: int
    ranks: tuple[int, ...]
    best_five: tuple[Card, ...]
    description: str
    in_order: bool  # at least as strong as every hand revealed before it
    muscle: bool = False


class ScanResult(msgspec.Struct, frozen=True):
    """A scan challenge's guess at the showdown: ``guess`` against the ``actual`` value."""

    challenge: Challenge
    seat: int
    guess: int
    actual: tuple[int, ...]  # Retina: the pocket's ranks; Fingerprint: (category,)
    correct: bool


class ScanGuess(msgspec.Struct, frozen=True):
    """A scan's guess agreed on by the gang: Retina Scan a rank 2..14, Fingerprint Scan a
    poker hand category 1..10."""

    challenge: Challenge
    value: int


class HeistResult(msgspec.Struct, frozen=True):
    heist: int
    success: bool
    board: tuple[Card, ...]
    reveals: tuple[Reveal, ...]
    chips: tuple[ChipRow, ...]  # one row per round played (skipped rounds have none)
    challenges: tuple[Challenge, ...] = ()
    specialist: Specialist | None = None
    scans: tuple[ScanResult, ...] = ()


class TheGangState(msgspec.Struct, frozen=True):
    """The whole table, hidden parts included. Never sent to a client as is.

    ``chips[c][s - 1]`` is the seat holding the ``s``-star chip of colour ``c`` or ``None``
    while it lies in the centre (or its round has not come, or is skipped). ``deck`` is the
    face-down draw pile, top card first; ``discards`` the face-down discard pile.

    Cards of the modes: ``challenges`` and ``specialist`` are active this heist;
    ``standing_challenges`` is Professional's challenge active all game. ``specialist_use``
    is the decision that put the specialist to use, ``pending`` the card actions owed,
    ``passes`` the Coordinator's sealed choices, ``guesses`` the agreed scan guesses, and
    ``awaiting_guesses`` is set between the red round's end and the showdown.

    ``red_round_confirmed`` (revision 2): True from the start of a red round in which a
    decision specialist was still unused, so that round ends only once every seat
    confirmed; UNSET otherwise (never set under revision 1, whose states keep their bytes).
    """

    config: TheGangConfig
    rng: Rng
    heist: int
    round: Colour
    vaults: int
    alarms: int
    deck: tuple[Card, ...]
    pockets: tuple[tuple[Card, ...], ...]
    board: tuple[Card, ...]
    chips: tuple[tuple[int | None, ...], ...]
    confirmed_seats: tuple[int, ...] = ()
    heists: tuple[HeistResult, ...] = ()
    finished: bool = False
    challenge_pile: Pile = Pile((), known=True)
    specialist_pile: Pile = Pile((), known=True)
    challenges: tuple[Challenge, ...] = ()
    standing_challenges: tuple[Challenge, ...] = ()
    specialist: Specialist | None = None
    discards: tuple[Card, ...] = ()
    specialist_use: UseSpecialist | None = None
    pending: tuple[Pending, ...] = ()
    passes: tuple[Card | None, ...] = ()
    proposals: tuple[Proposal, ...] = ()
    next_proposal: int = 1
    announcements: tuple[Announcement, ...] = ()
    guesses: tuple[ScanGuess, ...] = ()
    awaiting_guesses: bool = False
    red_round_confirmed: bool | msgspec.UnsetType = msgspec.UNSET

    @property
    def alarms_to_lose(self) -> int:
        """ "In de modus Meesterdief is dat al na twee alarmkaarten." """
        if self.config.mode is Mode.MASTER_THIEF:
            return MASTER_THIEF_ALARMS_TO_LOSE
        return ALARMS_TO_LOSE

    def active(self, challenge: Challenge) -> bool:
        return challenge in self.challenges

    def skipped_colours(self) -> tuple[Colour, ...]:
        """Rounds without chips this heist (Quick Access, Hasty Getaway)."""
        out: list[Colour] = []
        if Challenge.QUICK_ACCESS in self.challenges:
            out.append(Colour.WHITE)
        if Challenge.HASTY_GETAWAY in self.challenges:
            out.append(Colour.ORANGE)
        return tuple(out)

    def rounds_played(self) -> tuple[Colour, ...]:
        """The colours handed out this heist so far, the current round's last."""
        skipped = self.skipped_colours()
        return tuple(c for c in Colour if c <= self.round and c not in skipped)

    def pocket_size(self) -> int:
        if Challenge.SECURITY_CAMERAS in self.challenges:
            return CAMERA_POCKET_SIZE
        return POCKET_SIZE
