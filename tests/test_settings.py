"""The settings' defaults are written once, on the fields of ``Settings``; the rest derives."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from service.domain.quotas import Quotas, load_keys
from service.process import cli
from service.settings import ANONYMOUS_QUOTAS, DEFAULTS, ENVIRONMENT, KEY_QUOTAS, Settings, env_name

ROOT = Path(__file__).resolve().parent.parent


def test_every_setting_has_one_environment_variable() -> None:
    fields = [field.name for field in dataclasses.fields(Settings)]
    assert sorted(ENVIRONMENT) == sorted(fields)
    names = [variable for variable, _ in ENVIRONMENT.values()]
    assert len(set(names)) == len(names)
    assert env_name("port") == "REFEREE_PORT"


def test_an_empty_environment_gives_the_defaults() -> None:
    assert Settings.from_env({}) == DEFAULTS == Settings()


def test_each_variable_overrides_only_its_field() -> None:
    env = {
        "REDIS_URL": "redis://127.0.0.1:6379/3",
        "REFEREE_HTTP_PORT": "off",
        "REFEREE_CORS_ORIGINS": "https://a.example, ,https://b.example",
        "REFEREE_TOKEN_SECRET": "s3cret",
        "REFEREE_ALLOW_CLIENT_SEEDS": "yes",
        "REFEREE_SHUTDOWN_GRACE_SECONDS": "2.5",
        "REFEREE_CONSOLE_DIR": "/srv/console",
    }
    expected = dataclasses.replace(
        DEFAULTS,
        redis_url="redis://127.0.0.1:6379/3",
        http_port=None,
        cors_origins=("https://a.example", "https://b.example"),
        token_secret=b"s3cret",
        allow_client_seeds=True,
        shutdown_grace_seconds=2.5,
        console_dir=Path("/srv/console"),
    )
    assert Settings.from_env(env) == expected


@pytest.mark.parametrize(
    ("variable", "field"),
    [("REDIS_URL", "redis_url"), ("REFEREE_TOKEN_SECRET", "token_secret")],
)
def test_a_variable_set_empty_means_none(variable: str, field: str) -> None:
    assert getattr(Settings.from_env({variable: ""}), field) is None


def test_the_command_line_shows_the_defaults_of_settings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert f"(REFEREE_PORT; default {DEFAULTS.port})" in shown
    assert f"(REFEREE_HOST; default {DEFAULTS.host})" in shown


def test_the_readme_documents_every_variable() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    for variable, _ in ENVIRONMENT.values():
        assert f"`{variable}`" in section, variable


def test_the_operator_keys_and_quotas_are_read_from_the_environment(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    keys.write_text("# name secret quotas\nlab 0123456789abcdef0123 live_games=7\n")
    env = {
        "REFEREE_OPERATOR_KEYS": "a aaaaaaaaaaaaaaaa; b bbbbbbbbbbbbbbbb watch_streams=3",
        "REFEREE_OPERATOR_KEYS_FILE": str(keys),
        "REFEREE_OPEN_CREATION": "1",
        "REFEREE_QUOTAS": "live_games=5",
        "REFEREE_LOOPBACK_QUOTAS": "requests_per_second=9",
        "REFEREE_KEY_QUOTAS": "creates_per_minute=2",
    }
    read = Settings.from_env(env)
    assert read.open_creation and read.operator_keys_file == keys
    assert read.quotas == dataclasses.replace(ANONYMOUS_QUOTAS, live_games=5)
    assert read.loopback_quotas == Quotas(requests_per_second=9)
    assert read.key_quotas == dataclasses.replace(KEY_QUOTAS, creates_per_minute=2)
    loaded = load_keys(read.operator_keys, read.operator_keys_file, read.key_quotas)
    assert [(k.name, k.quotas.live_games, k.quotas.watch_streams) for k in loaded] == [
        ("a", KEY_QUOTAS.live_games, KEY_QUOTAS.watch_streams),
        ("b", KEY_QUOTAS.live_games, 3),
        ("lab", 7, KEY_QUOTAS.watch_streams),
    ]
    assert all(k.quotas.creates_per_minute == 2 for k in loaded)
    assert "aaaaaaaaaaaaaaaa" not in repr(read) + repr(loaded)


def test_durability_settings_are_off_by_default_and_read_from_the_environment() -> None:
    assert (DEFAULTS.require_durability, DEFAULTS.wait_replicas) == (False, 0)
    assert DEFAULTS.wait_timeout_ms > 0  # WAIT with 0 would block forever
    env = {
        "REFEREE_REQUIRE_DURABILITY": "on",
        "REDIS_WAIT_REPLICAS": "2",
        "REDIS_WAIT_TIMEOUT_MS": "250",
    }
    expected = dataclasses.replace(
        DEFAULTS, require_durability=True, wait_replicas=2, wait_timeout_ms=250
    )
    assert Settings.from_env(env) == expected
