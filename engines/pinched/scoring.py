"""The final score.

Seed, "Einde van het spel en puntentelling": "3. Tel je gedekte, verkochte kaarten. Elke
kaart is 1 punt waard. 4. Tel de bonuspunten erbij op: de Lisa Mona (3 punten, of 5 op de
kroonkant), diamanten (1 punt per stuk) en aanwijzingen (2 punten per stuk). 5. Trek de
waarde van de vloeken die je nog hebt ervan af. De inbreker met de meeste rijkdom wint. Bij
een gelijke stand wint de speler met de meeste goudstaven tussen zijn verkochte kaarten. Is
het dan nog gelijk, dan delen die spelers de overwinning."
"""

from __future__ import annotations

from engines.pinched.components import kinds_of
from engines.pinched.events import GameEnded, Score
from engines.pinched.model import CLUE_POINTS, DIAMOND_POINTS, PinchedState


def final(state: PinchedState) -> GameEnded:
    table = state.config.components
    kinds = kinds_of(table)
    gold = [kind.name for kind in table.kinds].index(table.tiebreak_kind)
    scores: list[Score] = []
    for seat in range(state.config.players):
        sold = len(state.sold[seat])
        lisa = state.lisa_mona_points if state.lisa_mona == seat else 0
        diamonds = state.diamonds[seat] * DIAMOND_POINTS if state.diamonds else 0
        clues = state.clues[seat] * CLUE_POINTS if state.clues else 0
        curses = sum(curse.points for curse in state.curses[seat]) if state.curses else 0
        scores.append(
            Score(
                seat=seat,
                sold=sold,
                lisa_mona=lisa,
                diamonds=diamonds,
                clues=clues,
                curses=curses,
                total=sold + lisa + diamonds + clues - curses,
                tiebreak=sum(kinds[card] == gold for card in state.sold[seat]),
            )
        )
    best = max((score.total, score.tiebreak) for score in scores)
    winners = tuple(s.seat for s in scores if (s.total, s.tiebreak) == best)
    return GameEnded(tuple(scores), winners)
