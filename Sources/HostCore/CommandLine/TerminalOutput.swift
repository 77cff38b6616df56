import Glibc

// Every line HostShell prints goes through one of these three, so text a server, a page or a
// link controls (a server's name, an organisation name, a path, a message) never reaches the
// terminal raw: control characters, escape sequences and bidirectional overrides are shown
// escaped (`TerminalText`).

/// Writes lines to standard output; the line breaks and tabs of the text are kept. Flushed at
/// once, even into a pipe (a CI log), so it stays in order with standard error ("Checking …"
/// before the error it leads to, not after).
package func printOut(_ text: String, terminator: String = "\n") {
    print(TerminalText.escapedLines(text), terminator: terminator)
    fflush(nil)
}

/// Writes one line of compact JSON to standard output, with every such character as a JSON
/// escape: the same JSON value, nothing raw; flushed at once.
package func printJSON(_ text: String) {
    print(TerminalText.escapedJSON(text))
    fflush(nil)
}

/// Writes a line to standard error.
package func printError(_ text: String) {
    let line = TerminalText.escapedLines(text) + "\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}
