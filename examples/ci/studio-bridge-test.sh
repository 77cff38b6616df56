#!/usr/bin/env bash
# A Studio bridge test as a CI job runs it, headless:
#   xvfb-run -a dbus-run-session examples/ci/studio-bridge-test.sh [STUDIO-URL]
# Without a URL it tests the bundled reference Studio. HOSTSHELL names the binary (default: the
# newest of this checkout's .build/debug and .build/release builds, then hostshell on PATH).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
hs=${HOSTSHELL:-$(ls -t "$root"/.build/debug/hostshell "$root"/.build/release/hostshell 2>/dev/null | head -1 || true)}
hs=${hs:-$(command -v hostshell || true)}
if [ -z "$hs" ] || ! [ -x "$(command -v "$hs" || echo "$hs")" ]; then
  echo "studio-bridge-test: hostshell was not found: build it (scripts/demo or scripts/test), put it on PATH, or set HOSTSHELL=/path/to/hostshell" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'kill ${app:-} ${server:-} 2>/dev/null; rm -rf "$work"' EXIT
# A throw-away profile: saved servers, website data and the app's credential all live here.
export XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache
url=${1:-}
if [ -z "$url" ]; then
  "$hs" serve --reference > "$work/serve" & server=$!
  until [ -s "$work/serve" ]; do kill -0 "$server" || exit 1; sleep 0.1; done  # its address, or it died
  url=$(head -1 "$work/serve")
fi
"$hs" server add "$url" --allow-http
sock=$work/app.sock
"$hs" open --device phone --control "$sock" --bridge-log "$work/bridge.log" --credential-store file & app=$!
ctl() { "$hs" ctl "$sock" "$@"; }
until ctl state >/dev/null 2>&1; do kill -0 "$app" || exit 1; sleep 0.2; done  # listening, or it died

# Negotiated, with native tabs built from Studio's catalog. Each wait has room for a busy CI machine.
ctl wait screen=page negotiated=true navigation.kind=tabs --timeout 60 >/dev/null
# A native tab tap reaches Studio, which follows and says so.
ctl tap media
ctl wait navigation.selected=media "url=\"$url/media\"" --timeout 30 >/dev/null
# Every bridge message for 3 s while Playlists is tapped, as Studio and the host exchanged them.
# The tap waits for ctl to say (on stderr) that the app streams, so nothing is missed.
exec 3< <(ctl events --kind bridge --timeout 3 2>&1 > "$work/events")
events=$!
read -r -u 3 started
[[ $started == "hostshell ctl: streaming "* ]]
ctl tap playlists
wait "$events"; exec 3<&-
grep -q '"type":"navigation/request"' "$work/events"
# A sheet from a row's native menu, shown from the prewarmed page, and closed.
ctl tap screens
ctl wait presentation.ready=true menus.triggers.0=row-cafeteria --timeout 30 >/dev/null
ctl menu-open row-lobby-north
ctl wait menus.open=row-lobby-north --timeout 30 >/dev/null
ctl menu preview
ctl wait presentation.shown.revealed=true presentation.lastOpen.prewarmed=true --timeout 30 >/dev/null
ctl snapshot "$work/sheet.png"
ctl sheet-dismiss
ctl wait presentation.shown=null --timeout 30 >/dev/null

# The recorded session, replayed against a fresh app: every reply the same.
kill "$app"; wait "$app" || true
"$hs" replay "$work/bridge.log" --credential-store file
echo "studio-bridge-test: passed"
