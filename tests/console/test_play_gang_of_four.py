"""Gang of Four on the seat page (`#/play/<id>/<token>`): whole games by clicks on a phone
and by keyboard alone.

"A whole game" is a whole game, to its end: Gang of Four has no shorter-game option (the
game ends after the hand in which a total reaches 100, docs/rules/gang_of_four.md
"Scoring and the end"; GangOfFourOptions holds only `auto_announce_last_card`), and none is
needed: seat 0 plays every hand on the page, the test plays the other seats through the
API, meekly (a pass whenever one is listed, else the first listed single), so that seat 0
wins the hands and the game is over after two, exchange included, in seconds. The deal is
fixed (a client seed): the same game every run. The table is created with names (Ann, Bo,
Cy, Di).

Checked, in both games: at every version the page shows (each move of the others and each
of its own), its prompt says what seat 0 may do now (naming whom it waits on, and at the
end who won), every seat is named by its name and no seat by its number, and no key is
missing from the catalogue; axe-core finds no serious or critical violation at the start,
mid-game (cards picked) and at the end.

By clicks, at 390 px: every kind of move (the oneof of GangOfFourMove) made by a click,
among them plays of several combinations and a last card announced; at every version the
page shows, its `data-card` keys equal the cards of seat 0's own view at that version;
every request the page sends carries seat 0's token and no other, as `authorization`, never
in a URL; screenshots at 1280x800 and 390x844, no horizontal scroll and no small control at
390 px.

By keyboard, in German: no click at all; Tab reaches the hand, the arrow keys move along
it, Space picks a card (it says so by `aria-pressed`, and its accessible name is the card's
name), Tab and Enter reach and press "Letzte Karte!", "Ausspielen", "Passen",
"Zurückgeben"; the focused control always shows its focus; after each move the focus comes
back to the hand at the seat's next turn.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page, expect

from referee.client import AsyncRefereeClient, AsyncSeat
from referee.v1 import game_pb2, gang_of_four_pb2, referee_pb2, referee_pb2_grpc
from tests.console.support import (
    DESKTOP,
    PHONE,
    Sent,
    axe_problems,
    card_key,
    cards_in,
    console_url,
    grpc_channel,
    phone_problems,
    save_screenshot,
    screenshot_dir,
    view_at,
)
from tests.servers import Served

G = gang_of_four_pb2
SEATS = 4
ME = 0  # the seat played on the page
NAMES = ["Ann", "Bo", "Cy", "Di"]
SEED = b"seat-gang-of-four-53"  # six kinds of combination in two hands
WAIT = 30_000  # ms: the longest wait for the page
MOST_VERSIONS = 600  # a meek table's game is far shorter; a bound, not a target
MOST_TABS = 60  # Tab presses to reach a control: more means it is out of reach
# The kinds of move, as the page names them (`data-move-kind`: the oneof case, camelCase).
KINDS = {f.json_name for f in G.GangOfFourMove.DESCRIPTOR.oneofs_by_name["action"].fields}
# A seat named by its number, in any of the three languages ("seat 2", "Platz 2", "stoel 2").
SEAT_NUMBER = re.compile(r"\b(seat|sitz|platz|stoel|plaats)\s*\d", re.IGNORECASE)

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

# What the page says at `version` (it waits for the page to draw it), read in one go: the
# prompt, the seats' labels, and the text of the seat drawing, the prompt and the log.
SAID = """async (version) => {
  const drawn = () => Number(document.querySelector('[data-testid="game-view"]')
    ?.getAttribute('data-version') ?? -1);
  const end = Date.now() + 30000;
  while (drawn() < version && Date.now() < end) await new Promise((done) => setTimeout(done, 10));
  const text = (id) => document.querySelector(`[data-testid="${id}"]`)?.innerText ?? '';
  return {
    version: drawn(),
    prompt: text('prompt').trim(),
    labels: [...document.querySelectorAll('[data-testid="gof-seat"] [data-testid="seat-label"]')]
      .map((label) => label.textContent.trim()).sort(),
    text: ['gof-seat', 'prompt', 'event-log'].map(text).join('\\n'),
  };
}"""

# The focused element, as the keyboard tests see it.
FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  return {
    testid: el.getAttribute('data-testid') ?? '',
    index: el.getAttribute('data-index'),
    card: el.querySelector('[data-card]')?.getAttribute('data-card') ?? '',
    pressed: el.getAttribute('aria-pressed'),
    name: (el.querySelector('.sr-only') ?? el).textContent.trim(),
    shown: el.matches(':focus-visible') && style.outlineStyle !== 'none'
      && parseFloat(style.outlineWidth) > 0,
  };
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


def _pick_selector(card: G.GangOfFourCard) -> str:
    """An unpicked card of seat 0's hand that is ``card``."""
    return f"[data-testid=pick][aria-pressed=false]:has([data-card='{card_key(card)}'])"


