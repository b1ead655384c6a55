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
# Where the mid-game screenshot goes (a temporary directory unless set).
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


def take_one_step(browser) -> None:
    """Whatever the page asks of the person now: cut, discard two cards, or play a card."""
    state = page_state(browser)
    cut = visible(browser, "cut")
    if cut:
        cut.click()
        wait_for(browser, lambda: page_state(browser) != state, "the cut to be taken")
        return
    if state["turn"] != "you" or state["hand-number"] != "1":
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


def test_a_person_plays_a_whole_hand_against_the_computer(server, browser, tmp_path):
    screenshot = pathlib.Path(os.environ.get(SCREENSHOTS, tmp_path)) / "play-mid-game.png"
    screenshot.unlink(missing_ok=True)
    browser.get(server.url + "/play")
    wait_for(browser, lambda: browser.find_element(By.ID, "main").get_attribute("data-ready"),
             "the page to load its texts and levels")
    levels = [option.get_attribute("value")
              for option in browser.find_elements(By.CSS_SELECTOR, "#level option")]
    assert levels == ["first", "easy", "medium", "hard"]  # weakest first
    browser.find_element(By.CSS_SELECTOR, '#level option[value="easy"]').click()
    browser.find_element(By.ID, "name").send_keys("Ana")
    browser.find_element(By.ID, "start").click()

    def step_until_shown():
        take_one_step(browser)
        return first_hand_shown(browser)
    wait_for(browser, step_until_shown, "a whole hand: discard, cut, play and show")

    hand = browser.find_elements(By.CSS_SELECTOR, "#hand button.card")
    assert hand and all(button.get_attribute("aria-label").count(" of ") == 1
                        for button in hand)  # "five of hearts"
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
    browser.save_screenshot(str(screenshot))  # the second hand dealt, the first one's show
    lines = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#log li")]
    assert lines[0] == "Hand 1: Ana deals." or lines[0].startswith("Hand 1: Computer")
    assert any(line.startswith("Ana plays ") for line in lines)
    board = browser.find_element(By.ID, "board")
    assert board.get_attribute("alt").startswith("Pegging board: Ana ")
    assert "/v1/board/image.svg?scores=" in board.get_attribute("src")
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
