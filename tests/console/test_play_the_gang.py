"""The Gang's seat page end to end: `referee serve`, headless chromium, one seat by clicks.

Three tables, seat 0 played only by clicks on its seat page (`#/play/<id>/<token>`), the
other seats by the test through the API with their own tokens (so it can steer each heist
to the specialist or challenge it needs; it reads every pocket to order the red chips):

- Advanced, played to its end: three failed heists, the Informant (propose, withdraw,
  accept, show a card) and the Hacker (propose, discard; the red round then waits for
  every seat's confirmation), chips taken from the middle and from a seat, and returned;
- Advanced with `confirm_round_end`: every round confirmed, then the Coordinator's pass;
- Master Thief with Retina Scan and Fingerprint Scan: both guesses proposed by clicks.

Every move kind of TheGangMove is clicked at least once; at every version the page shows,
its cards are exactly those of seat 0's own view; the page sends only seat 0's token, and
only as `authorization`. Screenshots at 1280x800 and 390x844 (no horizontal scroll there).

Two base games of three seats are played to their end for people: one by taps on a phone
(390 px), one by the keyboard alone (Tab to a chip, Enter or Space to take it). At every
step the table names the players (never "seat 0") and the prompt says what to do now, in
words that name the chip to take; axe-core finds nothing serious at the start, midway and
at the end.
"""

from __future__ import annotations

import re
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Browser, BrowserContext, Page, expect

from engines.cards import Card
from engines.poker.evaluator import rank_value
from referee.v1 import game_pb2, referee_pb2, referee_pb2_grpc
from referee.v1 import the_gang_pb2 as tg
from tests.console.support import (
    DESKTOP,
    DRAWN,
    PHONE,
    SMALLEST_TAP_PX,
    Sent,
    axe_problems,
    cards_in,
    console_url,
    grpc_channel,
    save_screenshot,
    screenshot_dir,
    view_at,
)
from tests.servers import Served

