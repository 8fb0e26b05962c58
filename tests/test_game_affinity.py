"""The proxy configurations that send every call of a game to one worker of `referee serve
--workers N --worker-port P` (deploy/nginx-workers.conf, deploy/envoy-workers.yaml), checked
offline: their hash key is the game of real seat and admin tokens, or x-referee-game-id;
their upstreams are the workers' own ports. nginx itself checks its file when installed
(tests/service/test_worker_ports.py routes real calls through it)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from bench.workers import nginx_config
from service.domain.auth import TokenSigner
from tests.servers import ROOT, SECRET

DEPLOY = ROOT / "deploy"
NGINX = DEPLOY / "nginx-workers.conf"
ENVOY = DEPLOY / "envoy-workers.yaml"
GAME = "0123456789abcdef01234567"  # the shape of a game id: secrets.token_hex(12)
FIRST_WORKER_PORT = 50061  # the example's --worker-port


def _authorizations() -> list[str]:
    """An authorization header per kind of token naming GAME: seat (v2), table admin (v2),
    a seat token issued before generations (v1), and spellings the referee accepts."""
    signer = TokenSigner(SECRET)
    seat, admin = signer.issue(GAME, 2, generation=3), signer.issue_admin(GAME)
    legacy = f"v1.{GAME}.1.c2lnbmF0dXJl"
    return [f"Bearer {seat}", f"Bearer {admin}", f"Bearer {legacy}", f"bearer  {seat}"]


NOT_TOKENS = ["", "Bearer", "Basic dXNlcjpwYXNz", f"Bearer v3.{GAME}.1.0.sig", "Bearer x.y"]


def _nginx_token_pattern() -> re.Pattern[str]:
    """The regex of the nginx map from $http_authorization (``~*``: case-insensitive)."""
    text = NGINX.read_text(encoding="utf-8")
    block = re.search(r"map \$http_authorization \$referee_token_game \{(.*?)\}", text, re.S)
    assert block, "nginx-workers.conf maps the authorization header to the token's game"
    (entry,) = re.findall(r'"~\*(.+?)"\s+\$1;', block.group(1))
    return re.compile(entry.replace(r"\\", "\\"), re.IGNORECASE)


def test_nginx_keys_on_the_game_of_every_kind_of_token() -> None:
    pattern = _nginx_token_pattern()
    for authorization in _authorizations():
        match = pattern.search(authorization)
        assert match and match.group(1) == GAME, authorization
    for other in NOT_TOKENS:
        assert not pattern.search(other), other


def test_nginx_prefers_the_game_header_and_hashes_consistently_on_the_game() -> None:
    text = NGINX.read_text(encoding="utf-8")
    header = re.search(r"map \$http_x_referee_game_id \$referee_game \{(.*?)\}", text, re.S)
    assert header
    assert re.search(r'""\s+\$referee_token_game;', header.group(1))
    assert re.search(r"default\s+\$http_x_referee_game_id;", header.group(1))
    assert re.search(r"^\s*hash \$referee_game consistent;", text, re.M)
    assert re.search(r"grpc_pass grpc://referee_workers;", text)


def test_the_nginx_upstreams_are_the_workers_own_ports_and_the_bench_fills_them() -> None:
    text = NGINX.read_text(encoding="utf-8")
    ports = [int(p) for p in re.findall(r"^\s*server 127\.0\.0\.1:(\d+);", text, re.M)]
    assert ports == [FIRST_WORKER_PORT + i for i in range(len(ports))] and len(ports) >= 2
    rendered = nginx_config(40000, [41000, 41001, 41002])
    assert re.findall(r"^\s*server 127\.0\.0\.1:(\d+);", rendered, re.M) == [
        "41000",
        "41001",
        "41002",
    ]
    assert "listen 127.0.0.1:40000 http2;" in rendered


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed")
def test_nginx_accepts_the_file(tmp_path: Path) -> None:
    main = f"pid {tmp_path}/nginx.pid; error_log {tmp_path}/error.log;"
    done = subprocess.run(
        ["nginx", "-t", "-p", f"{tmp_path}/", "-c", str(NGINX), "-g", main],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def _envoy_route() -> tuple[dict[str, Any], dict[str, Any]]:
    with ENVOY.open(encoding="utf-8") as stream:
        config = yaml.safe_load(stream)
    (listener,) = config["static_resources"]["listeners"]
    (chain,) = listener["filter_chains"]
    (manager,) = chain["filters"]
    (host,) = manager["typed_config"]["route_config"]["virtual_hosts"]
    (route,) = host["routes"]
    (cluster,) = config["static_resources"]["clusters"]
    assert route["route"]["cluster"] == cluster["name"]
    return route["route"], cluster


def test_envoy_keys_on_the_game_header_first_then_the_game_of_the_token() -> None:
    route, _ = _envoy_route()
    first, second = route["hash_policy"]
    assert first == {"header": {"header_name": "x-referee-game-id"}, "terminal": True}
    header = second["header"]
    assert header["header_name"] == "authorization"
    rewrite = header["regex_rewrite"]
    pattern = re.compile(rewrite["pattern"]["regex"])  # RE2: Python's re reads this subset
    substitution = rewrite["substitution"].replace("\\1", r"\g<1>")
    for authorization in _authorizations():
        assert pattern.fullmatch(authorization), authorization
        assert pattern.sub(substitution, authorization) == GAME
    for other in NOT_TOKENS:
        assert not pattern.fullmatch(other), other


def test_envoy_hashes_consistently_over_the_workers_own_ports_over_http2() -> None:
    route, cluster = _envoy_route()
    assert route["timeout"] == "0s", "WatchGame streams have no route timeout"
    assert cluster["lb_policy"] in {"RING_HASH", "MAGLEV"}
    (endpoints,) = cluster["load_assignment"]["endpoints"]
    ports = [
        e["endpoint"]["address"]["socket_address"]["port_value"] for e in endpoints["lb_endpoints"]
    ]
    assert ports == [FIRST_WORKER_PORT + i for i in range(len(ports))] and len(ports) >= 2
    options = cluster["typed_extension_protocol_options"]
    http = options["envoy.extensions.upstreams.http.v3.HttpProtocolOptions"]
    assert "http2_protocol_options" in http["explicit_http_config"]
    (check,) = cluster["health_checks"]
    assert check["grpc_health_check"]["service_name"] == "referee.v1.RefereeService"
