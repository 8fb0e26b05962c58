"""What the console's end-to-end tests share: Debian's chromium, where screenshots go, and
the cards of views keyed as the page keys them (`data-card`), with what seats hide."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from google.protobuf import json_format
from google.protobuf.message import Message
from playwright.async_api import BrowserContext, Locator, Page, Request, ViewportSize

from referee.v1 import game_pb2, referee_pb2, referee_pb2_grpc
from service.domain.auth import TokenSigner
from tests.servers import SECRET, Served

ROOT = Path(__file__).resolve().parents[2]
CONSOLE_DB = 10
# Headless, and quiet on this machine's closed network: no background fetches at all.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
# The messages the console draws as cards (`data-card` is their key), by game.
CARD_MESSAGES = {
    "referee.v1.PlayingCard",
    "referee.v1.GangOfFourCard",
    "referee.v1.Valuable",
}


def chromium() -> str:
    """Debian's chromium, which ./dev installs (no browser is downloaded)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("Debian's chromium is missing: ./dev installs it (apt-get install chromium)")
    return found


def console_url(served: Served) -> str:
    return f"{served.http}/console/"


def screenshot_dir(tmp_path: Path) -> Path:
    """Where screenshots go: REFEREE_SCREENSHOTS (e.g. docs/console) or the test's tmp."""
    chosen = os.environ.get("REFEREE_SCREENSHOTS")
    where = (ROOT / chosen) if chosen else tmp_path
    where.mkdir(parents=True, exist_ok=True)
    return where


async def save_screenshot(target: Page | Locator, path: Path, full_page: bool = False) -> None:
    """A screenshot of ``target`` at ``path``, kept small: pngquant (Debian's package) turns
    it into a 256-colour palette PNG when it is installed; without it the PNG stays as taken."""
    if isinstance(target, Page):
        await target.screenshot(path=str(path), full_page=full_page)
    else:
        await target.screenshot(path=str(path))
    quantizer = shutil.which("pngquant")
    if quantizer is not None:
        subprocess.run(
            [
                quantizer,
                "--force",
                "--skip-if-larger",
                "--strip",
                "--output",
                str(path),
                "256",
                str(path),
            ],
            check=False,
            timeout=60,
        )


def card_key(card: Message) -> str:
    """The console's `cardKey`: canonical proto3 JSON, keys sorted, no spaces."""
    return json.dumps(json_format.MessageToDict(card), sort_keys=True, separators=(",", ":"))


def cards_in(message: Message) -> Counter[str]:
    """Every card anywhere in ``message``, by key, with multiplicity."""
    found: Counter[str] = Counter()
    if message.DESCRIPTOR.full_name in CARD_MESSAGES:
        found[card_key(message)] += 1
        return found
    for field, value in message.ListFields():
        if field.message_type is None:
            continue
        if field.is_repeated and field.message_type.GetOptions().map_entry:
            for item in value.values():
                if isinstance(item, Message):
                    found += cards_in(item)
        elif field.is_repeated:
            for item in value:
                found += cards_in(item)
        else:
            found += cards_in(value)
    return found


async def view_at(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
    game_id: str,
    version: int,
    token: str | None = None,
) -> game_pb2.View:
    """The view of a seat (``token``) or a spectator at ``version``, replayed by the referee."""
    metadata = (("authorization", f"Bearer {token}"),) if token else ()
    watch = stub.WatchGame(
        referee_pb2.WatchGameRequest(game_id=game_id, after_version=version - 1),
        metadata=metadata,
    )
    async for update in watch:
        watch.cancel()
        assert update.version == version
        return update.view
    raise AssertionError(f"no update at version {version}")


async def hidden_cards(
    stub: referee_pb2_grpc.RefereeServiceAsyncStub, game_id: str, version: int, seats: int
) -> Counter[str]:
    """Cards some seat holds at ``version`` that the spectator view does not show."""
    signer = TokenSigner(SECRET)
    public = cards_in(await view_at(stub, game_id, version))
    hidden: Counter[str] = Counter()
    for seat in range(seats):
        own = cards_in(await view_at(stub, game_id, version, signer.issue(game_id, seat)))
        hidden |= own - public
    return hidden


# The table a page shows (`[data-testid=game-view]`), read in one go so that the version
# and the cards belong together: {version, cards: their `data-card` keys}, or null.
DRAWN = """() => {
  const view = document.querySelector('[data-testid="game-view"]');
  if (!view) return null;
  return {
    version: Number(view.getAttribute('data-version')),
    cards: [...view.querySelectorAll('[data-testid="card"]')].map(c => c.getAttribute('data-card')),
  };
}"""


