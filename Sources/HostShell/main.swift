import Glibc

// GLib owns the main thread once a window opens; until then the command line decides what runs.
exit(HostShellCommand.run(Array(CommandLine.arguments.dropFirst())))
