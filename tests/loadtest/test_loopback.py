"""The load test only ever targets this machine: every other address is refused."""

from __future__ import annotations

import pytest

from bench.loadtest.cli import main
from bench.loadtest.config import (
    LoadConfig,
    NotLoopback,
    check_redis_url,
    check_referee_target,
    is_loopback_host,
)


@pytest.mark.parametrize("host", ["127.0.0.1", "127.3.4.5", "localhost", "::1", "[::1]"])
def test_loopback_hosts_are_accepted(host: str) -> None:
    assert is_loopback_host(host)


@pytest.mark.parametrize(
    "host", ["10.0.0.1", "192.168.1.5", "0.0.0.0", "example.com", "", "::", "8.8.8.8"]
)
def test_other_hosts_are_not_loopback(host: str) -> None:
    assert not is_loopback_host(host)


def test_targets_and_redis_urls() -> None:
    assert check_referee_target("127.0.0.1:50051") == "127.0.0.1:50051"
    assert check_referee_target("[::1]:50051") == "[::1]:50051"
    assert check_redis_url("redis://127.0.0.1:6379/9")
    assert check_redis_url("unix:///tmp/redis.sock")
    for target in ("10.1.2.3:50051", "referee.example.com:443", "127.0.0.1"):
        with pytest.raises(NotLoopback):
            check_referee_target(target)
    for url in ("redis://10.1.2.3:6379/0", "redis://cache.example.com:6379", "http://127.0.0.1"):
        with pytest.raises(NotLoopback):
            check_redis_url(url)


def test_config_refuses_non_loopback_targets() -> None:
    with pytest.raises(NotLoopback):
        LoadConfig(targets=("10.0.0.7:50051",), redis_url="redis://127.0.0.1:6379/9")
    with pytest.raises(NotLoopback):
        LoadConfig(redis_url="redis://192.168.0.10:6379/0")
    with pytest.raises(ValueError, match="redis-url"):
        LoadConfig(targets=("127.0.0.1:50051",))


@pytest.mark.parametrize(
    "argv",
    [
        ["--redis-url", "redis://10.0.0.2:6379/0"],
        ["--target", "203.0.113.9:50051", "--redis-url", "redis://127.0.0.1:6379/0"],
    ],
)
def test_the_command_refuses_them_before_starting_anything(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "not on the loopback interface" in capsys.readouterr().err
