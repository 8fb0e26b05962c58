"""Settings for referees started by tests: real Redis, free port, loopback, test secret."""

from __future__ import annotations

from pathlib import Path

from service.settings import Settings

SECRET = b"test-secret-0123456789abcdef"


def settings_for(redis_url: str, data_dir: Path) -> Settings:
    return Settings(
        redis_url=redis_url,
        data_dir=data_dir,
        host="127.0.0.1",
        port=0,
        http_port=0,
        token_secret=SECRET,
        allow_client_seeds=True,
        finished_ttl_seconds=3600,
    )
