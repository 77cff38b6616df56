import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Server store format and identity")
struct ServerStoreTests {
    static let id = "7c1e2a94-3b6d-4c1e-8f7a-2d3e4b5c6d7e"

    static func record(_ id: String = "lobby", address: String = "https://studio.example.org") -> ServerRecord {
        ServerRecord(id: id, name: "Lobby", address: try! ServerAddress.parse(address).get(),
                     identity: ServerIdentity(installationId: Self.id, organizationName: "Org"))
    }

    @Test("records round-trip through the file format, typed ports and all")
    func roundTrip() throws {
        let records = [Self.record(), Self.record("local", address: "http://printer.local:8080")]
        let decoded = try ServerStoreFormat.decode(ServerStoreFormat.encode(records)).get()
        #expect(decoded == records)
    }

    @Test("damaged or foreign files are refused with a reason, never half-read", arguments: [
        "", "{", "[]", #"{"servers": []}"#, #"{"schemaVersion": 1}"#, #"{"schemaVersion": 0, "servers": []}"#,
        #"{"schemaVersion": 1, "servers": [{"id": "a", "name": "A", "address": "http://example.org", "installationId": "7c1e2a94-3b6d-4c1e-8f7a-2d3e4b5c6d7e"}]}"#,
        #"{"schemaVersion": 1, "servers": [{"id": "a", "name": "A", "address": "https://a.example", "installationId": "nope"}]}"#,
        #"{"schemaVersion": 1, "servers": [{"id": "A B", "name": "A", "address": "https://a.example", "installationId": "7c1e2a94-3b6d-4c1e-8f7a-2d3e4b5c6d7e"}]}"#,
    ])
    func refusesDamage(_ text: String) {
        guard case .failure = ServerStoreFormat.decode(Array(text.utf8)) else { Issue.record("accepted: \(text)"); return }
    }

    @Test("a store from a newer HostShell is reported as such, so it is not overwritten")
    func newerSchema() {
        #expect(ServerStoreFormat.decode(Array(#"{"schemaVersion": 2, "servers": []}"#.utf8)) == .failure(.newerSchema(2)))
    }

    @Test("identity responses: the contract's shape, at most 16 KiB")
    func identity() throws {
        let good = #"{"data":{"product":"tilecast","apiVersion":"v1","installationId":"7C1E2A94-3B6D-4C1E-8F7A-2D3E4B5C6D7E","organizationName":"Org"}}"#
        #expect(try ServerIdentity.parse(Array(good.utf8)).get() == ServerIdentity(installationId: Self.id, organizationName: "Org"))
        for bad in [#"{"data":{"product":"other","apiVersion":"v1","installationId":"7c1e2a94-3b6d-4c1e-8f7a-2d3e4b5c6d7e","organizationName":"O"}}"#,
                    #"{"data":{"product":"tilecast","apiVersion":"v2","installationId":"7c1e2a94-3b6d-4c1e-8f7a-2d3e4b5c6d7e","organizationName":"O"}}"#,
                    #"{"data":{"product":"tilecast","apiVersion":"v1","installationId":"x","organizationName":"O"}}"#,
                    #"<html>"#, #"{"product":"tilecast"}"#] {
            guard case .failure = ServerIdentity.parse(Array(bad.utf8)) else { Issue.record("accepted \(bad)"); continue }
        }
        let padded = Array(good.utf8) + Array(repeating: 0x20, count: ServerIdentity.maxBytes)
        #expect(ServerIdentity.parse(padded) == .failure(.tooLarge))
    }

    @Test("a changed installation blocks the saved server with an explanation")
    func verdict() {
        let record = Self.record()
        #expect(record.verify(ServerIdentity(installationId: Self.id, organizationName: "Renamed")) == .matches)
        let changed = record.verify(ServerIdentity(installationId: "00000000-0000-4000-8000-000000000000", organizationName: "Org"))
        #expect(changed != .matches)
        #expect(changed.explanation?.contains("remove it and add it again") == true)
    }

    @Test("handles are made from names and kept unique")
    func handles() {
        #expect(ServerRecord.makeId(from: "Lobby Studio!", taken: []) == "lobby-studio")
        #expect(ServerRecord.makeId(from: "Lobby Studio", taken: ["lobby-studio"]) == "lobby-studio-2")
        #expect(ServerRecord.makeId(from: "???", taken: []) == "server")
    }

    @Test("names are 1-200 scalars in the saved list and in an identity; a thousand such servers fit the file limit")
    func nameLengths() throws {
        func store(name: String) -> [UInt8] {
            Array(#"{"schemaVersion": 1, "servers": [{"id": "a", "name": \#(JSONWriter.string(.string(name))), "address": "https://a.example", "installationId": "\#(Self.id)"}]}"#.utf8)
        }
        #expect(ServerRecord.nameLength == 1...200)
        #expect(try ServerStoreFormat.decode(store(name: repeated("\u{1F600}", 200))).get().first?.name.unicodeScalars.count == 200)
        for bad in ["", repeated("a", 201)] {
            guard case .failure = ServerStoreFormat.decode(store(name: bad)) else { Issue.record("accepted a name of \(bad.count)"); continue }
        }
        func identity(_ organization: String) -> [UInt8] {
            Array(#"{"data":{"product":"tilecast","apiVersion":"v1","installationId":"\#(Self.id)","organizationName":\#(JSONWriter.string(.string(organization)))}}"#.utf8)
        }
        #expect(ServerIdentity.organizationNameLength == 1...200)
        #expect((try? ServerIdentity.parse(identity(repeated("\u{E9}", 200))).get()) != nil)
        #expect((try? ServerIdentity.parse(identity(repeated("a", 201))).get()) == nil)
        #expect((try? ServerIdentity.parse(identity("")).get()) == nil)
        // The file limit leaves room for far more servers than anyone saves.
        let longest = (0..<1000).map { index in
            ServerRecord(id: "server-\(index)", name: repeated("\u{1F600}", 200),
                         address: try! ServerAddress.parse("https://" + repeated("a", 60) + ".example.org:65535").get(),
                         identity: ServerIdentity(installationId: Self.id, organizationName: repeated("\u{1F600}", 200)))
        }
        let bytes = ServerStoreFormat.encode(longest)
        #expect(bytes.count < ServerStoreFormat.maxFileBytes / 2, "\(bytes.count) bytes")
        #expect(try ServerStoreFormat.decode(bytes).get().count == 1000)
    }
}