ME = 0
NAMES = ["Ada", "Bram", "Cleo"]
WAIT_MS = 15_000
# The chip colours as the English prompt and the chips' names say them.
COLOURS = {tg.CHIP_COLOUR_WHITE: "white", tg.CHIP_COLOUR_YELLOW: "yellow"}
COLOURS |= {tg.CHIP_COLOUR_ORANGE: "orange", tg.CHIP_COLOUR_RED: "red"}
# A seat named by its number, as the page must never say it ("Seat 1", "seat 0").
BY_NUMBER = re.compile(r"\bseat \d", re.IGNORECASE)
# The focused control: its name in words (a chip button's title says what it does, as its
# accessible name does) and whether its focus is visible (an outline).
FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
  return { name: el.title || el.textContent.trim(), visible: ring };
}"""
MAX_TABS = 120
MOVE_KINDS = {
    re.sub(r"_(\w)", lambda m: m.group(1).upper(), f.name)
    for f in tg.TheGangMove.DESCRIPTOR.oneofs_by_name["action"].fields
}

# The seat's own controls on a phone: each at least SMALLEST_TAP_PX both ways.
SMALL_CONTROLS = """(tap) => [...document.querySelectorAll('[data-testid="game-view"] button')]
  .filter(b => b.getBoundingClientRect().width > 0)
  .filter(b => b.getBoundingClientRect().width < tap || b.getBoundingClientRect().height < tap)
  .map(b => b.dataset.testid)"""


def _auth(token: str) -> tuple[tuple[str, str]]:
    return (("authorization", f"Bearer {token}"),)


def _drawn(card: tg.PlayingCard) -> str:
    """A selector of the card drawn (its key has double quotes, never single ones)."""
    (key,) = cards_in(card)
    return f"[data-card='{key}']"


@dataclass
class Table:
    """One table: seat 0 on the page, the others moved by the test."""

    page: Page
    stub: referee_pb2_grpc.RefereeServiceAsyncStub
    game_id: str
    tokens: list[str]
    clicked: set[str]
    version: int = 0
    sent: Sent = field(default_factory=Sent)
    # For people: check names and the prompt at every step; seat 0 moves by keys.
    people: bool = False
    keys: bool = False

    async def check(self) -> None:
        """The page is at our version and draws exactly seat 0's cards of it."""
        view = self.page.get_by_test_id("game-view")
        await expect(view).to_have_attribute("data-version", str(self.version), timeout=WAIT_MS)
        drawn = await self.page.evaluate(DRAWN)
        assert drawn is not None and drawn["version"] == self.version
        own = await self.own_view()
        assert Counter(drawn["cards"]) == cards_in(own), f"at version {self.version}"
        if self.people:
            await self.named_and_prompted()

    async def named_and_prompted(self) -> None:
        """The table names every player, never a seat number, and the prompt says something."""
        table = await self.page.get_by_test_id("game-view").inner_text()
        prompt = await self.page.get_by_test_id("prompt").inner_text(timeout=WAIT_MS)
        for text in (table, prompt):
            assert not BY_NUMBER.search(text), f"a seat by its number at {self.version}: {text!r}"
        assert all(name in table for name in NAMES), f"names missing at {self.version}"
        assert prompt.strip(), f"no prompt at version {self.version}"

    async def prompt(self) -> str:
        return await self.page.get_by_test_id("prompt").inner_text(timeout=WAIT_MS)

    async def press(self, name: str, key: str) -> None:
        """Tab to the control named `name` (its focus visible), then press `key` on it. The
        control is waited for first: the page draws it once the version's legal moves are
        listed, after the view."""
        await self.page.get_by_role("button", name=name, exact=True).wait_for(timeout=WAIT_MS)
        for _ in range(MAX_TABS):
            await self.page.keyboard.press("Tab")
            focused = await self.page.evaluate(FOCUSED)
            if focused is not None and focused["name"] == name:
                assert focused["visible"], f"{name}: focus not visible"
                await self.page.keyboard.press(key)
                return
        raise AssertionError(f"no control named {name!r} within {MAX_TABS} tabs")

    async def own_view(self) -> game_pb2.View:
        """Seat 0's view at our version (the deal, version 0, has no version before it)."""
        if self.version > 0:
            return await view_at(self.stub, self.game_id, self.version, self.tokens[ME])
        reply = await self.stub.GetView(
            referee_pb2.GetViewRequest(game_id=self.game_id), metadata=_auth(self.tokens[ME])
        )
        assert reply.view.version == 0
        return reply.view

    async def gang(self, seat: int = ME) -> tg.TheGangView:
        reply = await self.stub.GetView(
            referee_pb2.GetViewRequest(game_id=self.game_id), metadata=_auth(self.tokens[seat])
        )
        return reply.view.the_gang

    async def api(self, seat: int, **action: object) -> None:
        move = game_pb2.Move(the_gang=tg.TheGangMove(**action))  # type: ignore[arg-type]
        reply = await self.stub.SubmitMove(
            referee_pb2.SubmitMoveRequest(
                game_id=self.game_id, move=move, client_move_id=uuid.uuid4().hex
            ),
            metadata=_auth(self.tokens[seat]),
        )
        assert reply.version == self.version + 1
        self.version = reply.version
        await self.check()

    async def pick(self, selector: str) -> None:
        """A step of a pick on the page: no move yet."""
        await self.page.locator(selector).click(timeout=WAIT_MS)

    async def click(self, selector: str) -> None:
        """A click that makes a move; its kind is recorded."""
        button = self.page.locator(selector)
        kind = await button.get_attribute("data-move-kind", timeout=WAIT_MS)
        assert kind in MOVE_KINDS, f"{selector}: {kind}"
        await button.click(timeout=WAIT_MS)
        self.version += 1
        await self.check()
        self.clicked.add(kind)

    async def take(self, seat: int, stars: int) -> None:
        if seat == ME and self.keys:
            await self.take_by_keys(stars)
        elif seat == ME:
            if self.people:
                word = COLOURS[(await self.gang()).round]
                article = "an" if word == "orange" else "a"
                assert (await self.prompt()).startswith(f"Take {article} {word} chip")
            await self.click(f'[data-testid="take-chip"][data-from="middle"][data-stars="{stars}"]')
        else:
            colour = (await self.gang(seat)).round
            await self.api(seat, take_chip=tg.TheGangMove.TakeChip(colour=colour, stars=stars))

    async def take_by_keys(self, stars: int) -> None:
        """Seat 0 takes a chip from the middle by the keyboard alone: Enter, or Space for 1 star."""
        colour = COLOURS[(await self.gang()).round]
        count = "1 star" if stars == 1 else f"{stars} stars"
        name = f"Take the {colour} chip with {count} from the middle"
        await self.press(name, "Space" if stars == 1 else "Enter")
        self.version += 1
        await self.check()
        self.clicked.add("takeChip")

    async def confirm_all(self) -> None:
        for seat in (1, 2, ME):
            if seat == ME and self.people:
                assert "confirm the end of the round" in await self.prompt()
            if seat == ME:
                await self.click('[data-testid="confirm-round-end"]')
            else:
                await self.api(seat, confirm_round_end=tg.TheGangMove.ConfirmRoundEnd())

    async def chips(self, stars: dict[int, int]) -> None:
        """One round: each seat takes its chip from the middle (the page last), then every
        seat confirms when the round waits for it."""
        before = await self.gang()
        for seat in (1, 2, ME):
            await self.take(seat, stars[seat])
        after = await self.gang()
        if after.round_needs_confirmation and (after.heist, after.round) == (
            before.heist,
            before.round,
        ):
            await self.confirm_all()

    async def red_order(self, fail: bool) -> dict[int, int]:
        """The red stars that put the hands in order (or, to fail, strongest first)."""
        board = list((await self.gang()).board)
        strength = {}
        for seat in range(len(self.tokens)):
            pocket = list((await self.gang(seat)).pocket)
            strength[seat] = rank_value([Card.parse(c.code) for c in pocket + board])
        assert not fail or len(set(strength.values())) > 1, "equal hands cannot fail"
        order = sorted(strength, key=strength.__getitem__, reverse=fail)
        return {seat: place + 1 for place, seat in enumerate(order)}

    async def heist(self, fail: bool = True, before_red: bool = False) -> None:
        """The rounds of a heist from where it is: seat s takes s+1 stars, the red chips
        as `red_order` says."""
        start = (await self.gang()).heist
        while (g := await self.gang()).heist == start:
            if g.round == tg.CHIP_COLOUR_RED:
                await self.chips(await self.red_order(fail))
                return
            await self.chips({0: 1, 1: 2, 2: 3})

    async def proposal_id(self) -> int:
        (open_one,) = (await self.gang()).proposals
        return open_one.id


