import Glibc
import ShellKit

// Before anything else (WebKit reads it once, when its first type is made): no remote inspector
// listens unless this run is for a WebDriver session, and then only for this user.
InspectorGuard.takeFromEnvironment()

// A parent may start us with signals blocked (threads of Dispatch-based launchers block them, and
// children inherit the mask): unblock the ones that ask us to stop, so SIGTERM and Ctrl-C work.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stopSignals, signal) }
sigprocmask(SIG_UNBLOCK, &stopSignals, nil)

// GLib owns the main thread once a window opens; until then the command line decides what runs.
exit(HostShellCommand.run(Array(CommandLine.arguments.dropFirst())))
