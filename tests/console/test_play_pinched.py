"""Pinched! played in the browser: one seat by clicks on its seat page, the others by API.

A whole four-seat game, to its end, on a table with the spades and hearts mansions on
their crown sides (both dogs, two-card passage, curses): the test plans where everyone
goes each morning so that every kind of move comes up for the clicking seat (it is the
first mastermind: alone at spades it picks a dog, it joins the heist at hearts and takes
the passage, keeps and later passes the curse it drew there, skips the passage alone at
hearts, and Gordie fetches its cards), and the other seats play the heuristic bot's moves
(minus the passage) through the API. Checked:
- every kind of PinchedMove's oneof was made by a click on the seat page (and each of the
  seat's moves in the history is one of those clicks);
- at every version the page drew, its `data-card` keys are exactly (as a multiset) the
  cards of that seat's own view at that version;
- every request the page sent carries this seat's token or none, and no URL a token;
- at 1280x800 and 390x844 screenshots of the seat page, and at 390 px no horizontal
  scroll, tap targets of at least 40 px and no text under 13 px.

Two small games for people (two seats, named, the default mansions), to their end: one by
taps on a phone (390 px), one by the keyboard alone (Tab or Shift+Tab to a card or button,
its focus visible, then Enter or Space). The page's seat plays the heuristic bot's moves,
the other seat plays through the API. At every step the table, the prompt and the events
name the burglars (never "seat 0"), the prompt says something, and on the phone the seat's
own area (its moves, stash and hand) is above the board; axe-core finds nothing serious at
the start, midway and at the end. At the end the score table's rows are the players'
names, and in Dutch the page speaks Gekraakt!'s own words.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Browser, BrowserContext, Page, ViewportSize, expect

from referee.bots import bot_for
from referee.client import AsyncRefereeClient, AsyncSeat
from referee.v1 import game_pb2, pinched_pb2, referee_pb2_grpc
from tests.console.support import (
    DESKTOP,
    PHONE,
    Sent,
    axe_problems,
    cards_in,
    console_url,
    grpc_channel,
    phone_problems,
    save_screenshot,
    screenshot_dir,
    view_at,
)
from tests.servers import Served

P = pinched_pb2
PHONE_SIZE = ViewportSize(width=PHONE["width"], height=PHONE["height"])
DESKTOP_SIZE = ViewportSize(width=DESKTOP["width"], height=DESKTOP["height"])
WAIT = 15_000  # ms: the longest wait for the page to catch up with one move
SEATS = 4
NAMES = ["Ada", "Bram", "Cleo", "Dirk"]
LOCATIONS = [
    (P.LOCATION_DIAMONDS, P.SIDE_CROWN),
    (P.LOCATION_CLUBS, P.SIDE_STANDARD),
    (P.LOCATION_SPADES, P.SIDE_CROWN),
    (P.LOCATION_HEARTS, P.SIDE_CROWN),
]
# Every kind of move there is: the cases of PinchedMove's oneof, as the page names them.
KINDS = {f.json_name for f in P.PinchedMove.DESCRIPTOR.oneofs_by_name["action"].fields}
# Day -> the heist and the seats (counted from the clicking seat) that join the mastermind.
# Day 1: the clicking seat alone at spades (both dogs free: it picks one); 2: it joins at
# hearts and takes the passage (a curse); 3, 4: it keeps the curse, then passes it; 5: alone
# at hearts, it skips the passage. Later days rotate and it joins every shared heist.
SCHEDULE = {
    1: (P.LOCATION_SPADES, frozenset[int]()),
    2: (P.LOCATION_HEARTS, frozenset({0})),
    3: (P.LOCATION_CLUBS, frozenset({0})),
    4: (P.LOCATION_DIAMONDS, frozenset({0})),
    5: (P.LOCATION_HEARTS, frozenset[int]()),
}
LATER = [P.LOCATION_CLUBS, P.LOCATION_DIAMONDS, P.LOCATION_HEARTS]

# Every drawing of the seat's table, recorded in the page as it happens (a DOM observer,
# so no version is missed however fast the moves come): its version and its cards.
RECORD_DRAWINGS = """(() => {
  window.__drawn = [];
  let last = '';
  const look = () => {
    const view = document.querySelector('[data-testid="game-view"]');
    if (!view) return;
    const cards = [...view.querySelectorAll('[data-testid="card"]')]
      .map(c => c.getAttribute('data-card')).sort();
    const key = view.getAttribute('data-version') + '|' + cards.join('\\n');
    if (key === last) return;
    last = key;
    window.__drawn.push({version: Number(view.getAttribute('data-version')), cards});
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true, attributes: true});
})();"""
PAGE_VERSION = """(version) => {
  const view = document.querySelector('[data-testid="game-view"]');
  return view !== null && Number(view.getAttribute('data-version')) === version;
}"""
PAGE_MOVED_ON = """(version) => {
  const view = document.querySelector('[data-testid="game-view"]');
  return view !== null && Number(view.getAttribute('data-version')) > version;
}"""


def kind(move: game_pb2.Move) -> str:
    """The move's oneof case as the page names it (camelCase, e.g. "takeCard")."""
    case = move.pinched.WhichOneof("action") or ""
    return P.PinchedMove.DESCRIPTOR.fields_by_name[case].json_name if case else ""


