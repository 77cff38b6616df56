import CGtk
import Glibc

/// The running executable's real path (`/proc/self/exe`, whatever name it was started by).
package func runningExecutable() -> String {
    guard let real = realpath("/proc/self/exe", nil) else { return CommandLine.arguments[0] }
    defer { free(real) }
    return String(cString: real)
}

/// A directory shipped with HostShell (`relative`, e.g. `fixtures/studio`), found from the
/// running executable (`/proc/self/exe`, whatever name it was started by): in a parent of it
/// (a checkout's build directory), or in a parent's `share/hostshell` (an installed prefix).
package func locateBundled(_ relative: String, marker: String) -> String? {
    var directory = runningExecutable()
    for _ in 0..<7 {
        directory = takeGString(g_path_get_dirname(directory)) ?? "/"
        for candidate in [directory + "/" + relative, directory + "/share/hostshell/" + relative]
        where access(candidate + "/" + marker, R_OK) == 0 {
            return candidate
        }
        if directory == "/" { break }
    }
    return nil
}
