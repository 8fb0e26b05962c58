"""Gang of Four on the seat page (`#/play/<id>/<token>`): a whole game played by clicks.

Gang of Four has no shorter-game option: the game ends after the hand in which a total
reaches 100 (docs/rules/gang_of_four.md "Scoring and the end", as the rules seed and
RULES-NOTES.md say; the table's one option is `auto_announce_last_card`). So seat 0 plays
every hand of a whole game by clicks, and the test plays the other seats through the API,
meekly (a pass whenever one is listed, else the first listed single), so that seat 0 wins
the hands and the game is over after two. The deal is fixed (a client seed): the same game
every run.

Checked: every kind of move (the oneof of GangOfFourMove) made by a click, among them
plays of several combinations and a last card announced; at every version the page shows,
its `data-card` keys equal the cards of seat 0's own view at that version; every request
the page sends carries seat 0's token and no other, as `authorization`, never in a URL;
screenshots at 1280x800 and 390x844, no horizontal scroll and no small control at 390 px.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Browser, Page, expect

from referee.client import AsyncRefereeClient, AsyncSeat
from referee.v1 import game_pb2, gang_of_four_pb2, referee_pb2_grpc
from tests.console.support import (
    DESKTOP,
    PHONE,
    Sent,
    card_key,
    cards_in,
    console_url,
    grpc_channel,
    phone_problems,
    screenshot_dir,
    view_at,
)
from tests.servers import Served

G = gang_of_four_pb2
SEATS = 4
ME = 0  # the seat played by clicks
SEED = b"seat-gang-of-four-53"  # six kinds of combination in two hands
WAIT = 30_000  # ms: the longest wait for the page
MOST_VERSIONS = 600  # a meek table's game is far shorter; a bound, not a target
# The kinds of move, as the page names them (`data-move-kind`: the oneof case, camelCase).
KINDS = {f.json_name for f in G.GangOfFourMove.DESCRIPTOR.oneofs_by_name["action"].fields}

# Every (version, cards) the page draws, as it draws it: a MutationObserver reads the
# table after each change, so no version the page shows is missed however fast it moves.
RECORD = """() => {
  window.__drawn = [];
  const read = () => {
    const view = document.querySelector('[data-testid="game-view"]');
    if (!view) return;
    const cards = [...document.querySelectorAll('[data-testid="card"]')]
      .map((c) => c.getAttribute('data-card')).sort();
    const entry = { version: Number(view.getAttribute('data-version')), cards };
    const last = window.__drawn[window.__drawn.length - 1];
    if (!last || last.version !== entry.version || last.cards.join() !== cards.join()) {
      window.__drawn.push(entry);
    }
  };
  const all = { subtree: true, childList: true, attributes: true };
  new MutationObserver(read).observe(document, all);
}"""


def _action(move: game_pb2.Move) -> str:
    return move.gang_of_four.WhichOneof("action") or ""


def _cards(move: game_pb2.Move) -> tuple[str, ...]:
    return tuple(sorted(card_key(card) for card in move.gang_of_four.play.cards))


def _meek(moves: list[game_pb2.Move]) -> game_pb2.Move:
    """The other seats' choice: a pass whenever one is listed, else the first listed
    single, else whatever is listed first (the rules may force a play)."""
    passes = [m for m in moves if _action(m) == "pass"]
    singles = [m for m in moves if _action(m) == "play" and len(m.gang_of_four.play.cards) == 1]
    return (passes or singles or moves)[0]


@dataclass
class Clicker:
    """Seat 0's choices, made on the page by clicks: the first listed give-back; a pass the
    first time one is listed (and whenever nothing else is); a play that leaves one card,
    announced, the first time one is listed; else its largest listed play (announced
    where the list has it both ways)."""

    page: Page
    clicked: list[str] = field(default_factory=list)
    announced: int = 0
    shots: Path | None = None
    on_phone: list[str] | None = None
    acted_at: list[int] = field(default_factory=list)  # versions where seat 0 clicked

    def choose(self, moves: list[game_pb2.Move]) -> game_pb2.Move:
        by_kind: dict[str, list[game_pb2.Move]] = {}
        for move in moves:
            by_kind.setdefault(_action(move), []).append(move)
        if "give_back" in by_kind:
            return by_kind["give_back"][0]
        plays = by_kind.get("play", [])
        if "pass" in by_kind and ("pass" not in self.clicked or not plays):
            return by_kind["pass"][0]
        announcing = [m for m in plays if m.gang_of_four.play.announce_last_card]
        if announcing and not self.announced:
            return announcing[0]
        # A play listed both ways is made announcing: forgetting would put seat 0 out.
        said = {_cards(m) for m in announcing}
        plays = [m for m in plays if m in announcing or _cards(m) not in said]
        return max(plays, key=lambda m: len(m.gang_of_four.play.cards))

    async def make(self, move: game_pb2.Move) -> None:
        """Pick the move's cards one by one, then press the button of its kind."""
        action = _action(move)
        if action == "pass":
            await self._press("pass", "pass")
            return
        cards = (
            [move.gang_of_four.give_back.card]
            if action == "give_back"
            else list(move.gang_of_four.play.cards)
        )
        for card in cards:
            pick = self.page.locator(
                f"[data-testid=pick][aria-pressed=false]:has([data-card='{card_key(card)}'])"
            ).first
            await pick.click()
        if action == "give_back":
            await self._press("give-back", "giveBack")
            return
        play = self.page.get_by_test_id("play")
        await expect(play).to_be_enabled()
        if move.gang_of_four.play.announce_last_card:
            await self.page.get_by_test_id("announce").click()
            await expect(self.page.get_by_test_id("announce")).to_have_attribute(
                "aria-pressed", "true"
            )
            self.announced += 1
        want = str(move.gang_of_four.play.announce_last_card).lower()
        await expect(play).to_have_attribute("data-announce", want)
        if self.shots is not None and len(cards) > 1:
            self.on_phone = await _screenshots(self.page, self.shots)
            self.shots = None
        await self._press("play", "play")

    async def _press(self, testid: str, kind: str) -> None:
        button = self.page.get_by_test_id(testid)
        await expect(button).to_be_enabled()
        assert await button.get_attribute("data-move-kind") == kind
        self.clicked.append(kind)
        await button.click()