def location_name(location: P.Location.ValueType) -> str:
    return P.Location.Name(location).removeprefix("LOCATION_").lower()


def planned_location(view: game_pb2.View, me: int) -> P.Location.ValueType:
    """Where this seat goes this morning, by the schedule."""
    day, seats = view.pinched.day, view.seats
    mastermind_is_me = view.pinched.mastermind == me
    heist, joining = SCHEDULE.get(
        day, (LATER[day % len(LATER)], frozenset({1 if mastermind_is_me else 0}))
    )
    if view.seat == view.pinched.mastermind or (view.seat - me) % seats in joining:
        return heist
    return next(location for location, _ in LOCATIONS if location != heist)


def _is_document(card: P.Valuable | None) -> bool:
    return card is not None and card.kind == "document"


def _open_card(view: P.PinchedView, ref: P.PinchedMove.FieldRef) -> P.Valuable | None:
    row = next(r for r in view.fields if r.location == ref.location)
    found = row.fields[ref.field]
    return found.card if found.HasField("card") else None


def _sells_for(view: P.PinchedView, seat: int, slot: int) -> int:
    held = view.stashes[seat].slots[slot]
    kind_ = next((k for k in view.components.kinds if k.name == held.kind), None)
    sales = list(kind_.sales) if kind_ is not None else []
    return max((s.value for s in sales if s.threshold <= len(held.cards)), default=0)


def _night(
    v: P.PinchedView, by: dict[str, list[game_pb2.Move]], done: Counter[str]
) -> game_pb2.Move | None:
    """The night: Gordie for the dog, keep the first curse and pass later ones, the passage
    once in company and skip it once alone, else a take (a document if one lies open)."""
    if "takeDog" in by:
        dogs = by["takeDog"]
        return next((m for m in dogs if m.pinched.take_dog.dog == P.DOG_GORDIE), dogs[0])
    curses = ["keepCurses", "passCurse"] if not done["keepCurses"] else ["passCurse", "keepCurses"]
    for wanted in curses:
        if wanted in by:
            return by[wanted][0]
    if "skipPassage" in by and v.passage_due and not done["skipPassage"]:
        return by["skipPassage"][0]
    if "usePassage" in by and not done["usePassage"]:
        return by["usePassage"][0]
    if "takeCard" in by:
        row = next(r for r in v.fields if r.location == v.heist)
        return max(
            by["takeCard"], key=lambda m: _is_document(row.fields[m.pinched.take_card.field].card)
        )
    return by["skipPassage"][0] if "skipPassage" in by else None


def my_choice(
    view: game_pb2.View, legal: Sequence[game_pb2.Move], done: Counter[str]
) -> game_pb2.Move:
    """What the clicking seat does (one of ``legal``): the schedule, documents when it can
    (they make storing a choice), each optional kind once, sales that pay."""
    by: dict[str, list[game_pb2.Move]] = {}
    for move in legal:
        by.setdefault(kind(move), []).append(move)
    v = view.pinched
    if "store" in by:
        return by["store"][0]
    if "takeWithGordie" in by:
        return max(
            by["takeWithGordie"],
            key=lambda m: _is_document(_open_card(v, m.pinched.take_with_gordie.card)),
        )
    if "chooseLocation" in by:
        want = planned_location(view, view.seat)
        return next(m for m in by["chooseLocation"] if m.pinched.choose_location.location == want)
    if (night := _night(v, by, done)) is not None:
        return night
    final = v.phase == P.PINCHED_PHASE_FINAL_SALE
    for move in by.get("sell", []):
        if final or _sells_for(v, view.seat, move.pinched.sell.slot) > 0:
            return move
    if "endSelling" in by:
        return by["endSelling"][0]
    river = by["takeFromRiver"]
    return max(river, key=lambda m: _is_document(v.river[m.pinched.take_from_river.field].card))


