#!/usr/bin/python3
"""Drive a Studio in HostShell with Selenium, and check the native side with `hostshell ctl`.

WebKitWebDriver starts HostShell as its browser: `webkitgtk:browserOptions` names the binary and
its arguments (`open --automation --control SOCKET`), and `browserName` must be "hostshell" (the
name the app gives its automation sessions). The page Selenium drives is the app's own Studio
page — bridge, native chrome and the server's own website data — so a test can act on the DOM
and read what the native side made of it over the control socket.

Run (Debian: python3-selenium and webkit2gtk-driver; a display, or xvfb-run):
    xvfb-run -a examples/webdriver/test_studio.py -v
This starts the reference Studio (`hostshell serve --reference`) and saves it in a throw-away
home. HOSTSHELL names the binary (default: the newest of this checkout's .build/debug and
.build/release builds, then PATH); WEBKIT_WEBDRIVER the driver (default: WebKitWebDriver on
PATH). Anything missing fails the run (it never skips: a CI job must not go green on nothing).
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.remote_connection import RemoteConnection
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.webkitgtk.options import Options
from selenium.webdriver.webkitgtk.service import Service

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from hostshell_binary import MISSING, find_hostshell  # noqa: E402

HOSTSHELL = find_hostshell()
DRIVER = os.environ.get("WEBKIT_WEBDRIVER") or shutil.which("WebKitWebDriver")

# When the app cannot start (no saved server, no display), WebKitWebDriver keeps waiting for it:
# bound every request, so such a run fails with the app's own words (see start_session).
# A loaded 2-core CI machine can take more than a minute to start WebKit: allow three.
RemoteConnection.set_timeout(180)


def stop_apps_listening_on(socket_path):
    """Ends any app started with `--control socket_path` (one the driver gave up on while it was
    still starting), so a failed session never leaves a window running."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                arguments = f.read().split(b"\0")
        except OSError:
            continue
        if socket_path.encode() in arguments:
            try:
                os.kill(int(pid), signal.SIGTERM)
            except OSError:
                pass


class StudioInHostShell(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not HOSTSHELL:
            raise RuntimeError(MISSING)
        if not DRIVER:
            raise RuntimeError("WebKitWebDriver was not found: install webkit2gtk-driver (scripts/install-deps does) "
                               "or set WEBKIT_WEBDRIVER=/path/to/WebKitWebDriver")
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            raise RuntimeError("no display: run it under xvfb-run -a")
        cls.home = tempfile.mkdtemp(prefix="hostshell-webdriver-")
        cls.env = dict(os.environ, XDG_CONFIG_HOME=f"{cls.home}/config",
                       XDG_DATA_HOME=f"{cls.home}/data", XDG_CACHE_HOME=f"{cls.home}/cache")
        # The reference Studio on a free loopback port; its first line is its address.
        cls.server = subprocess.Popen([HOSTSHELL, "serve", "--reference"], stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True)
        cls.url = cls.server.stdout.readline().strip()
        subprocess.run([HOSTSHELL, "server", "add", cls.url, "--allow-http"], env=cls.env, check=True,
                       stdout=subprocess.DEVNULL)

    @classmethod
    def tearDownClass(cls):
        cls.server.terminate()
        cls.server.wait()
        cls.server.stdout.close()
        shutil.rmtree(cls.home, ignore_errors=True)

    def start_session(self, browser_name="hostshell"):
        """A WebDriver session on a new `hostshell open --automation --control SOCKET`."""
        # A new socket per session: an app the driver gave up on cannot hold the next one's.
        self.sessions = getattr(self, "sessions", 0) + 1
        self.socket = os.path.join(self.home, f"app-{id(self)}-{self.sessions}.sock")
        self.log = os.path.join(self.home, "driver.log")
        options = Options()
        options.binary_location = HOSTSHELL
        # --credential-store file: a sign-in stays in the throw-away home, not your keyring.
        for argument in ["open", "--automation", "--control", self.socket, "--device", "desktop",
                         "--credential-store", "file"]:
            options.add_argument(argument)
        options.set_capability("browserName", browser_name)
        # The driver starts the app with its own environment: here, the throw-away home.
        self.service = Service(executable_path=DRIVER, log_path=self.log, env=self.env)
        self.service.start()
        try:
            self.driver = webdriver.Remote(command_executor=self.service.service_url, options=options)
        except Exception as error:
            self.service.stop()
            stop_apps_listening_on(self.socket)
            with open(self.log, errors="replace") as log:  # the app's own output goes here too
                error.add_note("WebKitWebDriver's log ends:\n" + "".join(log.readlines()[-15:]))
            raise
        self.addCleanup(self.end_session)

    def end_session(self):
        self.driver.quit()  # closes the page: the app quits and removes its socket
        self.service.stop()

    def ctl(self, *arguments):
        """`hostshell ctl SOCKET …`: the native side's answer as JSON."""
        run = subprocess.run([HOSTSHELL, "ctl", self.socket, *arguments], capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, f"hostshell ctl {' '.join(arguments)}: {run.stderr.strip()}")
        return json.loads(run.stdout)

    def click(self, element):
        """Clicks as a person would where the WebKit build supports WebDriver input. Debian 12's
        WebKitGTK 6.0 is built without it (only its GTK 3 build has it; fixed upstream in WebKit
        bug 318171) and answers "unsupported operation", a bare WebDriverException: then the DOM's
        own click(), which Studio's handlers see alike. A real refusal (not interactable,
        intercepted) is a subclass and still fails the test."""
        try:
            element.click()
        except WebDriverException as error:
            if type(error) is not WebDriverException:
                raise
            self.driver.execute_script("arguments[0].click()", element)

    def test_the_dom_drives_the_native_chrome_and_back(self):
        self.start_session()
        ready = self.ctl("wait", "screen=page", "negotiated=true", "--timeout", "30", "--state")
        # The session drives the app's page: the same document, with the bridge injected.
        self.assertEqual(self.driver.current_url, ready["url"])
        self.assertEqual(self.driver.execute_script(
            "return typeof window.webkit.messageHandlers.tilecastNative.postMessage"), "function")
        self.assertEqual(ready["navigation"]["kind"], "sidebar")

        # Navigate and click through the DOM; the native sidebar and back bar follow Studio.
        self.driver.get(self.url + "/screens")
        self.ctl("wait", "navigation.selected=screens", "negotiated=true")
        link = WebDriverWait(self.driver, 10).until(lambda d: d.find_element(By.LINK_TEXT, "Cafeteria"))
        self.click(link)
        state = self.ctl("wait", "backBar.label=Screens", "--timeout", "10", "--state")
        self.assertEqual(state["backBar"]["title"], "Cafeteria")
        self.assertEqual(state["url"], self.url + "/screens/cafeteria")

        # The other way: the native back button, and the DOM shows where Studio went.
        self.ctl("back")
        WebDriverWait(self.driver, 10).until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Screens")
        self.assertIsNone(self.ctl("wait", "backBar=null", "--timeout", "10")["backBar"])

    def test_one_page_per_window(self):
        self.start_session()
        self.ctl("wait", "screen=page", "--timeout", "30")
        with self.assertRaises(WebDriverException):
            self.driver.switch_to.new_window("window")
        self.assertEqual(len(self.driver.window_handles), 1)

    def test_browser_name_must_be_hostshell(self):
        with self.assertRaises(WebDriverException) as refused:
            self.start_session(browser_name="MiniBrowser")
        self.assertIn("capabilities", str(refused.exception).lower())


if __name__ == "__main__":
    unittest.main()