# A card's name, as the page gives it to screen readers, in English and German.
COLOURS = {
    "en": {G.GANG_OF_FOUR_COLOUR_GREEN: "green", G.GANG_OF_FOUR_COLOUR_YELLOW: "yellow",
           G.GANG_OF_FOUR_COLOUR_RED: "red"},
    "de": {G.GANG_OF_FOUR_COLOUR_GREEN: "grün", G.GANG_OF_FOUR_COLOUR_YELLOW: "gelb",
           G.GANG_OF_FOUR_COLOUR_RED: "rot"},
}  # fmt: skip
SPECIAL = {
    "en": {"multi": "multicoloured 1", "dragon": "Dragon", "phoenix": "{colour} Phoenix",
           "number": "{colour} {value}"},
    "de": {"multi": "mehrfarbige Eins", "dragon": "Drache", "phoenix": "{colour}er Phönix",
           "number": "{colour}e {value}"},
}  # fmt: skip


def card_name(card: G.GangOfFourCard, lang: str) -> str:
    """The card's name: "green 5", "yellow Phoenix", "Dragon"; "grüne 5", "Drache"."""
    words = SPECIAL[lang]
    if card.colour == G.GANG_OF_FOUR_COLOUR_MULTICOLOURED:
        return words["multi"]
    if card.value == 12:
        return words["dragon"]
    form = words["phoenix"] if card.value == 11 else words["number"]
    return form.format(colour=COLOURS[lang][card.colour], value=card.value)


@dataclass
class Player:
    """Seat 0's choices, made on the page: the first listed give-back; a pass the first time
    one is listed (and whenever nothing else is); a play that leaves one card, announced,
    the first time one is listed; else its largest listed play (announced where the list
    has it both ways). How a choice is made (clicks, keys) is the subclass's."""

    page: Page
    made: list[str] = field(default_factory=list)  # the kinds of move seat 0 made
    announced: int = 0
    acted_at: list[int] = field(default_factory=list)  # versions where seat 0 moved
    mid_game: list[str] | None = None  # axe-core's findings with the first cards picked
    your_move: str | None = None  # what the page's turn line says to seat 0, if checked
    announce_now: str = "Announce your last card"  # the prompt once such a play is picked

    def choose(self, moves: list[game_pb2.Move]) -> game_pb2.Move:
        by_kind: dict[str, list[game_pb2.Move]] = {}
        for move in moves:
            by_kind.setdefault(_action(move), []).append(move)
        if "give_back" in by_kind:
            return by_kind["give_back"][0]
        plays = by_kind.get("play", [])
        if "pass" in by_kind and ("pass" not in self.made or not plays):
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
            await self.pick(card)
        if action == "give_back":
            await self._press("give-back", "giveBack")
            return
        play = self.page.get_by_test_id("play")
        await expect(play).to_be_enabled()
        if move.gang_of_four.play.announce_last_card:
            await expect(self.page.get_by_test_id("prompt")).to_contain_text(self.announce_now)
            await self.press("announce")
            await expect(self.page.get_by_test_id("announce")).to_have_attribute(
                "aria-pressed", "true"
            )
            self.announced += 1
        want = str(move.gang_of_four.play.announce_last_card).lower()
        await expect(play).to_have_attribute("data-announce", want)
        if len(cards) > 1 and self.mid_game is None:
            await self.picked()
        await self._press("play", "play")

    async def picked(self) -> None:
        """Cards are picked for the first play of several cards: the page mid-game."""
        self.mid_game = await axe_problems(self.page)

    async def _press(self, testid: str, kind: str) -> None:
        button = self.page.get_by_test_id(testid)
        await expect(button).to_be_enabled()
        assert await button.get_attribute("data-move-kind") == kind
        self.made.append(kind)
        await self.press(testid)

    async def pick(self, card: G.GangOfFourCard) -> None:
        raise NotImplementedError

    async def press(self, testid: str) -> None:
        raise NotImplementedError


@dataclass
class Clicker(Player):
    """Seat 0 by clicks; with ``shots``, screenshots with the first cards picked."""

    shots: Path | None = None
    on_phone: list[str] | None = None

    async def pick(self, card: G.GangOfFourCard) -> None:
        """By the card's accessible name (a button, not yet pressed)."""
        name = card_name(card, "en")
        await self.page.get_by_role("button", name=name, exact=True, pressed=False).first.click()

    async def press(self, testid: str) -> None:
        await self.page.get_by_test_id(testid).click()

    async def picked(self) -> None:
        await super().picked()
        if self.shots is not None:
            self.on_phone = await _screenshots(self.page, self.shots)