def selectors(move: game_pb2.Move) -> list[str]:
    """The clicks that make ``move`` on the seat page, by the drawing's test hooks."""
    k, m = kind(move), move.pinched
    hook = f'[data-move-kind="{k}"]'
    match m.WhichOneof("action"):
        case "choose_location":
            return [
                f'[data-testid="choose-location"]{hook}[data-location="{location_name(m.choose_location.location)}"]'
            ]
        case "take_card":
            return [f'[data-testid="field-card"]{hook}[data-field="{m.take_card.field}"]']
        case "use_passage" | "take_with_gordie":
            refs = m.use_passage.cards if m.HasField("use_passage") else [m.take_with_gordie.card]
            return [
                f'[data-testid="field-card"]{hook}[data-location="{location_name(r.location)}"][data-field="{r.field}"]'
                for r in refs
            ]
        case "take_dog":
            return [
                f'[data-testid="take-dog"]{hook}[data-dog="{P.Dog.Name(m.take_dog.dog).removeprefix("DOG_").lower()}"]'
            ]
        case "pass_curse":
            c = m.pass_curse
            return [
                f'[data-testid="pass-curse"]{hook}[data-curse="{c.curse}"][data-to-seat="{c.to_seat}"]'
            ]
        case "store":
            return [
                f'[data-testid="hand-card"]{hook}[data-card-id="{m.store.card}"]',
                f'[data-testid="store-slot"]{hook}[data-slot="{m.store.slot}"]',
            ]
        case "sell":
            return [f'[data-testid="sell-slot"]{hook}[data-slot="{m.sell.slot}"]']
        case "take_from_river":
            return [f'[data-testid="river-card"]{hook}[data-field="{m.take_from_river.field}"]']
        case other:
            return [f'[data-testid="{str(other).replace("_", "-")}"]{hook}']


@dataclass
class Table:
    """The game: the seat the page plays, the others the test plays through the API."""

    game_id: str
    me: int
    seats: list[AsyncSeat]
    rng: random.Random = field(default_factory=lambda: random.Random(18))

    def __post_init__(self) -> None:
        self.bots = [bot_for("pinched", "heuristic") for _ in self.seats]

    async def others_move(self, view: game_pb2.View) -> None:
        """One move of another seat to act: its morning by the schedule, else the bot's."""
        for number in view.to_act:
            if number == self.me:
                continue
            seat = self.seats[number]
            seen, legal = await seat.view(), (await seat.legal_moves()).moves
            if not legal:
                continue
            move: game_pb2.Move | None
            if kind(legal[0]) == "chooseLocation":
                want = planned_location(seen, self.me)
                move = next(m for m in legal if m.pinched.choose_location.location == want)
            else:
                without_passage = [m for m in legal if kind(m) != "usePassage"] or list(legal)
                move = self.bots[number].choose(seen, without_passage, self.rng)
            assert move is not None
            await seat.submit(move)
            return
        raise AssertionError(f"nobody else moves at version {view.version}")


async def _create(client: AsyncRefereeClient) -> tuple[Table, str]:
    options = game_pb2.TableOptions(
        pinched=P.PinchedOptions(
            locations=[P.LocationSide(location=loc, side=side) for loc, side in LOCATIONS]
        )
    )
    created = await client.create_game(
        "pinched", SEATS, options, allow_spectators=True, names=NAMES
    )
    seats = client.seats(created)
    me = (await seats[0].view()).pinched.first_mastermind
    return Table(created.game_id, me, seats), created.seat_tokens[me].token


async def _click(page: Page, move: game_pb2.Move, version: int) -> None:
    """Make ``move`` by clicks once the page shows ``version``; wait until it is applied."""
    await page.wait_for_function(PAGE_VERSION, arg=version, timeout=WAIT)
    for selector in selectors(move):
        await page.locator(selector).click(timeout=WAIT)
    await page.wait_for_function(PAGE_MOVED_ON, arg=version, timeout=WAIT)


