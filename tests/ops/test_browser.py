"""The pages in a real headless Chromium against gunicorn: the play page through a whole hand,
and both docs pages rendering every operation, all under the service's Content-Security-Policy
with nothing in the console."""

from __future__ import annotations

import os
import pathlib

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.ops.browser import console_errors, headless_chromium, require_chromium
from tests.ops.gunicorn_server import GunicornServer

TIMEOUT = 120  # seconds: a loaded machine renders slowly
# Where the mid-game screenshots go, play-1280.png and play-390.png (a temporary directory
# unless set): CRIBBAGE_SCREENSHOTS=/tmp pytest tests/ops/test_browser.py -k whole_hand
SCREENSHOTS = "CRIBBAGE_SCREENSHOTS"


@pytest.fixture(scope="module")
def server():
    running = GunicornServer(workers=1).start()  # one worker: the embedded store is per process
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def browser():
    try:
        require_chromium()
    except RuntimeError as missing:
        pytest.fail(str(missing), pytrace=False)
    driver = headless_chromium()
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(browser, condition, what: str):
    """Poll `condition` until it is true; an element the page re-rendered meanwhile (stale) is
    read again at the next poll."""
    return WebDriverWait(browser, TIMEOUT, poll_frequency=0.2,
                         ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda _: condition(), message=f"waited {TIMEOUT} s for {what}")


def page_state(browser) -> dict:
    main = browser.find_element(By.ID, "main")
    return {name: main.get_attribute(f"data-{name}")
            for name in ("version", "phase", "turn", "hand-number")}


def visible(browser, element_id: str):
    found = browser.find_elements(By.ID, element_id)
    return found[0] if found and found[0].is_displayed() and found[0].is_enabled() else None


def enabled_cards(browser) -> list:
    return [button for button in browser.find_elements(By.CSS_SELECTOR, "#hand button.card")
            if button.is_enabled()]


def shown_entries(browser) -> list:
    return browser.find_elements(By.CSS_SELECTOR, '.show-entry[data-hand-number="1"]')


def shown_cards(browser, index: int) -> tuple[str, list[str]]:
    """A show entry's kind (hand or crib) and its cards, hand then starter."""
    entry = shown_entries(browser)[index]
    return entry.get_attribute("data-hand"), [
        figure.get_attribute("data-card")
        for figure in entry.find_elements(By.CSS_SELECTOR, "figure")]


def first_hand_shown(browser) -> bool:
    return len(shown_entries(browser)) == 3


def take_one_step(browser, last_hand: int) -> None:
    """Whatever the page asks of the person now: cut, discard two cards, or play a card."""
    state = page_state(browser)
    cut = visible(browser, "cut")
    if cut:
        cut.click()
        wait_for(browser, lambda: page_state(browser) != state, "the cut to be taken")
        return
    if state["turn"] != "you" or int(state["hand-number"] or 0) > last_hand:
        return
    cards = enabled_cards(browser)
    if state["phase"] == "discard" and len(cards) == 6:
        for card in cards[:2]:
            card.click()
        assert [card.get_attribute("aria-pressed") for card in cards] == \
            ["true", "true", "false", "false", "false", "false"]
        browser.find_element(By.ID, "discard").click()
        wait_for(browser, lambda: page_state(browser) != state, "the discard to be taken")
    elif state["phase"] == "play" and cards:
        cards[0].click()
        wait_for(browser, lambda: page_state(browser) != state, "the card to be played")


SYMBOLS = {"H": "\u2665", "D": "\u2666", "C": "\u2663", "S": "\u2660"}
# What the page says, by language, with the seats' names filled in.
SAID = {
    "en": {"names": ("Ana", "Computer (Easy)"), "plays": "{name} plays {card}",
           "cuts": "{name} cuts {card}.", "deals": "{name} cut the lower card and deals.",
           "tie": "A tie: cut again.",
           "starter": "Starter: {card}, cut by {name}.", "count": "Count: {count}",
           "restarted": "The count starts again.",
           "cribs": ("The crib is yours.", "The crib is Computer (Easy)'s.")},
    "es": {"names": ("Ana", "Computadora (Fácil)"), "plays": "{name} juega {card}",
           "cuts": "{name} corta {card}.", "deals": "{name} cortó la carta más baja y reparte.",
           "tie": "Empate: se corta otra vez.",
           "starter": "Carta de corte: {card}, la cortó {name}.", "count": "Cuenta: {count}",
           "restarted": "La cuenta vuelve a empezar.",
           "cribs": ("La cuna es suya.", "La cuna es de Computadora (Fácil).")},
}


