"""A real headless Chromium (Debian's chromium and chromium-driver) driven by Selenium."""

from __future__ import annotations

import shutil

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def require_chromium() -> None:
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not shutil.which(path)]
    if missing:
        raise RuntimeError(f"{', '.join(missing)} missing: apt-get install chromium "
                           "chromium-driver (scripts/test does it)")


def headless_chromium(language: str = "en") -> webdriver.Chrome:
    """A browser that keeps its console messages for `console_errors`."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1100,1500", f"--lang={language}"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(120)
    return driver


def console_errors(driver: webdriver.Chrome) -> list[str]:
    """The console's errors since the last call: script errors, refused loads, CSP refusals."""
    return [entry["message"] for entry in driver.get_log("browser")
            if entry["level"] == "SEVERE"]