async def _screenshots(page: Page, shots: Path) -> list[str]:
    """The seat page at 1280x800 and on a phone; what keeps it from being usable on the
    phone (a horizontal scroll, small tap targets or text), checked at the end."""
    await save_screenshot(page, shots / "seat-pinched.png")
    await page.set_viewport_size(PHONE_SIZE)
    await expect(page.get_by_test_id("prompt")).to_be_visible()
    scrolls = await page.evaluate("() => document.documentElement.scrollWidth > innerWidth")
    problems = ["scrolls sideways at 390 px"] if scrolls else []
    problems += await phone_problems(page)
    await save_screenshot(page, shots / "seat-pinched-phone.png")
    await page.set_viewport_size(DESKTOP_SIZE)
    return problems


@dataclass
class Played:
    """What the game on the page came to."""

    clicked: Counter[str] = field(default_factory=Counter)  # the kinds of the clicked moves
    seen: dict[int, Counter[str]] = field(default_factory=dict)  # the seat's view's cards
    phone: list[str] = field(default_factory=list)  # what is wrong on a phone
    final: int = 0  # the last version


async def _play(page: Page, table: Table, shots: Path) -> Played:
    """The whole game: the seat's moves by clicks on ``page``, the others' by API, one move
    at a time; the seat's view read after every move."""
    played, me = Played(), table.seats[table.me]
    while True:
        view = await me.view()
        played.seen[view.version] = cards_in(view)
        if view.HasField("outcome"):
            played.final = view.version
            return played
        legal = (await me.legal_moves()).moves if table.me in view.to_act else []
        if not legal:
            await table.others_move(view)
            continue
        move = my_choice(view, legal, played.clicked)
        if kind(move) == "usePassage" and not played.clicked["usePassage"]:
            await page.wait_for_function(PAGE_VERSION, arg=view.version, timeout=WAIT)
            await expect(page.locator('[data-move-kind="usePassage"]').first).to_be_enabled()
            played.phone = await _screenshots(page, shots)
        await _click(page, move, view.version)
        played.clicked[kind(move)] += 1


async def _check_drawings(
    served: Served,
    game_id: str,
    token: str,
    seen: dict[int, Counter[str]],
    drawn: list[dict[str, object]],
) -> int:
    """Every drawing's cards are those of the seat's own view at its version: the view the
    test read at that version (it reads one after every move), else the referee's replay of
    it for the seat. How many versions were drawn."""
    async with grpc_channel(served) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        for drawing in drawn:
            version, cards = drawing["version"], drawing["cards"]
            assert isinstance(version, int) and isinstance(cards, list)
            if version not in seen:
                seen[version] = cards_in(await view_at(stub, game_id, version, token))
            assert Counter(str(c) for c in cards) == seen[version], f"version {version}"
    return len({drawing["version"] for drawing in drawn})


async def test_a_whole_game_of_pinched_played_by_clicks_on_the_seat_page(
    served: Served, browser: Browser, tmp_path: Path
) -> None:
    shots = screenshot_dir(tmp_path)
    async with AsyncRefereeClient(served.grpc) as client:
        table, token = await _create(client)
        context = await browser.new_context(viewport=DESKTOP_SIZE)
        await context.add_init_script(RECORD_DRAWINGS)
        page = await context.new_page()
        sent = Sent().follow(page)
        await page.goto(f"{console_url(served)}#/play/{table.game_id}/{token}")
        await expect(page.get_by_test_id("game-view")).to_have_attribute(
            "data-seat", str(table.me), timeout=WAIT
        )
        assert token not in page.url  # the seat link's token left the address bar

        played = await _play(page, table, shots)
        await expect(page.get_by_test_id("outcome")).to_be_visible(timeout=WAIT)
        await page.wait_for_function(PAGE_VERSION, arg=played.final, timeout=WAIT)
        history = await table.seats[table.me].history()
        drawn = await page.evaluate("() => window.__drawn")
        await context.close()

    clicked = played.clicked
    assert set(clicked) == KINDS, f"never clicked: {KINDS - set(clicked)}"
    mine = Counter(kind(e.move) for e in history.entries if e.seat == table.me)
    assert mine == clicked, "every move of the seat was one of its clicks"
    checked = await _check_drawings(served, table.game_id, token, played.seen, drawn)
    assert checked >= sum(clicked.values()), f"only {checked} versions drawn"
    assert played.final in {d["version"] for d in drawn}
    assert sent.tokens <= {token}, f"another token: {sent.tokens - {token}}"
    sent.no_token_in_a_url([token])
    with_token = [request for request in sent.requests if request.authorization is not None]
    assert len(with_token) > sum(clicked.values())  # every move and listing went with it
    assert (shots / "seat-pinched.png").exists() and (shots / "seat-pinched-phone.png").exists()
    assert played.phone == [], "\n".join(played.phone)