async def _open(
    context: BrowserContext,
    served: Served,
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
    options: tg.TheGangOptions,
    seed: bytes,
    clicked: set[str],
    people: bool = True,
) -> Table:
    created = await stub.CreateGame(
        referee_pb2.CreateGameRequest(
            game="the_gang",
            seats=3,
            options=game_pb2.TableOptions(the_gang=options),
            seed=seed,
            names=NAMES,
        )
    )
    tokens = [seat.token for seat in created.seat_tokens]
    page = await context.new_page()
    table = Table(page, stub, created.game_id, tokens, clicked, people=people)
    table.sent.follow(page)
    await page.goto(f"{console_url(served)}#/play/{created.game_id}/{tokens[ME]}")
    await table.check()
    return table


async def _axe_clean(page: Page, when: str) -> None:
    problems = await axe_problems(page)
    assert problems == [], f"axe-core {when}: {problems}"


async def _first_table(table: Table) -> None:
    """Advanced, to its end: three alarms; the Informant and the Hacker on the way."""
    # Heist 1, white: take from the middle, from a seat, give back, take again.
    await table.take(1, 1)
    await table.click('[data-testid="take-chip"][data-from="seat"][data-stars="1"]')
    await table.take(1, 2)
    await table.click('[data-testid="return-chip"][data-stars="1"]')
    await table.take(ME, 1)
    await table.take(2, 3)
    await table.heist(fail=True)
    # Heist 2, the Informant: a proposal withdrawn, another accepted, a card shown.
    assert (await table.gang()).specialist == tg.SPECIALIST_CARD_INFORMANT
    await table.pick('[data-testid="use-seat"][data-seat="1"]')
    await table.click('[data-testid="propose-use"][data-viewer="2"]')
    await table.click('[data-testid="withdraw"]')
    use = tg.UseSpecialist(seat=ME, viewer=1)
    await table.api(1, propose=tg.TheGangMove.Propose(use_specialist=use))
    assert (await table.prompt()).startswith("Bram proposes: Ada uses the specialist")
    await table.click('[data-testid="accept"]')
    await table.api(2, accept=tg.TheGangMove.Accept(proposal=await table.proposal_id()))
    assert await table.prompt() == "Choose a pocket card to show Bram"
    await _axe_clean(table.page, "while a card is owed")
    shown = (await table.gang()).pocket[0]
    await table.pick(f'[data-testid="pocket-pick"]:has({_drawn(shown)})')
    await table.click('[data-testid="card-action"][data-move-kind="showCard"]')
    await table.heist(fail=True)
    # Heist 3, the Hacker, used in the red round (which then waits for confirmations).
    assert (await table.gang()).specialist == tg.SPECIALIST_CARD_HACKER
    while (await table.gang()).round != tg.CHIP_COLOUR_RED:
        await table.chips({0: 1, 1: 2, 2: 3})
    await table.click(f'[data-testid="propose-use"][data-seat="{ME}"]')
    for seat in (1, 2):
        await table.api(seat, accept=tg.TheGangMove.Accept(proposal=await table.proposal_id()))
    dropped = (await table.gang()).pocket[-1]
    await table.pick(f'[data-testid="pocket-pick"]:has({_drawn(dropped)})')
    await table.click('[data-testid="card-action"][data-move-kind="discardCard"]')
    await table.chips(await table.red_order(fail=True))
    await expect(table.page.get_by_test_id("outcome")).to_be_visible(timeout=WAIT_MS)
    assert (await table.gang()).alarms == 3


