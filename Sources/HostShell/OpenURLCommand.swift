import CapacitorContract
import CapacitorShell
import DevFixtures
import HomeSec
import HomeSecShell
import HostCore
import Push
import PushShell
import ShellKit
import StudioContract
import StudioShell

/// `hostshell open-url URL`: what the `tilecast-ios:` scheme handler runs. The link goes to the
/// app already running; without one, the app starts with the link's server and opens it — and
/// a link that is refused (not a valid link, or for an installation not saved here) starts
/// nothing and loads nothing.
enum OpenURLCommand {
    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.count == 1, let url = arguments.first, !url.hasPrefix("-") else {
            throw UsageError("usage: hostshell open-url 'tilecast-ios://open?installation=UUID&path=/studio/path'")
        }
        // A link of a scheme a running Capacitor app handles (`homesec://…`) goes to that app.
        if let code = try CapacitorInstance.forward(url) { return code }
        if let scheme = CapacitorURL.scheme(of: url), scheme != "tilecast-ios", scheme != "http", scheme != "https" {
            printError("hostshell: no Capacitor app that handles \(TerminalText.escaped(scheme)): links is running; start it with hostshell capacitor PROJECT --open-url LINK")
            return ExitCode.failure
        }
        if let socket = try UnixSocket.connectIfListening(InstanceSocket.path, app: InstanceSocket.runningApp) { return try LinkHandoff.hand(url, to: socket) }
        if case .refused(let why) = DeepLinkRoute.decide(url, records: try ServerStoreFile.standard.load()) {
            printError("hostshell: \(why)")
            return ExitCode.failure
        }
        return try OpenCommand.run(["--open-url", url])
    }
}
