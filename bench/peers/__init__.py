"""The referee beside two peers on one game's shape: ``python -m bench.peers`` (issue 29).

Three servers, each run alone in its turn, round after round (``--rounds``, 3: boardgame.io,
Colyseus, referee Play, referee unary, then again), ``--warmup`` seconds unmeasured and
``--seconds / --rounds`` measured per window; every server has ``--tables`` (16) tables of
4 seats with one move in flight each:

1. **boardgame.io 0.50.2** (``node/bgio_server.cjs``): a 4-player card game ("eights",
   ``node/eights.cjs``: play a card of the top card's suit or rank, and you must if you
   can, else draw; seven cards each; the first to empty their hand wins; 47 moves a game on
   average). Matches are created and joined with its Lobby API (credentials per seat),
   moves are checked against the credentials, invalid ones return ``INVALID_MOVE``, the
   state lives in its in-memory storage and every move pushes the state through
   ``playerView`` (each seat's own hand, the others' counts) as JSON to the 4 seats over
   its socket.io transport. The driver (``node/bgio_driver.cjs``) speaks that protocol on
   plain websockets (``sync``, then ``update`` with the action, the state id and the
   credentials) and does not run boardgame.io's client, which replays every move locally.
2. **Colyseus 0.16** (``node/colyseus_server.cjs``): the same game in a room whose
   ``@colyseus/schema`` state keeps the hands in each client's ``StateView``; an accepted
   move sends a binary patch to the 4 sockets at once (``broadcastPatch``), a refused one a
   message to its sender; no storage. The driver (``node/colyseus_driver.cjs``) speaks
   Colyseus' protocol without decoding patches (colyseus.js decoding cost more CPU than
   the server); the checks use colyseus.js.
3. **The referee**, started as bench.e2e and bench.play_stream start it (``referee serve``,
   one process, info logging, metrics on, its embedded redis-server with ``appendfsync
   always``), on Gang of Four: over ``Play`` streams (4 per table, each receiving its
   update; :class:`bench.play_stream.TableLoad`) and over unary ``SubmitMove``
   (:class:`bench.peers.referee.UnaryLoad`).

**Decision: the referee plays Gang of Four tables paced to the peers' moves per game**, not a
new "eights" engine. A table is left after as many moves as the peers' planned games
average (measured from their deals in the same run, or ``--moves-per-game``), and a new one
is created with its seats, just as the peers start a new match. No fourth game enters the
public contract only for a benchmark; the figure is of the game users run; and Gang of
Four's combination rules cost more than eights', so the ratios lean against the referee.

Every driver replays games planned ahead (peers: ``eights.plan``, the first playable card;
referee: :func:`bench.play_stream.plan`, the first legal move), writes prepared moves and
reads no more of an answer than its kind, so it costs less than its server (printed).
Measured per server: accepted moves/s, p50/p99 from sending a move to the mover's answer,
the updates its seats received per second, the server's CPU per accepted move (``/proc``:
referee + redis-server; a peer's node process) and per update, the driver's CPU beside it,
what other processes on the machine used, and the ratios of the referee's CPU per move to
each peer's. Before any window every server must refuse illegal moves (a card not in
hand, one matching neither suit nor rank, a draw while holding a playable card, a move out
of turn, wrong credentials where there are any), changing nothing, and must send a seat no
other seat's hand; the run stops otherwise. Node packages are installed with ``npm ci``
from ``node/package-lock.json`` when ``node/node_modules`` is missing or older. Everything
binds 127.0.0.1 on free ports; every child process is stopped when the run ends.
"""
