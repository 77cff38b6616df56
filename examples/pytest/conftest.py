"""One HostShell per pytest-xdist worker, each on its own throw-away profile.

pytest-xdist runs the tests in N worker processes (`-n N`, or `--tx` for other machines); each
worker starts one HostShell host for the whole run and hands every test the `ctl` function of its
own host. All workers share the X server and the session bus they inherit, which is the
documented way to run many hosts at once:

    xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp" dbus-run-session -- \\
        /usr/bin/python3 -m pytest -n 4 examples/pytest

STUDIO_URL names the Studio to test (default: each worker serves the bundled reference Studio);
HOSTSHELL names the binary (default: the newest of this checkout's .build/debug and .build/release
builds, then PATH); without one the run fails.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from hostshell_binary import MISSING, find_hostshell  # noqa: E402

HOSTSHELL = find_hostshell()


class Host:
    """A running `hostshell open --control` on a profile of its own."""

    def __init__(self, worker):
        if not HOSTSHELL:
            pytest.exit(MISSING, returncode=2)
        self.worker = worker
        self.home = tempfile.mkdtemp(prefix=f"hostshell-{worker}-")
        self.env = dict(os.environ, XDG_CONFIG_HOME=f"{self.home}/config", XDG_DATA_HOME=f"{self.home}/data",
                        XDG_CACHE_HOME=f"{self.home}/cache")
        self.socket = f"{self.home}/app.sock"
        self.server = None
        url = os.environ.get("STUDIO_URL")
        if not url:
            self.server = subprocess.Popen([HOSTSHELL, "serve", "--reference"], stdout=subprocess.PIPE, text=True, env=self.env)
            url = self.server.stdout.readline().strip()
        self.url = url
        subprocess.run([HOSTSHELL, "server", "add", url, "--allow-http"], env=self.env, check=True, capture_output=True)
        self.log = open(f"{self.home}/app.log", "w")
        self.app = subprocess.Popen([HOSTSHELL, "open", "--control", self.socket, "--credential-store", "file"],
                                    env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
        # Listening, or it died: the one wait on time, for a socket that does not exist yet.
        while subprocess.run([HOSTSHELL, "ctl", self.socket, "state"], capture_output=True).returncode != 0:
            if self.app.poll() is not None:
                raise RuntimeError(f"worker {worker}: hostshell exited: " + open(f"{self.home}/app.log").read()[-2000:])
            time.sleep(0.1)
        self.ctl("wait", "screen=page", "negotiated=true", "--timeout", "60")

    def ctl(self, *words):
        """Runs `hostshell ctl SOCKET WORDS…`; the JSON answer, or a failed assertion with the app's reason."""
        run = subprocess.run([HOSTSHELL, "ctl", self.socket, *words], capture_output=True, text=True)
        assert run.returncode == 0, f"ctl {' '.join(words)}: {run.stderr.strip()}"
        return json.loads(run.stdout) if run.stdout.strip() else None

    def close(self):
        self.app.terminate()
        self.app.wait(timeout=30)
        if self.server:
            self.server.terminate()
            self.server.wait(timeout=30)
        self.log.close()
        shutil.rmtree(self.home, ignore_errors=True)


@pytest.fixture(scope="session")
def host(worker_id):
    """This worker's HostShell (worker_id is "gw0", "gw1", … under xdist, "master" without it)."""
    running = Host(worker_id)
    yield running
    running.close()


@pytest.fixture
def ctl(host):
    """`ctl("tap", "media")`: drives and reads this worker's host."""
    return host.ctl