@dataclass
class Typist(Player):
    """Seat 0 by keyboard alone: Tab into the hand, arrows along it, Space to pick, Tab to
    a button and Enter to press it. Checks each focused control shows its focus."""

    tabs: list[int] = field(default_factory=list)  # Tab presses to reach each control
    picked_at: int = -1  # the version at which the last card was picked

    async def focus(self) -> dict[str, Any] | None:
        """The focused control, which must show its focus; None when nothing has it."""
        found: dict[str, Any] | None = await self.page.evaluate(FOCUS)
        if found is not None:
            assert found["shown"], f"no visible focus on {found}"
        return found

    async def tab_to(self, testid: str) -> dict[str, Any]:
        # Drawn once the version's legal moves are listed (after the view): wait for it.
        await self.page.get_by_test_id(testid).first.wait_for(state="attached")
        for tabs in range(MOST_TABS):
            found = await self.focus()
            if found is not None and found["testid"] == testid:
                self.tabs.append(tabs)
                return found
            await self.page.keyboard.press("Tab")
        raise AssertionError(f"{testid} is not reachable by Tab")

    async def pick(self, card: G.GangOfFourCard) -> None:
        target = await self.page.locator(_pick_selector(card)).first.get_attribute("data-index")
        first = self.picked_at != self.acted_at[-1]  # the move's first card
        self.picked_at = self.acted_at[-1]
        at = await self.tab_to("pick")
        if first and len(self.acted_at) > 1:
            assert self.tabs[-1] == 0, "the focus is back in the hand at the seat's turn"
        order: list[str] = await self.page.evaluate(
            "() => [...document.querySelectorAll('[data-testid=pick]:not(:disabled)')]"
            ".map((pick) => pick.getAttribute('data-index'))"
        )
        steps = order.index(str(target)) - order.index(str(at["index"]))
        for _ in range(abs(steps)):
            await self.page.keyboard.press("ArrowRight" if steps > 0 else "ArrowLeft")
        found = await self.focus()
        assert found is not None and found["card"] == card_key(card), found
        assert found["pressed"] == "false" and found["name"] == card_name(card, "de"), found
        await self.page.keyboard.press("Space")
        picked = self.page.locator(f"[data-testid=pick][data-index='{target}']")
        await expect(picked).to_have_attribute("aria-pressed", "true")

    async def press(self, testid: str) -> None:
        await self.tab_to(testid)
        await self.page.keyboard.press("Enter")


async def _screenshots(page: Page, shots: Path) -> list[str]:
    """The seat page mid-hand with cards picked, at 1280x800 and 390x844 (where the test
    plays); what keeps it from being usable on the phone (asserted once the game is over,
    so that it hides nothing else)."""
    await page.set_viewport_size(DESKTOP)
    await save_screenshot(page, shots / "seat-gang_of_four.png", full_page=True)
    await page.set_viewport_size(PHONE)
    problems = await phone_problems(page)
    await save_screenshot(page, shots / "seat-gang_of_four-phone.png", full_page=True)
    return problems


async def _says(page: Page, view: game_pb2.View) -> None:
    """The page at ``view``'s version: its prompt says what seat 0 may do, naming whom the
    table waits on or who won; seats by their names, none by its number, no missing key."""
    said = await page.evaluate(SAID, view.version)
    assert said["version"] == view.version, "the page is ahead of the test"
    prompt = said["prompt"]
    assert prompt, f"no prompt at version {view.version}"
    assert said["labels"] == sorted(NAMES), said["labels"]
    assert not SEAT_NUMBER.search(said["text"]), said["text"]
    assert "⟦" not in said["text"], said["text"]
    g = view.gang_of_four
    if view.HasField("outcome"):
        assert all(NAMES[n] in prompt for n in view.outcome.winners), prompt
    elif ME not in view.to_act:
        assert NAMES[view.to_act[0]] in prompt, prompt  # waiting for whom
    elif g.phase == G.GANG_OF_FOUR_PHASE_EXCHANGE:
        assert NAMES[g.exchange.loser] in prompt, prompt  # the card goes back to whom
    elif g.current:
        assert NAMES[g.current_by] in prompt, prompt  # whose play to beat


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