# --- two small games for people: by taps on a phone, by the keyboard alone --------------

PEOPLE = ["Ada", "Bram"]
# A burglar named by a seat number, as the page must never say it ("Seat 1", "seat 0").
BY_NUMBER = re.compile(r"\bseat \d", re.IGNORECASE)
MAX_TABS = 150
# Where the focus is against the control ``selector`` names: "here" (with whether its focus
# ring shows), "forward" (the control comes later in the tab order), "back", or null when
# the page has no such control.
FOCUS = """(selector) => {
  const target = document.querySelector(selector);
  if (!target) return null;
  const focused = document.activeElement;
  if (focused === target) {
    const style = getComputedStyle(target);
    const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    return {where: 'here', ring};
  }
  if (!focused || focused === document.body) return {where: 'forward'};
  const after = focused.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING;
  return {where: after ? 'forward' : 'back'};
}"""
# The seat's own area and the board, top to bottom, on the page as drawn now.
TOPS = """() => {
  const top = (id) => document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect().top;
  return {mine: top('pinched-mine'), board: top('pinched-board')};
}"""


@dataclass
class People:
    """A two-seat game: the page's seat moves by taps (or keys), the other by the API."""

    page: Page
    seats: list[AsyncSeat]
    me: int
    keys: bool = False
    rng: random.Random = field(default_factory=lambda: random.Random(30))
    axe: dict[str, list[str]] = field(default_factory=dict)
    steps: int = 0
    pressed: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.bots = [bot_for("pinched", "heuristic") for _ in self.seats]

    async def check(self, version: int) -> None:
        """At ``version``: names, not seat numbers, in the table, the prompt and the
        events; a prompt; on a phone, the seat's own area above the board."""
        await self.page.wait_for_function(PAGE_VERSION, arg=version, timeout=WAIT)
        table = await self.page.get_by_test_id("game-view").inner_text()
        prompt = await self.page.get_by_test_id("prompt").inner_text(timeout=WAIT)
        events = await self.page.get_by_test_id("event-log").inner_text()
        for text in (table, prompt, events):
            assert not BY_NUMBER.search(text), f"a seat by its number at {version}: {text!r}"
        assert all(name in table for name in PEOPLE), f"names missing at {version}"
        assert prompt.strip(), f"no prompt at version {version}"
        assert "#" not in table + events, f"a card by its id at {version}"
        if not self.keys:
            tops = await self.page.evaluate(TOPS)
            assert tops["mine"] < tops["board"], f"the board above the seat's area at {version}"
        self.steps += 1

    async def press(self, selector: str) -> None:
        """Tab (or Shift+Tab) to the control ``selector`` names, its focus ring showing,
        and press Enter on it (Space every other time). The control is waited for first:
        the page draws it once the version's legal moves are listed, after the view."""
        await self.page.locator(selector).first.wait_for(state="attached", timeout=WAIT)
        for _ in range(MAX_TABS):
            found = await self.page.evaluate(FOCUS, selector)
            assert found is not None, f"no control {selector}"
            if found["where"] == "here":
                assert found["ring"], f"{selector}: focus not visible"
                key = "Enter" if sum(self.pressed.values()) % 2 == 0 else "Space"
                await self.page.keyboard.press(key)
                self.pressed[key] += 1
                return
            await self.page.keyboard.press("Tab" if found["where"] == "forward" else "Shift+Tab")
        raise AssertionError(f"{selector} not reached in {MAX_TABS} tabs")

    async def make(self, move: game_pb2.Move, version: int) -> None:
        """The page's seat makes ``move`` (by taps or keys); wait until it is applied."""
        for selector in selectors(move):
            if self.keys:
                await self.press(selector)
            else:
                await self.page.locator(selector).click(timeout=WAIT)
        await self.page.wait_for_function(PAGE_MOVED_ON, arg=version, timeout=WAIT)

    async def others_move(self, view: game_pb2.View) -> None:
        for number in view.to_act:
            if number == self.me:
                continue
            seat = self.seats[number]
            seen, legal = await seat.view(), (await seat.legal_moves()).moves
            move = self.bots[number].choose(seen, legal, self.rng)
            if move is not None:
                await seat.submit(move)
                return
        raise AssertionError(f"nobody else moves at version {view.version}")

    async def axe_clean(self, when: str) -> None:
        self.axe[when] = await axe_problems(self.page)

    async def play(self) -> game_pb2.View:
        """The whole game, checked at every step; axe-core at the start, midway, the end."""
        me = self.seats[self.me]
        await self.axe_clean("at the start")
        while True:
            view = await me.view()
            await self.check(view.version)
            if view.HasField("outcome"):
                await self.axe_clean("at the end")
                return view
            if "midway" not in self.axe and view.pinched.day >= 3:
                await self.axe_clean("midway")
            legal = (await me.legal_moves()).moves if self.me in view.to_act else []
            if not legal:
                await self.others_move(view)
                continue
            move = self.bots[self.me].choose(view, legal, self.rng)
            assert move is not None
            await self.make(move, view.version)