def symbol(card: str) -> str:
    return card[:-1] + SYMBOLS[card[-1]]


def figures(browser, container: str) -> list[tuple[str, str, bool]]:
    """The cards shown in a container: (card, seat, dimmed)."""
    return [(figure.get_attribute("data-card"), figure.get_attribute("data-seat"),
             "ended" in figure.get_attribute("class").split())
            for figure in browser.find_elements(By.CSS_SELECTOR, f"#{container} figure")]


def text_of(browser, selector: str) -> str:
    return browser.find_element(By.CSS_SELECTOR, selector).get_attribute("textContent")


class TableChecks:
    """While the game waits for the person, what the page shows against the game as the API
    tells it to a spectator: the board's scores, the cuts, the count's cards and the last card
    played. `seen` names the checks that have met their case, `position` what the last check
    found."""

    def __init__(self, server, browser, game_id: str):
        self.server, self.browser, self.game_id = server, browser, game_id
        self.seen: set[str] = set()
        self.position: dict = {}

    def settled_view(self) -> dict | None:
        """The game's view when the page shows its latest version and the game waits for the
        person (nothing can change meanwhile); else None."""
        status, _, game = self.server.request("GET", f"/v1/games/{self.game_id}")
        assert status == 200
        waiting = 0 in game["view"]["to_act"] and game["view"]["phase"] != "game_over"
        if not waiting or page_state(self.browser)["version"] != str(game["version"]):
            return None
        return game["view"]

    def check(self, language: str) -> bool:
        self.position = {}
        view = self.settled_view()
        if view is None:
            return False
        self.position["scored"] = any(view["scores"])
        said = SAID[language]
        self.check_board(view)
        if view["phase"] == "cut_for_deal":
            self.check_cutting(view, said)
        elif view["starter"]:
            self.check_starter(view, said)
        elif view["hand_number"] == 1 and view["phase"] == "discard":
            self.check_deal_cut(said)
        if view["phase"] == "play":
            self.check_table(view, said)
        return True

    def check_board(self, view: dict) -> None:
        """Each side's score in figures, on its front peg and beside it; its back peg at the
        score before its last points (from the events, which may follow the game's body)."""
        for side, score in enumerate(view["scores"]):
            assert text_of(self.browser, f'#scores li[data-side="{side}"] .points') == str(score)
            assert self.peg(side, "front") == str(score)
            assert text_of(self.browser, f'#board [data-score-label="{side}"]') == str(score)
        events = self.events()
        for side, score in enumerate(view["scores"]):
            had = sorted({0} | {event["scores"][side] for event in events if "scores" in event})
            assert had[-1] == score
            back = str(had[-2]) if len(had) > 1 else "0"
            wait_for(self.browser, lambda side=side, back=back: self.peg(side, "back") == back,
                     f"side {side}'s back peg at {back}")
        if any(view["scores"]):
            self.seen.add("board")

    def peg(self, side: int, which: str) -> str:
        return self.browser.find_element(
            By.CSS_SELECTOR, f'#board [data-peg="{which}"][data-side="{side}"]').get_attribute(
                "data-score")

    def check_cutting(self, view: dict, said: dict) -> None:
        """The cards cut so far for the deal: the computer may have cut first."""
        cut = [(card, str(seat), False)
               for seat, card in enumerate(view["cut_for_deal"]["cards"]) if card]
        assert figures(self.browser, "cuts") == cut
        assert text_of(self.browser, "#cut-line") == " ".join(
            said["cuts"].format(name=said["names"][int(seat)], card=symbol(card))
            for card, seat, _ in cut)
        self.seen.add("cutting")

    def check_deal_cut(self, said: dict) -> None:
        """The cut comes with the stream's events, which may follow the game's body."""
        result = [event for event in self.events() if event["type"] == "cut_result"][-1]
        names = said["names"]
        cards = [(card, str(seat), False) for seat, card in enumerate(result["cards"])]
        line = " ".join([said["cuts"].format(name=names[seat], card=symbol(card))
                         for seat, card in enumerate(result["cards"])] +
                        [said["deals"].format(name=names[result["dealer"]])])
        wait_for(self.browser, lambda: figures(self.browser, "cuts") == cards and
                 text_of(self.browser, "#cut-line") == line, f"the cut for the deal: {line}")
        self.seen.add("deal_cut")

    def events(self) -> list[dict]:
        status, _, page = self.server.request("GET", f"/v1/games/{self.game_id}/events?after=0")
        assert status == 200
        return page["events"]

    def check_starter(self, view: dict, said: dict) -> None:
        cutter = view["starter_cutter"]
        assert figures(self.browser, "cuts") == [(view["starter"], str(cutter), False)]
        assert text_of(self.browser, "#cut-line") == said["starter"].format(
            card=symbol(view["starter"]), name=said["names"][cutter])
        self.seen.add("starter")

    def check_table(self, view: dict, said: dict) -> None:
        """The count's cards; between a reset and the next card the ended count's, dimmed."""
        current, ended, last = [], [], None
        for event in view["history"]:
            if event["type"] == "card_played":
                current.append((event["card"], str(event["seat"])))
                last = event
            elif event["type"] == "count_reset":
                current, ended = [], current
        shown = figures(self.browser, "table")
        count = said["count"].format(count=view["count"])
        assert text_of(self.browser, "#table-facts") == " · ".join(
            [count] + ([] if current or not ended else [said["restarted"]]) +
            [said["cribs"][view["crib_owner"]]])
        if current:
            assert shown == [(card, seat, False) for card, seat in current]
            if ended:
                assert not {card for card, _ in ended} & {card for card, _, _ in shown}
                self.seen.add("reset")
        else:
            assert shown == [(card, seat, True) for card, seat in ended]
        if last and last["seat"] == 1 and current and current[-1][0] == last["card"]:
            assert text_of(self.browser, "#announce") == said["plays"].format(
                name=said["names"][1], card=symbol(last["card"]))
            just_played = self.browser.find_element(
                By.CSS_SELECTOR, f'#table figure[data-card="{last["card"]}"]')
            assert "just-played" in just_played.get_attribute("class").split()
            self.seen.add("computer_card")
            self.position["computer_card"] = True


