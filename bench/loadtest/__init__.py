"""The load-test harness: many games with bots through several referee processes on one Redis.

``python -m bench.loadtest -n 200 -m 2 --seconds 60`` (or ``./dev bench loadtest …``). The
runner (:mod:`bench.loadtest.runner`) starts one Redis (or uses a loopback ``--redis-url``)
and M ``referee serve`` processes on 127.0.0.1, drives N concurrent games with the bots of
:mod:`referee.bots` for a bounded time and number of games, records every RPC a driver makes
(:mod:`bench.loadtest.metrics`), and at the end checks every game against Redis and, once
finished, against its replay from the revealed seed (:mod:`bench.loadtest.check`): no
acknowledged move lost, none applied twice, the stored state equal to the replay. Everything
it talks to is on the loopback interface. :mod:`bench.loadtest.figures` runs it beside a
plain gRPC echo for the figures in docs/loadtest.md.

Why it lives here, and not in ``service/`` or ``clients/``: it is an operator's tool that
runs *outside* the referee: it starts referee processes, drives them as clients and judges
what they stored. A referee never runs it, so it does not belong in the server package (or in
its container image, with its progress-bar dependency). It cannot be a client package
either: its check reads Redis through the store's own formats and replays every game with
the engines and ``service.edge.verify``, and client code never imports the service or the engines
(an import-linter contract). ``bench/`` is where the project's other measuring tools are
(``bench.e2e``, ``bench.redis_100k``), and import-linter forbids ``service`` to import it.
"""
