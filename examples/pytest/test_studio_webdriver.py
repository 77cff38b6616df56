"""Selenium on a fleet: each WebDriver session is a new app of the worker's fleet (WebKitWebDriver
`--target`s it), whose Studio page — bridge and native chrome — the session drives, while
`ctl` reads the native side of that same app.

Run: xvfb-run -a dbus-run-session -- /usr/bin/python3 -m pytest -n 4 examples/pytest
"""
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def test_the_dom_drives_the_native_chrome(driver, host):
    ready = driver.app.ctl("wait", "screen=page", "negotiated=true", "--timeout", "60", "--state")
    assert driver.current_url == ready["url"]
    assert driver.execute_script("return typeof window.webkit.messageHandlers.tilecastNative.postMessage") == "function"
    driver.get(host.url + "/screens")
    driver.app.ctl("wait", "navigation.selected=screens", "negotiated=true", "--timeout", "30")
    link = WebDriverWait(driver, 10).until(lambda d: d.find_element(By.LINK_TEXT, "Cafeteria"))
    driver.execute_script("arguments[0].click()", link)
    state = driver.app.ctl("wait", "backBar.label=Screens", "--timeout", "10", "--state")
    assert state["backBar"]["title"] == "Cafeteria"


def test_sessions_see_nothing_of_each_other(new_session, host):
    first = new_session()
    first.execute_script("localStorage.setItem('left-behind', 'yes'); document.cookie = 'left=behind; path=/'")
    assert first.execute_script("return localStorage.getItem('left-behind')") == "yes"
    first_app = first.app.id
    first.quit()  # deleting the session closes its app (the fleet closes it once the driver let go)
    deadline = time.monotonic() + 30
    while first_app in [a["id"] for a in host.request("list")["apps"]]:
        assert time.monotonic() < deadline, f"app {first_app} was still open 30 s after its session was deleted"
        time.sleep(0.05)
    # The next session is a new app, and WebKit's automation session was cleared between them.
    second = new_session()
    assert second.app.id != first_app
    assert second.execute_script("return localStorage.getItem('left-behind')") is None
    assert "left=behind" not in second.execute_script("return document.cookie")