async def _people(
    browser: Browser, served: Served, client: AsyncRefereeClient, viewport: ViewportSize
) -> tuple[People, BrowserContext]:
    created = await client.create_game("pinched", len(PEOPLE), names=PEOPLE, seed=b"people")
    seats = client.seats(created)
    me = 0
    context = await browser.new_context(viewport=viewport)
    page = await context.new_page()
    await page.goto(
        f"{console_url(served)}#/play/{created.game_id}/{created.seat_tokens[me].token}"
    )
    await expect(page.get_by_test_id("game-view")).to_have_attribute(
        "data-seat", str(me), timeout=WAIT
    )
    return People(page, seats, me), context


async def _the_end(people: People, view: game_pb2.View) -> None:
    """The outcome, the prompt and the score table name the players; nothing serious for axe."""
    page = people.page
    await expect(page.get_by_test_id("outcome")).to_be_visible(timeout=WAIT)
    winners = [PEOPLE[seat] for seat in view.outcome.winners]
    await expect(page.get_by_test_id("prompt")).to_contain_text("The game is over")
    for name in winners:
        await expect(page.get_by_test_id("prompt")).to_contain_text(name)
    rows = await page.get_by_test_id("score-row").all_inner_texts()
    assert sorted(row.split()[0] for row in rows) == sorted(PEOPLE), rows
    assert people.axe == {"at the start": [], "midway": [], "at the end": []}, people.axe


async def test_a_two_seat_game_of_pinched_by_taps_on_a_phone(
    served: Served, browser: Browser, tmp_path: Path
) -> None:
    async with AsyncRefereeClient(served.grpc) as client:
        people, context = await _people(browser, served, client, PHONE_SIZE)
        # The first phase depends on the deal (a location to choose, or a card to store).
        await expect(people.page.get_by_test_id("prompt")).to_be_visible(timeout=WAIT)
        shot = screenshot_dir(tmp_path) / "seat-pinched-phone-start.png"
        await save_screenshot(people.page, shot)
        view = await people.play()
        await _the_end(people, view)
        # In Dutch: Gekraakt!'s own words, and no key the catalogue lacks.
        await people.page.get_by_test_id("language").select_option("nl")
        await expect(people.page.get_by_test_id("prompt")).to_contain_text("Het spel is voorbij")
        await expect(people.page.get_by_test_id("scores")).to_contain_text("Inbreker")
        assert "⟦" not in await people.page.locator("body").inner_text()
        await save_screenshot(people.page, shot.with_name("seat-pinched-phone-nl.png"))
        await context.close()
    assert people.steps > 20


async def test_a_two_seat_game_of_pinched_by_the_keyboard_alone(
    served: Served, browser: Browser
) -> None:
    async with AsyncRefereeClient(served.grpc) as client:
        people, context = await _people(browser, served, client, DESKTOP_SIZE)
        people.keys = True
        view = await people.play()
        await _the_end(people, view)
        await context.close()
    assert people.pressed["Enter"] and people.pressed["Space"], people.pressed
