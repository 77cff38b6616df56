"""One HostShell fleet per pytest-xdist worker, and a fresh throw-away app of it per test.

pytest-xdist runs the tests in N worker processes (`-n N`, or `--tx` for other machines); each
worker starts one `hostshell fleet` (one process hosting many isolated apps) for the whole run,
and every test gets a new app of that fleet on a throw-away profile — opened in well under a
second, closed (profile and all) after the test — so no test sees another's cookies, storage or
sign-in. `ctl` drives the test's app with `hostshell ctl`; `driver` is a Selenium session on the
worker's fleet: WebKitWebDriver `--target`s the fleet, and each session is a new app of it too,
whose Studio page (bridge and native chrome) the session drives. All workers share the X
server and the session bus they inherit:

    xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp" dbus-run-session -- \\
        /usr/bin/python3 -m pytest -n 4 examples/pytest

STUDIO_URL names the Studio to test (default: each worker serves the bundled reference Studio);
HOSTSHELL names the binary (default: the newest of this checkout's .build/debug and .build/release
builds, then PATH); without one the run fails. WEBKIT_WEBDRIVER names the driver (default:
WebKitWebDriver on PATH); the `driver` tests fail without it or without Selenium.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from hostshell_binary import MISSING, find_hostshell  # noqa: E402

HOSTSHELL = find_hostshell()
DRIVER = os.environ.get("WEBKIT_WEBDRIVER") or shutil.which("WebKitWebDriver")


def free_port():
    """A loopback TCP port nothing listens on now (the kernel picks it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(what, ready, process, log):
    """Polls `ready()` until true; fails with the process's own words if it ended first. The one
    wait on time: for a socket or a port that does not exist yet."""
    deadline = time.monotonic() + 120
    while not ready():
        if process.poll() is not None or time.monotonic() > deadline:
            with open(log, errors="replace") as f:
                raise RuntimeError(f"{what} did not start: " + f.read()[-2000:])
        time.sleep(0.1)


class Fleet:
    """This worker's `hostshell fleet --control SOCKET --webdriver ADDRESS -- open` on a home of its own."""

    def __init__(self, worker):
        if not HOSTSHELL:
            pytest.exit(MISSING, returncode=2)
        self.worker = worker
        self.home = tempfile.mkdtemp(prefix=f"hostshell-{worker}-")
        self.env = dict(os.environ, XDG_CONFIG_HOME=f"{self.home}/config", XDG_DATA_HOME=f"{self.home}/data",
                        XDG_CACHE_HOME=f"{self.home}/cache")
        self.socket = f"{self.home}/fleet.sock"
        self.server = self.driver_process = None
        url = os.environ.get("STUDIO_URL")
        if not url:
            self.server = subprocess.Popen([HOSTSHELL, "serve", "--reference"], stdout=subprocess.PIPE, text=True, env=self.env)
            url = self.server.stdout.readline().strip()
        self.url = url
        subprocess.run([HOSTSHELL, "server", "add", url, "--allow-http"], env=self.env, check=True, capture_output=True)
        # Each WebDriver session opens the saved Studio on a throw-away profile (`-- open`).
        self.inspector = f"127.0.0.1:{free_port()}"
        self.log = f"{self.home}/fleet.log"
        with open(self.log, "w") as log:
            self.process = subprocess.Popen([HOSTSHELL, "fleet", "--control", self.socket, "--pool", "1",
                                             "--webdriver", self.inspector, "--", "open"],
                                            env=self.env, stdout=log, stderr=subprocess.STDOUT)
        wait_for(f"worker {worker}'s fleet", lambda: self.request("list", check=False) is not None, self.process, self.log)
        self.driver_url = None

    def request(self, *words, check=True):
        """`hostshell fleet-ctl SOCKET WORDS…`: the JSON answer (None when refused and not `check`)."""
        run = subprocess.run([HOSTSHELL, "fleet-ctl", self.socket, *words], capture_output=True, text=True, env=self.env)
        if run.returncode != 0:
            assert not check, f"fleet-ctl {' '.join(words)}: {run.stderr.strip()}"
            return None
        return json.loads(run.stdout)

    def webdriver(self):
        """This worker's WebKitWebDriver, `--target`ing the fleet (started on first use): its URL."""
        if self.driver_url:
            return self.driver_url
        if not DRIVER:
            raise RuntimeError("WebKitWebDriver was not found: install webkit2gtk-driver (scripts/install-deps does) "
                               "or set WEBKIT_WEBDRIVER=/path/to/WebKitWebDriver")
        port = free_port()
        driver_log = f"{self.home}/driver.log"
        with open(driver_log, "w") as log:
            # With every signal unblocked: a runner may hand its workers a mask that blocks SIGTERM.
            self.driver_process = subprocess.Popen([DRIVER, f"--port={port}", f"--target={self.inspector}"],
                                                   stdout=log, stderr=subprocess.STDOUT,
                                                   preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_SETMASK, []))
        url = f"http://127.0.0.1:{port}"

        def answers():
            try:
                return urllib.request.urlopen(url + "/status", timeout=5).status == 200
            except OSError:
                return False
        wait_for("WebKitWebDriver", answers, self.driver_process, driver_log)
        self.driver_url = url
        return url

    def close(self):
        for process in (self.driver_process, self.process, self.server):
            if process:
                process.terminate()
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:  # it did not take SIGTERM
                    process.kill()
                    process.wait()
        shutil.rmtree(self.home, ignore_errors=True)