def opening_lines(events: list[dict], said: dict) -> list[str]:
    """The log's lines for the cut for the deal, up to the deal."""
    lines = []
    for event in events:
        if event["type"] == "dealt":
            return lines
        if event["type"] == "dealer_cut":
            lines.append(said["cuts"].format(name=said["names"][event["seat"]],
                                             card=symbol(event["card"])))
        elif event["type"] == "cut_result":
            lines.append(said["tie"] if event["dealer"] is None else
                         said["deals"].format(name=said["names"][event["dealer"]]))
    return lines


DESKTOP, PHONE = 1280, 390


def show_at_width(browser, width: int, full_height: bool = False) -> None:
    """The page as a window `width` pixels wide (a phone's below 600), as tall as the page when
    `full_height` (for a screenshot of all of it)."""
    metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    if full_height:
        metrics["height"] = browser.execute_script(
            "return document.documentElement.scrollHeight")
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def page_width(browser) -> tuple[int, int]:
    """(the window's width, the document's): the document is no wider when nothing is cut off
    and nothing scrolls sideways."""
    return tuple(browser.execute_script(
        "return [window.innerWidth, document.documentElement.scrollWidth]"))


def card_animation(browser, reduced_motion: bool) -> str:
    """The animation of the card just played, with motion reduced or not."""
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-reduced-motion", "value": "reduce" if reduced_motion else ""}]})
    return browser.execute_script("return getComputedStyle(document.querySelector("
                                  "'#table figure.just-played svg')).animationName")


def check_widths_and_shoot(browser, directory: pathlib.Path) -> None:
    show_at_width(browser, PHONE, full_height=True)
    assert page_width(browser) == (PHONE, PHONE)
    browser.save_screenshot(str(directory / f"play-{PHONE}.png"))
    show_at_width(browser, DESKTOP, full_height=True)
    assert page_width(browser) == (DESKTOP, DESKTOP)
    browser.save_screenshot(str(directory / f"play-{DESKTOP}.png"))
    show_at_width(browser, DESKTOP)