async def _second_table(table: Table) -> None:
    """Advanced with `confirm_round_end`: a heist of confirmed rounds, then the pass."""
    await table.heist(fail=True)
    assert (await table.gang()).specialist == tg.SPECIALIST_CARD_COORDINATOR
    assert await table.prompt() == "Choose a pocket card to pass to Bram"
    passed = (await table.gang()).pocket[0]
    await table.pick(f'[data-testid="pocket-pick"]:has({_drawn(passed)})')
    await table.click('[data-testid="card-action"][data-move-kind="passCard"]')
    assert await table.prompt() == "Waiting for Bram and Cleo to choose a card to pass"
    for seat in (1, 2):
        card = (await table.gang(seat)).pocket[0]
        await table.api(seat, pass_card=tg.TheGangMove.PassCard(card=card))
    assert passed in (await table.gang(1)).pocket


async def _third_table(table: Table, shots: Path) -> None:
    """Master Thief, Retina Scan and Fingerprint Scan: the page proposes both guesses."""
    while (await table.gang()).round != tg.CHIP_COLOUR_RED:
        await table.chips({0: 1, 1: 2, 2: 3})
    await table.chips({0: 1, 1: 2, 2: 3})  # seat 2 holds the top red chip
    assert (await table.gang()).awaiting_guesses
    assert (await table.prompt()).startswith("Agree on a guess about Cleo's hand")
    await _axe_clean(table.page, "while the gang guesses")
    await save_screenshot(table.page, shots / "seat-the_gang.png", full_page=True)
    await _on_a_phone(table.page, shots)
    await table.click('[data-testid="propose-guess"][data-decision="guessRank"][data-value="14"]')
    await table.api(1, accept=tg.TheGangMove.Accept(proposal=await table.proposal_id()))
    await table.click('[data-testid="propose-guess"][data-decision="guessHand"][data-value="2"]')
    await table.api(1, accept=tg.TheGangMove.Accept(proposal=await table.proposal_id()))
    assert (await table.gang()).heist == 2


