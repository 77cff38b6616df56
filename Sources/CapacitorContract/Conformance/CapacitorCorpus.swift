import HostCore

/// A conformance corpus for Capacitor's wire protocol (capacitor-shell contract §2, §4), in the
/// spirit of the Studio bridge's `messages-v1.json`: each case is a short script of what the page
/// posts and what the host reports, with exactly what the page must receive after each step.
///
/// ```json
/// {"contract": "capacitor-shell", "schemaVersion": 1,
///  "app": {"appId": "…", "appName": "…", "appVersion": "…"},
///  "plugins": ["App"],
///  "pluginHeaders": [{"name": "App", "methods": […]}],
///  "cases": [{"name": "…", "steps": [
///     {"post": {"type": "message", …}, "expect": [{"fromNative": {…}}]},
///     {"postText": "not json", "expect": [{"refused": true}]},
///     {"host": {"lifecycle": "background"}, "expect": […]},
///     {"host": {"openUrl": "homesec://…", "launch": false}, "expect": […]},
///     {"reload": true, "expect": [], "listeners": 0, "retained": 0}]}]}
/// ```
///
/// What a step can produce, as the page (or the host's own record) sees it: `fromNative` (the
/// object handed to `window.Capacitor.fromNative`), `refused` (the page gets nothing), `console`,
/// `jsError`, `unhandled` (a host event no plugin takes). Work asked of the glue and plugins'
/// notes are not part of the wire and are not compared.
public struct CapacitorCorpus: Sendable {
    public static let contractName = "capacitor-shell"

    public enum Step: Sendable {
        /// The main frame posts this JSON text to the `bridge` handler.
        case post(String)
        case host(PluginHostEvent)
        /// A new main-frame document (a reload or navigation).
        case reload
    }

    public struct ScriptedStep: Sendable {
        public var step: Step
        public var expect: [JSONValue]
        /// Listener and retained-event counts after the step, when the case states them.
        public var listeners: Int?
        public var retained: Int?
    }

    public struct Case: Sendable {
        public var index: Int
        public var name: String
        public var steps: [ScriptedStep]
    }

    public var app: CapacitorAppInfo
    /// The plugins the cases run against, by name, from the plugins it was given.
    public var plugins: [any CapacitorPlugin.Type]
    /// `window.Capacitor.PluginHeaders` as the listed plugins must produce it, when given.
    public var pluginHeaders: JSONValue?
    public var cases: [Case]

    /// True when `document` says it is a Capacitor corpus (its `contract` field).
    public static func isCapacitorCorpus(_ document: JSONValue) -> Bool {
        document.objectValue?["contract"]?.stringValue == contractName
    }

    private static func bad(_ why: String) -> CorpusFormatError { CorpusFormatError(description: why) }

    public init(_ document: JSONValue, available: [any CapacitorPlugin.Type] = CapacitorPlugins.standard) throws(CorpusFormatError) {
        let bad = Self.bad
        guard let root = document.objectValue, root["contract"]?.stringValue == Self.contractName else {
            throw bad("a Capacitor corpus is an object with \"contract\": \"\(Self.contractName)\"")
        }
        if let version = root["schemaVersion"], version.integerValue != 1 {
            throw bad("schemaVersion \(JSONWriter.string(version)) is not supported (expected 1)")
        }
        let appObject = root["app"]?.objectValue ?? [:]
        app = CapacitorAppInfo(appId: appObject["appId"]?.stringValue, appName: appObject["appName"]?.stringValue,
                               appVersion: appObject["appVersion"]?.stringValue, deviceName: appObject["deviceName"]?.stringValue,
                               apnsEnvironment: appObject["apnsEnvironment"]?.stringValue ?? "sandbox",
                               pluginConfig: appObject["plugins"]?.objectValue ?? [:])
        guard let names = root["plugins"]?.arrayValue, !names.isEmpty else {
            throw bad("\"plugins\" must list the plugins the cases run against, by name")
        }
        var plugins: [any CapacitorPlugin.Type] = []
        for name in names {
            guard let text = name.stringValue else { throw bad("\"plugins\" holds names (strings), not \(name.kindDescription)") }
            guard let type = available.first(where: { $0.name == text }) else {
                throw bad("this host has no plugin \"\(text)\" (it has \(available.map { $0.name }.joined(separator: ", ")))")
            }
            plugins.append(type)
        }
        self.plugins = plugins
        pluginHeaders = root["pluginHeaders"]
        guard let rawCases = root["cases"]?.arrayValue else { throw bad("the corpus has no \"cases\" array") }
        var cases: [Case] = []
        for (index, raw) in rawCases.enumerated() {
            guard let object = raw.objectValue, let name = object["name"]?.stringValue else {
                throw bad("case \(index): an object with a \"name\" string")
            }
            guard let rawSteps = object["steps"]?.arrayValue, !rawSteps.isEmpty else {
                throw bad("case \(index) \"\(name)\": \"steps\" must be a non-empty array")
            }
            let steps = try Self.steps(rawSteps, of: "case \(index) \"\(name)\"")
            cases.append(Case(index: index, name: name, steps: steps))
        }
        self.cases = cases
    }

    private static func steps(_ rawSteps: [JSONValue], of label: String) throws(CorpusFormatError) -> [ScriptedStep] {
        var steps: [ScriptedStep] = []
        for (number, rawStep) in rawSteps.enumerated() {
            let result: Result<ScriptedStep, CorpusFormatError> = Result { () throws(CorpusFormatError) in try step(rawStep) }
            switch result {
            case .success(let step): steps.append(step)
            case .failure(let error): throw bad("\(label) step \(number): \(error.description)")
            }
        }
        return steps
    }

    private static func step(_ raw: JSONValue) throws(CorpusFormatError) -> ScriptedStep {
        guard let object = raw.objectValue else { throw bad("a step is an object") }
        guard let expect = object["expect"]?.arrayValue else { throw bad("\"expect\" (an array, maybe empty) is required") }
        let step: Step
        if let message = object["post"] {
            step = .post(JSONWriter.string(message))
        } else if let text = object["postText"]?.stringValue {
            step = .post(text)
        } else if object["reload"]?.boolValue == true {
            step = .reload
        } else if let host = object["host"]?.objectValue {
            step = .host(try hostEvent(host))
        } else {
            throw bad("a step has one of \"post\", \"postText\", \"host\" or \"reload\"")
        }
        return ScriptedStep(step: step, expect: expect, listeners: object["listeners"]?.integerValue,
                            retained: object["retained"]?.integerValue)
    }

    private static func hostEvent(_ host: JSONObject) throws(CorpusFormatError) -> PluginHostEvent {
        if let word = host["lifecycle"]?.stringValue {
            guard let change = ControlCommand.LifecycleChange(rawValue: word) else {
                throw CorpusFormatError(description: "lifecycle is one of \(ControlCommand.LifecycleChange.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .lifecycle(change)
        }
        if let url = host["openUrl"]?.stringValue { return .openURL(url, launch: host["launch"]?.boolValue ?? false) }
        if let grant = host["permission"]?.boolValue { return .permission(grant: grant) }
        if host["rotatePushToken"]?.boolValue == true { return .rotatePushToken }
        throw CorpusFormatError(description: "\"host\" has one of lifecycle, openUrl (+launch), permission, rotatePushToken")
    }
}