async def _screenshots(page: Page, shots: Path) -> list[str]:
    """The seat page mid-hand with cards picked, at 1280x800 and 390x844; what keeps it
    from being usable on the phone (asserted once the game is over, so that it hides
    nothing else)."""
    await page.screenshot(path=str(shots / "seat-gang_of_four.png"), full_page=True)
    await page.set_viewport_size(PHONE)
    problems = await phone_problems(page)
    widths = await page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    if widths[0] > widths[1]:
        problems.append(f"horizontal scroll: {widths}")
    await page.screenshot(path=str(shots / "seat-gang_of_four-phone.png"), full_page=True)
    await page.set_viewport_size(DESKTOP)
    return problems


def _check_sent(sent: Sent, mine: str, others: list[str]) -> None:
    """The page sent its seat's token, no other, and in no URL."""
    assert sent.tokens == {mine}, f"the page sent {sent.tokens}"
    sent.no_token_in_a_url([mine, *others])


async def _drawn_matches_views(
    page: Page, served: Served, game_id: str, token: str, dealt: game_pb2.View
) -> set[int]:
    """Every table the page drew holds exactly the cards of the seat's view then (WatchGame
    replays versions after 0; ``dealt`` is the seat's view at 0). Returns the versions
    it drew."""
    drawn = await page.evaluate("() => window.__drawn")
    async with grpc_channel(served) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        views: dict[int, Counter[str]] = {dealt.version: cards_in(dealt)}
        for entry in drawn:
            version = int(entry["version"])
            if version not in views:
                views[version] = cards_in(await view_at(stub, game_id, version, token))
            assert Counter(entry["cards"]) == views[version], f"at version {version}"
    return set(views)