def test_a_person_plays_a_whole_hand_against_the_computer(server, browser, tmp_path):
    shots = pathlib.Path(os.environ.get(SCREENSHOTS, tmp_path))
    for width in (DESKTOP, PHONE):
        (shots / f"play-{width}.png").unlink(missing_ok=True)
    show_at_width(browser, DESKTOP)
    browser.get(server.url + "/play")
    wait_for(browser, lambda: browser.find_element(By.ID, "main").get_attribute("data-ready"),
             "the page to load its texts and levels")
    levels = [option.get_attribute("value")
              for option in browser.find_elements(By.CSS_SELECTOR, "#level option")]
    assert levels == ["first", "easy", "medium", "hard"]  # weakest first
    browser.find_element(By.CSS_SELECTOR, '#level option[value="easy"]').click()
    browser.find_element(By.ID, "name").send_keys("Ana")
    browser.find_element(By.ID, "start").click()
    game_id = wait_for(browser, lambda: browser.find_element(By.ID, "main").get_attribute(
        "data-game-id"), "the game to be created")
    checks = TableChecks(server, browser, game_id)
    language = "en"
    shot = False

    def step_until_shown():
        """In English until the computer's first card is announced, in Spanish after; the
        screenshots at the first computer's card with points on the board; hand 2 too if
        hand 1 had no count reset."""
        nonlocal language, shot
        checks.check(language)
        if not shot and checks.position.get("computer_card") and checks.position["scored"]:
            check_widths_and_shoot(browser, shots)
            shot = True
        if checks.position.get("computer_card"):
            assert (card_animation(browser, False), card_animation(browser, True)) == \
                ("arrive", "none")
            card_animation(browser, False)
        if language == "en" and checks.position.get("computer_card"):
            language = "es"
            select_language(browser, language)
            assert checks.check(language)  # the same position, said in Spanish
        take_one_step(browser, last_hand=1 if "reset" in checks.seen else 2)
        return first_hand_shown(browser) and "reset" in checks.seen
    wait_for(browser, step_until_shown, "a whole hand: cut, discard, cut, play and show")
    assert checks.seen == {"cutting", "board", "deal_cut", "starter", "reset", "computer_card"}
    if not shot:  # no points yet whenever the computer's card was announced
        check_widths_and_shoot(browser, shots)

    hand = browser.find_elements(By.CSS_SELECTOR, "#hand button.card")
    assert hand and all(button.get_attribute("aria-label").count(" de ") == 1
                        for button in hand)  # "cinco de corazones"
    # The non-dealer shows first, then the dealer's hand, then the dealer's crib.
    assert [entry.get_attribute("data-hand") for entry in shown_entries(browser)] == \
        ["hand", "hand", "crib"]
    for language, points, opponent in (("es", "puntos", "Computadora (Fácil)"),
                                       ("en", "points", "Computer (Easy)")):
        select_language(browser, language)
        assert opponent in browser.find_element(By.ID, "opponent-title").text
        for index in range(3):
            kind, cards = wait_for(browser, lambda index=index: shown_cards(browser, index),
                                   "the shown cards")
            status, _, scored = server.request(
                "POST", "/v1/show/score",
                {"hand": cards[:4], "starter": cards[4], "crib": kind == "crib"},
                headers={"Accept-Language": language})
            assert status == 200
            def summary_shown(index=index, said=scored["summary"]):
                return shown_entries(browser)[index].find_element(
                    By.CSS_SELECTOR, ".summary").text == said
            wait_for(browser, summary_shown, f"the count in words: {scored['summary']}")
            assert shown_entries(browser)[index].find_element(
                By.CSS_SELECTOR, "p").text.endswith(f": {scored['total']} {points}")
    show_at_width(browser, PHONE)
    assert page_width(browser) == (PHONE, PHONE)  # the shows fit a phone too
    show_at_width(browser, DESKTOP)
    lines = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#log li")]
    opening = opening_lines(checks.events(), SAID["en"])
    assert lines[:len(opening)] == opening
    assert any(line.startswith("Ana plays ") for line in lines)
    assert any(line.startswith("Computer (Easy) plays ") for line in lines)
    assert browser.find_element(By.CSS_SELECTOR, "#board svg").get_attribute(
        "aria-label").startswith("Pegging board: Ana ")
    assert console_errors(browser) == []


def select_language(browser, language: str) -> None:
    browser.find_element(By.CSS_SELECTOR, f'#language option[value="{language}"]').click()
    wait_for(browser, lambda: browser.execute_script("return document.documentElement.lang")
             == language, f"the page in {language}")


def operation_ids(server) -> list[str]:
    status, _, spec = server.request("GET", "/openapi.json")
    assert status == 200
    return sorted(operation["operationId"] for path in spec["paths"].values()
                  for operation in path.values() if isinstance(operation, dict))


def test_swagger_ui_renders_every_operation_offline(server, browser):
    expected = operation_ids(server)
    browser.get(server.url + "/docs")
    wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, ".opblock"))
             == len(expected), "every operation")
    assert browser.find_element(By.CSS_SELECTOR, ".info .title").text.startswith(
        "Cribbage service")
    assert console_errors(browser) == []


def test_redoc_renders_every_operation_offline(server, browser):
    expected = operation_ids(server)
    browser.get(server.url + "/docs/redoc")

    def rendered() -> list[str]:
        return sorted(element.get_attribute("data-section-id").split("/")[-1]
                      for element in browser.find_elements(
                          By.CSS_SELECTOR, '[data-section-id^="operation/"]'))
    wait_for(browser, lambda: rendered() == expected, "every operation")
    assert console_errors(browser) == []
