/// An app contract's own control commands: their names and help, how `ctl`'s words become a
/// request, and how a request is read into the contract's command type. A contract registers
/// one (or more) with the app that carries its commands out (`HostedApp.controlVocabularies`)
/// and with `ctl` (the executable lists every vocabulary); the host core never names them.
public protocol ControlVocabulary {
    associatedtype Command: Sendable & Equatable
    /// Whose commands these are, for `ctl --help` ("Studio", "push: Capacitor apps and device hermes").
    static var title: String { get }
    static var commands: [ControlCommandHelp] { get }
    /// Reads `command` (its name is one of `commands`) into the contract's type.
    static func decode(_ command: AppCommand) throws(ControlError) -> Command
    /// `ctl NAME WORDS…` as the request's members (`name` is one of `commands`).
    static func arguments(_ name: String, words: [String]) throws(ControlError) -> JSONObject
    /// The members of its requests that are file paths (`ctl` resolves relative ones against
    /// its own working directory).
    static var pathMembers: Set<String> { get }
}

extension ControlVocabulary {
    public static var pathMembers: Set<String> { [] }
    public static var names: [String] { commands.map(\.name) }
    public static func owns(_ name: String) -> Bool { commands.contains { $0.name == name } }
}

extension AppCommand {
    /// Why an app whose own commands are `vocabularies` refuses this one, or nil when one of
    /// them owns it: the core's and the app's commands are listed.
    public func refusal(by vocabularies: [any ControlVocabulary.Type]) -> ControlError? {
        guard !vocabularies.contains(where: { $0.owns(name) }) else { return nil }
        let known = ControlCommand.names + vocabularies.flatMap { $0.names }
        return ControlError("unknown command \"\(name)\"; this app takes \(known.joined(separator: ", "))")
    }
}

/// One command's line in `ctl --help`.
public struct ControlCommandHelp: Sendable, Equatable {
    public var name: String
    /// Its words after the name (`DEST`, `ID open|show`), empty when it takes none.
    public var usage: String
    /// The options its words may carry; nil when the words are free text (a script, a value).
    public var options: [String]?

    public init(_ name: String, _ usage: String = "", options: [String]? = []) {
        self.name = name
        self.usage = usage
        self.options = options
    }

    /// `name usage`, as `ctl --help` lists it.
    public var synopsis: String { usage.isEmpty ? name : name + " " + usage }
}

/// The words of one `ctl` command after its name, read one way for every vocabulary.
public struct ControlWords {
    public let name: String
    public var rest: [String]

    public init(_ name: String, _ rest: [String]) {
        self.name = name
        self.rest = rest
    }

    /// The one word the command takes, or a refusal that says what it should be.
    public func one(_ what: String) throws(ControlError) -> String {
        guard rest.count == 1 else { throw ControlError("\(name) takes one argument: \(what)") }
        return rest[0]
    }

    /// Refuses any word: the command takes none.
    public func none() throws(ControlError) {
        guard rest.isEmpty else { throw ControlError("\(name) takes no arguments") }
    }

    /// Removes `flag VALUE` and returns VALUE, or nil when the flag is not there.
    public mutating func take(_ flag: String, _ what: String) throws(ControlError) -> String? {
        guard let index = rest.firstIndex(of: flag) else { return nil }
        guard index + 1 < rest.count else { throw ControlError("\(flag) takes \(what)") }
        let value = rest[index + 1]
        rest.removeSubrange(index...index + 1)
        return value
    }

    /// Removes a flag without a value; whether it was there.
    public mutating func take(_ flag: String) -> Bool {
        guard let index = rest.firstIndex(of: flag) else { return false }
        rest.remove(at: index)
        return true
    }
}