class App:
    """An app of the fleet: its id and control socket, where `hostshell ctl` works as on its own."""

    def __init__(self, fleet, id, socket):
        self.fleet, self.id, self.socket = fleet, id, socket

    def ctl(self, *words):
        """Runs `hostshell ctl SOCKET WORDS…`; the JSON answer, or a failed assertion with the app's reason."""
        run = subprocess.run([HOSTSHELL, "ctl", self.socket, *words], capture_output=True, text=True)
        assert run.returncode == 0, f"ctl {' '.join(words)}: {run.stderr.strip()}"
        return json.loads(run.stdout) if run.stdout.strip() else None


@pytest.fixture(scope="session")
def host(worker_id):
    """This worker's fleet (worker_id is "gw0", "gw1", … under xdist, "master" without it)."""
    running = Fleet(worker_id)
    yield running
    running.close()


@pytest.fixture
def app(host):
    """A fresh Studio app of this worker's fleet, on a throw-away profile, for this test only."""
    opened = host.request("open", "--throw-away", "--", "open", "--credential-store", "file")
    running = App(host, opened["id"], opened["control"])
    running.ctl("wait", "screen=page", "negotiated=true", "--timeout", "60")
    yield running
    host.request("close", running.id)


@pytest.fixture
def ctl(app):
    """`ctl("tap", "media")`: drives and reads this test's app."""
    return app.ctl


def start_session(host):
    """A Selenium session on `host`'s fleet; `.app` is the fleet's app it drives (for `ctl`)."""
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options

    options = Options()
    options.set_capability("browserName", "hostshell")
    session = webdriver.Remote(command_executor=host.webdriver(), options=options)
    listed = host.request("list")
    entry = next(a for a in listed["apps"] if a["id"] == listed["webdriver"]["app"])
    session.app = App(host, entry["id"], entry["control"])
    return session


@pytest.fixture
def new_session(host):
    """`new_session()`: a Selenium session on this worker's fleet (a new app of it), ended with
    the test if the test did not `quit()` it first."""
    started = []

    def start():
        started.append(start_session(host))
        return started[-1]
    yield start
    for session in started:
        if session.session_id:
            session.quit()


@pytest.fixture
def driver(new_session):
    """A Selenium session on this worker's fleet: a new app of it, whose Studio page it drives;
    `driver.app` is that app (for `ctl`). Deleted after the test, which closes the app."""
    return new_session()