async def _on_a_phone(page: Page, shots: Path) -> None:
    await page.set_viewport_size(PHONE)
    width = await page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"horizontal scroll at 390 px: {width}"
    assert await page.evaluate(SMALL_CONTROLS, SMALLEST_TAP_PX) == []
    await save_screenshot(page, shots / "seat-the_gang-phone.png", full_page=True)
    await page.set_viewport_size(DESKTOP)


def _options(**more: object) -> tg.TheGangOptions:
    return tg.TheGangOptions(**more)  # type: ignore[arg-type]


async def test_the_gang_is_played_by_clicks_on_the_seat_page(
    served: Served, browser: Browser, tmp_path: Path
) -> None:
    shots = screenshot_dir(tmp_path)
    clicked: set[str] = set()
    context = await browser.new_context(viewport=DESKTOP)
    async with grpc_channel(served) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        advanced = tg.THE_GANG_MODE_ADVANCED
        # Each table's options, seed and what the test plays at it, one table after another.
        plays: list[tuple[tg.TheGangOptions, bytes, Callable[[Table], Awaitable[None]]]] = [
            (
                _options(
                    mode=advanced,
                    specialist_pile=tg.PileStart(cards=[1, 5, 2, 3, 4, 6, 7, 8, 9, 10]),
                ),
                b"the gang seat 1",
                _first_table,
            ),
            (
                _options(
                    mode=advanced,
                    confirm_round_end=True,
                    specialist_pile=tg.PileStart(cards=[6, 1, 2, 3, 4, 5, 7, 8, 9, 10]),
                ),
                b"the gang seat 2",
                _second_table,
            ),
            (
                _options(
                    mode=tg.THE_GANG_MODE_MASTER_THIEF,
                    ordered_challenges=True,
                    challenge_pile=tg.PileStart(cards=[4, 9, 2, 3, 5, 6, 7, 8, 10]),
                ),
                b"the gang seat 3",
                lambda table: _third_table(table, shots),
            ),
        ]
        tables = []
        for options, seed, play in plays:
            table = await _open(context, served, stub, options, seed, clicked)
            await play(table)
            tables.append(table)
    await context.close()
    assert clicked == MOVE_KINDS, f"never clicked: {MOVE_KINDS - clicked}"
    for table in tables:
        assert table.sent.tokens == {table.tokens[ME]}, f"the page sent {table.sent.tokens}"
        table.sent.no_token_in_a_url(table.tokens)


async def _base_game_to_its_end(table: Table) -> None:
    """Three failed heists of the base game: the gang is caught. The prompt names the chip
    to take, then whom the table waits for; axe-core checks the page at the start, after
    the first heist and at the end."""
    await _axe_clean(table.page, "at the start")
    await table.take(ME, 1)
    assert (await table.prompt()).startswith("Waiting for Bram and Cleo to take a chip")
    await table.take(1, 2)
    await expect(table.page.get_by_text("Bram takes the white chip with 2 stars")).to_be_visible()
    await table.take(2, 3)
    await table.heist(fail=True)
    await _axe_clean(table.page, "after the first heist")
    while (await table.gang()).alarms < 3:
        await table.heist(fail=True)
    await expect(table.page.get_by_test_id("outcome")).to_be_visible(timeout=WAIT_MS)
    assert (await table.prompt()).startswith("The game is over: the alarm went off")
    await _axe_clean(table.page, "at the end")


async def test_a_base_game_is_played_to_its_end_by_taps_on_a_phone(
    served: Served, browser: Browser
) -> None:
    context = await browser.new_context(viewport=PHONE)
    async with grpc_channel(served) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        table = await _open(
            context, served, stub, _options(), b"the gang phone", set(), people=True
        )
        await _base_game_to_its_end(table)
    await context.close()


async def test_a_base_game_is_played_to_its_end_by_the_keyboard_alone(
    served: Served, browser: Browser
) -> None:
    context = await browser.new_context(viewport=DESKTOP)
    async with grpc_channel(served) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        table = await _open(context, served, stub, _options(), b"the gang keys", set(), people=True)
        table.keys = True
        await _base_game_to_its_end(table)
        assert table.clicked == {"takeChip"}
    await context.close()
