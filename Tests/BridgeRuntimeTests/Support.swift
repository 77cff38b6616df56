import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Foundation

/// Where the checkout's files are, found from this source file so tests run from any directory.
enum Checkout {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ relative: String) -> URL { root.appendingPathComponent("fixtures").appendingPathComponent(relative) }

    /// The contract's corpus as the project keeps it.
    static let corpusURL = fixture("contracts/studio-bridge/messages-v1.json")

    /// The project's own cases beside it (§5 lengths, §6 anchored menus); the shared file stays untouched.
    static let ownCorpusURL = fixture("contracts/studio-bridge/hostshell-v1.json")

    static func loadCorpus(_ url: URL = corpusURL) -> Corpus {
        let data = try! Data(contentsOf: url)
        return try! Corpus(try! JSONParser.parse(bytes: [UInt8](data)))
    }
}

/// Builds a Studio message as JSON text.
func envelope(_ type: String, _ payload: JSONValue = [:], id: String? = nil) -> String {
    var object: JSONObject = ["version": 1, "type": .string(type), "payload": payload]
    if let id { object["id"] = .string(id) }
    return JSONWriter.string(.object(object))
}

/// Decodes a Studio message and returns the failure code, or nil when it was accepted.
func failureCode(_ text: String, context: HostContext? = nil) -> ReplyErrorCode? {
    switch StudioMessageDecoder.decode(text, context: context) {
    case .success: return nil
    case .failure(let failure): return failure.code
    }
}

func decoded(_ text: String, context: HostContext? = nil) -> StudioMessage? {
    try? StudioMessageDecoder.decode(text, context: context).get().message
}

func repeated(_ s: String, _ n: Int) -> String { String(repeating: s, count: n) }

extension Corpus.Case: CustomTestStringConvertible {
    public var testDescription: String { "#\(index) \(name)" }
}

import Testing