async def _play(page: Page, seats: list[AsyncSeat], player: Player) -> game_pb2.View:
    """Seat 0 on the page, the others by the API, until the game is over; what the page
    says is checked at every version."""
    drawing = page.get_by_test_id("gof-seat")
    for _ in range(MOST_VERSIONS):
        view = await seats[ME].view()
        await _says(page, view)
        if view.HasField("outcome"):
            return view
        (seat,) = view.to_act
        if seat != ME:
            other = await seats[seat].legal_moves()
            await seats[seat].submit(_meek(list(other.moves)), expected_version=other.version)
            continue
        await expect(drawing).not_to_have_attribute("data-legal", "0", timeout=WAIT)
        if player.your_move is not None:
            await expect(page.get_by_test_id("turn")).to_have_text(player.your_move)
        legal = await seats[ME].legal_moves()
        assert legal.version == view.version
        player.acted_at.append(view.version)
        await player.make(player.choose(list(legal.moves)))
        await page.wait_for_function(
            "(v) => Number(document.querySelector('[data-testid=game-view]')"
            "?.getAttribute('data-version')) > v",
            arg=view.version,
            timeout=WAIT,
        )
    raise AssertionError(f"no end within {MOST_VERSIONS} versions")


async def _table(
    client: AsyncRefereeClient,
) -> tuple[referee_pb2.CreateGameResponse, list[AsyncSeat]]:
    created = await client.create_game(
        "gang_of_four", SEATS, allow_spectators=True, seed=SEED, names=NAMES
    )
    return created, client.seats(created)


def _over(final: game_pb2.View, player: Player) -> None:
    """The game is over, and seat 0 made every kind of move on the page."""
    assert final.gang_of_four.phase == G.GANG_OF_FOUR_PHASE_OVER
    assert max(final.gang_of_four.totals) >= 100
    assert set(player.made) == KINDS, "every kind of move made on the page"
    assert player.announced, "a last card announced on the page"
    assert player.mid_game == [], "axe-core mid-game"


def _check_sent(sent: Sent, mine: str, others: list[str]) -> None:
    """The page sent its seat's token, no other, and in no URL."""
    assert sent.tokens == {mine}, f"the page sent {sent.tokens}"
    sent.no_token_in_a_url([mine, *others])


async def test_a_whole_game_by_clicks_on_a_phone(
    served: Served, browser: Browser, tmp_path: Path
) -> None:
    async with AsyncRefereeClient(served.grpc) as client:
        created, seats = await _table(client)
        dealt = await seats[ME].view()
        tokens = [seat.token for seat in created.seat_tokens]
        context = await browser.new_context(viewport=PHONE, locale="en-GB")
        page = await context.new_page()
        sent = Sent()
        sent.follow(page)
        await page.add_init_script(f"({RECORD})()")
        await page.goto(f"{console_url(served)}#/play/{created.game_id}/{tokens[ME]}")
        await expect(page.get_by_test_id("game-view")).to_have_attribute(
            "data-seat", str(ME), timeout=WAIT
        )
        assert await axe_problems(page) == [], "axe-core at the start"
        clicker = Clicker(page, your_move="Your move", shots=screenshot_dir(tmp_path))
        final = await _play(page, seats, clicker)

        await expect(page.get_by_test_id("outcome")).to_be_visible()
        assert await axe_problems(page) == [], "axe-core at the end"
        _over(final, clicker)
        assert len(await _combinations(seats[ME])) >= 4, "plays of several combinations"
        shown = await _drawn_matches_views(page, served, created.game_id, tokens[ME], dealt)
        assert {*clicker.acted_at, final.version} <= shown
        _check_sent(sent, tokens[ME], [*tokens[1:], created.admin_token])
        await context.close()
        assert clicker.on_phone == [], "usable at 390 px"


async def test_a_whole_game_by_keyboard_alone(served: Served, browser: Browser) -> None:
    async with AsyncRefereeClient(served.grpc) as client:
        created, seats = await _table(client)
        token = created.seat_tokens[ME].token
        context = await browser.new_context(viewport=DESKTOP, locale="de-DE")
        page = await context.new_page()
        await page.goto(f"{console_url(served)}#/play/{created.game_id}/{token}")
        await expect(page.get_by_test_id("game-view")).to_have_attribute(
            "data-seat", str(ME), timeout=WAIT
        )
        await expect(page.get_by_test_id("prompt")).to_contain_text("Warten, bis Bo ausspielt")
        assert await axe_problems(page) == [], "axe-core at the start"
        typist = Typist(page, announce_now="Sag deine letzte Karte an")
        final = await _play(page, seats, typist)

        await expect(page.get_by_test_id("prompt")).to_contain_text("Das Spiel ist aus")
        assert await axe_problems(page) == [], "axe-core at the end"
        _over(final, typist)
        await context.close()
