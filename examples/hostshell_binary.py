"""Where the examples find `hostshell`: $HOSTSHELL, else the newest of this checkout's builds
(`scripts/demo` builds .build/release/hostshell, `scripts/test` .build/debug/hostshell), else
`hostshell` on PATH. When there is none, the examples fail and say how to point at it: a CI job
must never go green having tested nothing."""
import os
import shutil

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
MISSING = ("hostshell was not found: build it (scripts/demo builds .build/release/hostshell, "
           "scripts/test .build/debug/hostshell), put it on PATH, or set HOSTSHELL=/path/to/hostshell")


def find_hostshell():
    """The binary's path, or None (see MISSING)."""
    named = os.environ.get("HOSTSHELL")
    if named:
        found = named if os.sep in named else shutil.which(named)
        return found if found and os.access(found, os.X_OK) else None
    built = [os.path.join(ROOT, ".build", kind, "hostshell") for kind in ("debug", "release")]
    built = [path for path in built if os.access(path, os.X_OK)]
    if built:
        return max(built, key=os.path.getmtime)
    return shutil.which("hostshell")
