"""A Studio's native side, tested in parallel: each test drives a fresh app of its worker's fleet.

Run: xvfb-run -a dbus-run-session -- /usr/bin/python3 -m pytest -n 4 examples/pytest
"""
import pytest

DESTINATIONS = [("overview", "/"), ("screens", "/screens"), ("media", "/media"), ("playlists", "/playlists"),
                ("groups", "/groups")]


@pytest.mark.parametrize("destination,path", DESTINATIONS)
def test_a_native_tap_navigates_studio(ctl, host, destination, path):
    ctl("tap", destination)
    ctl("wait", f"navigation.selected={destination}", f'url="{host.url}{path}"', "--timeout", "30")


def test_the_screens_rows_get_native_menus(ctl):
    ctl("tap", "screens")
    ctl("wait", "navigation.selected=screens", "menus.triggers.0=row-cafeteria", "--timeout", "30")
    ctl("menu-open", "row-lobby-north")
    ctl("wait", "menus.open=row-lobby-north")
    ctl("menu-close")
    ctl("wait", "menus.open=null")


def test_the_chrome_is_a_sidebar_on_the_desktop(ctl):
    state = ctl("state")
    assert state["navigation"]["kind"] == "sidebar"


def test_each_test_has_a_fresh_app_of_its_workers_fleet(host, app):
    state = app.ctl("state")
    assert state["screen"] == "page"
    # The app is the fleet's, on a throw-away profile under the fleet's own root: nothing is
    # shared between tests, nor between workers (each has its own fleet and home).
    listed = next(a for a in host.request("list")["apps"] if a["id"] == app.id)
    assert listed["throwAway"] and listed["open"]
    assert app.socket.startswith(host.socket + ".")


def test_a_snapshot_of_the_window(ctl, host, tmp_path):
    picture = tmp_path / f"{host.worker}.png"
    ctl("snapshot", str(picture))
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