@dataclass(frozen=True)
class SentRequest:
    """One request a page sent."""

    url: str
    authorization: str | None  # the header ("Bearer <token>"), None when it had none
    content_type: str


@dataclass
class Sent:
    """Every request of a page or a browser context, checked once the test is done (an
    assertion inside a Playwright listener would not fail the test)."""

    requests: list[SentRequest] = dataclasses.field(default_factory=list)

    def follow(self, target: Page | BrowserContext) -> Sent:
        target.on("request", self.record)
        return self

    def record(self, request: Request) -> None:
        headers = request.headers
        self.requests.append(
            SentRequest(request.url, headers.get("authorization"), headers.get("content-type", ""))
        )

    @property
    def urls(self) -> list[str]:
        return [request.url for request in self.requests]

    @property
    def tokens(self) -> set[str]:
        """The tokens the requests carried as their authorization."""
        return {
            request.authorization.removeprefix("Bearer ")
            for request in self.requests
            if request.authorization is not None
        }

    def no_token_in_a_url(self, tokens: Iterable[str]) -> None:
        """No request's URL holds any of ``tokens``."""
        tokens = list(tokens)
        for url in self.urls:
            assert not any(token in url for token in tokens), f"a token in a URL: {url}"


def grpc_channel(served: Served) -> grpc.aio.Channel:
    return grpc.aio.insecure_channel(served.grpc)


PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
SMALLEST_TAP_PX = 40
SMALLEST_TEXT_PX = 13

# What a phone needs of the page as drawn now: no horizontal scroll, every visible control
# at least SMALLEST_TAP_PX tall and wide, and no visible text smaller than SMALLEST_TEXT_PX.
# Returns the offenders, described, so a failure says what to fix. Controls and text inside
# `ignore` (a selector; "" for none) are left out; the page's width never is.
_PHONE_PROBLEMS = """([tap, text, ignore]) => {
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth) {
    problems.push(`horizontal scroll: ${root.scrollWidth} px wide in ${window.innerWidth}`);
  }
  const shown = (el) => {
    if (ignore && el.closest(ignore)) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  const name = (el) => {
    const id = el.dataset.testid ? `[${el.dataset.testid}]` : '';
    const words = (el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30);
    return `${el.tagName.toLowerCase()}${id} "${words}"`;
  };
  const controls = 'a[href], button, input, select, textarea, summary, [role=button]';
  for (const el of document.querySelectorAll(controls)) {
    if (!shown(el) || el.closest('[hidden], details:not([open]) > :not(summary)')) continue;
    const box = el.getBoundingClientRect();
    if (box.height < tap || box.width < tap) {
      problems.push(`tap target ${Math.round(box.width)}x${Math.round(box.height)}: ${name(el)}`);
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || !shown(el) || el.closest('.sr-only')) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < text) problems.push(`text ${size} px: ${name(el)}`);
  }
  return [...new Set(problems)];
}"""


async def phone_problems(page: Page, ignore: str = "") -> list[str]:
    """What keeps the page, as drawn now, from being usable on a phone (empty: nothing);
    what is inside ``ignore`` (a CSS selector) is left out, but for the page's width."""
    found = await page.evaluate(_PHONE_PROBLEMS, [SMALLEST_TAP_PX, SMALLEST_TEXT_PX, ignore])
    assert isinstance(found, list)
    return [str(problem) for problem in found]


AXE = ROOT / "clients" / "console" / "node_modules" / "axe-core" / "axe.min.js"
# What the console must never have (issue 30): axe-core's two worst impacts.
AXE_BLOCKING = ("serious", "critical")


@functools.cache
def _axe_source() -> str:
    return AXE.read_text()


async def axe_problems(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, one line each
    (rule, impact, the first offending elements): empty when the page passes.

    axe-core comes from the console's own devDependencies (npm ci in clients/console), and
    runs on the whole document with its default rules (WCAG 2 A and AA, best practices)."""
    if not AXE.is_file():
        pytest.fail(
            f"{AXE.relative_to(ROOT)} is missing: ./dev test runs npm ci in clients/console"
        )
    # Evaluated, not added as a <script>: the console's Content-Security-Policy (rightly)
    # refuses inline scripts, and DevTools' evaluation is not subject to it.
    # Once per document: a hash route of the console keeps the document, and axe with it.
    if not await page.evaluate("typeof axe !== 'undefined'"):
        await page.evaluate(_axe_source())
    found: list[dict[str, object]] = await page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
            .map((v) => ({ id: v.id, impact: v.impact,
                           nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }))"""
    )
    return [
        f"{item['id']} ({item['impact']}): {item['nodes']}"
        for item in found
        if item["impact"] in AXE_BLOCKING
    ]
