"""Tournaments: rounds of concurrently played tables, standings, openskill ratings.

- :mod:`~service.tournaments.model`: the stored record (frozen msgspec Structs).
- :mod:`~service.tournaments.pairing`: table sizes, byes, round-robin and Swiss tables.
- :mod:`~service.tournaments.scoring`: placings and points of a finished game, standings
  and ratings (openskill Plackett-Luce).
- :mod:`~service.tournaments.rounds`: the pure transitions (start, record a table, close
  a round) that every write is made of.
- :mod:`~service.tournaments.store`: Redis, compare-and-set on an integer version.
- :mod:`~service.tournaments.director`: the asyncio task that plays a tournament through.
- :mod:`~service.tournaments.host`: the use cases (create, start, get, watch).
- :mod:`~service.tournaments.api` and the gRPC / HTTP faces.
"""
