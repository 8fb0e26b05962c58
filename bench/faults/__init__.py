"""Issue 33's faults figure: acknowledged, lost and doubled moves while workers and the
embedded Redis are killed: ``python -m bench.faults [--seconds 180] [--worker-kills 15]
[--redis-kills 15] [--stops 3]``.

One ``referee serve --workers 2`` on its embedded Redis (``appendfsync always``), loopback,
free ports, a temporary data folder. This process (one asyncio loop, its CPU priority
lowered with ``os.nice`` once the referee runs) plays ``--tables`` tables at once, each one
game after another, as fast as the referee answers: Gang of Four tables (random legal
moves) and some tables of The Gang (a short scripted game, so games are created and
finished under the faults too). Every client knows its game's state without asking: it
creates the game with its own seed (``--allow-client-seeds``) and runs the same engine, so
move ``i`` of a game is known legal and must make version ``i + 1``. Each move has its own
``client_move_id``; a call that fails with UNAVAILABLE or DEADLINE_EXCEEDED is sent again
with the same id until the referee answers it, as the README tells every client to do. A
ledger keeps every acknowledged move (game, version, seat, id, move) and every move sent
whose answer was lost (in doubt: applied once or not at all). The clients' connections are
replaced one at a time (each lives ``--reconnect-seconds``), so that they keep spreading
over the live workers as real clients come and go.

Spread evenly over the run, between ``--warmup`` seconds at the start and ``--settle``
seconds at the end: SIGKILL of a worker (the one holding the most client connections; the
supervisor restarts it), SIGKILL of the embedded redis-server (the referee restarts it),
and SIGSTOP of a worker for ``--stop-seconds``, then SIGCONT. The pids come from ``/proc``
(the supervisor's children). Each fault waits until the previous one has healed (a new
worker listening, Redis answering PING).

At the end the tables finish the move they are on, and two witnesses are read: Redis (every
game's move log, decoded as the referee stores it: seat, client move id, move, version) and
GetHistory. **Lost**: an acknowledged move not in the log at the version its client was
told (or not in GetHistory there). **Doubled**: a (seat, move id) logged twice, or a logged
move that no client sent. Anything else a client was told that it should not have been
(a rule refusing a move the engine says is legal, a move acknowledged at another version)
is listed as an anomaly. The exit code is 1 if anything was lost or doubled or an anomaly
was seen, and the data folder is then kept for a look.

**Moving again**: the seconds from a fault (the kill, or the SIGCONT) until every table
that had moved in the ten seconds before it has had a call answered again (a move
acknowledged or a game created); per kind min / median / max. The same figure at instants
without a fault (the warm-up and the settle) is the baseline: under this closed-loop load a
table waits for its turn in the referee's queues even when nothing fails.
"""

from __future__ import annotations