async def _combinations(seat: AsyncSeat) -> set[int]:
    """The kinds of combination seat 0 played, from the game's log."""
    history = await seat.history()
    return {
        event.gang_of_four.played.kind
        for entry in history.entries
        for event in entry.events
        if event.gang_of_four.WhichOneof("kind") == "played"
        and event.gang_of_four.played.seat == ME
    }


async def _play(page: Page, seats: list[AsyncSeat], clicker: Clicker) -> game_pb2.View:
    """Seat 0 by clicks, the others by the API, until the game is over."""
    game_view = page.get_by_test_id("game-view")
    drawing = page.get_by_test_id("gof-seat")
    for _ in range(MOST_VERSIONS):
        view = await seats[ME].view()
        if view.HasField("outcome"):
            return view
        (seat,) = view.to_act
        if seat != ME:
            other = await seats[seat].legal_moves()
            await seats[seat].submit(_meek(list(other.moves)), expected_version=other.version)
            continue
        await expect(game_view).to_have_attribute("data-version", str(view.version), timeout=WAIT)
        await expect(drawing).not_to_have_attribute("data-legal", "0", timeout=WAIT)
        await expect(page.get_by_test_id("turn")).to_have_text("Your move")
        legal = await seats[ME].legal_moves()
        assert legal.version == view.version
        clicker.acted_at.append(view.version)
        await clicker.make(clicker.choose(list(legal.moves)))
        await page.wait_for_function(
            "(v) => Number(document.querySelector('[data-testid=game-view]')"
            "?.getAttribute('data-version')) > v",
            arg=view.version,
            timeout=WAIT,
        )
    raise AssertionError(f"no end within {MOST_VERSIONS} versions")


async def test_a_whole_game_by_clicks_on_the_seat_page(
    served: Served, browser: Browser, tmp_path: Path
) -> None:
    async with AsyncRefereeClient(served.grpc) as client:
        created = await client.create_game(
            "gang_of_four", SEATS, allow_spectators=True, seed=SEED, names=["Ann", "Bo", "Cy", "Di"]
        )
        seats = client.seats(created)
        dealt = await seats[ME].view()
        tokens = [seat.token for seat in created.seat_tokens]
        context = await browser.new_context(viewport=DESKTOP)
        page = await context.new_page()
        sent = Sent()
        sent.follow(page)
        await page.add_init_script(f"({RECORD})()")
        await page.goto(f"{console_url(served)}#/play/{created.game_id}/{tokens[ME]}")
        await expect(page.get_by_test_id("game-view")).to_have_attribute(
            "data-seat", str(ME), timeout=WAIT
        )
        clicker = Clicker(page, shots=screenshot_dir(tmp_path))
        final = await _play(page, seats, clicker)

        await expect(page.get_by_test_id("game-view")).to_have_attribute(
            "data-version", str(final.version), timeout=WAIT
        )
        await expect(page.get_by_test_id("outcome")).to_be_visible()
        assert final.gang_of_four.phase == G.GANG_OF_FOUR_PHASE_OVER
        assert max(final.gang_of_four.totals) >= 100
        assert set(clicker.clicked) == KINDS, "every kind of move made by a click"
        assert clicker.announced, "a last card announced by a click"
        assert len(await _combinations(seats[ME])) >= 4, "plays of several combinations"
        shown = await _drawn_matches_views(page, served, created.game_id, tokens[ME], dealt)
        assert {*clicker.acted_at, final.version} <= shown
        _check_sent(sent, tokens[ME], [*tokens[1:], created.admin_token])
        await context.close()
        assert clicker.on_phone == [], "usable at 390 px"
