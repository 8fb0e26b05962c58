"""``referee loadtest``: many games with bots through several referee processes on one Redis.

The runner (:mod:`service.loadtest.runner`) starts one Redis (or uses a loopback
``--redis-url``) and M ``referee serve`` processes on 127.0.0.1, drives N concurrent games
with the bots of :mod:`referee.bots` for a bounded time and number of games, records every
RPC a driver makes (:mod:`service.loadtest.metrics`), and at the end checks every game
against Redis and, once finished, against its replay from the revealed seed
(:mod:`service.loadtest.check`): no acknowledged move lost, none applied twice, the stored
state equal to the replay. Everything it talks to is on the loopback interface.
"""
