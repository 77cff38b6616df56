import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Foundation
import Testing

@Suite("Saved-servers store: what is read, kept aside, swept, and how the running app follows")
struct ServerStoreRulesTests {
    static func record(_ id: String, _ n: Int, installation: String? = nil, name: String? = nil) -> ServerRecord {
        ServerRecord(id: id, name: name ?? id.uppercased(), address: try! ServerAddress.parse("https://s\(n).example.org").get(),
                     identity: ServerIdentity(installationId: installation ?? String(format: "7c1e2a94-3b6d-4c1e-8f7a-%012d", n), organizationName: "Org"))
    }

    @Test("only a regular file of a sane size is read; anything else is refused with what it is")
    func entries() {
        let path = "/u/a/.config/hostshell/servers.json"
        #expect(ServerStoreRules.refusal(.missing, path: path) == nil)
        #expect(ServerStoreRules.refusal(.regular(size: 0), path: path) == nil)
        #expect(ServerStoreRules.refusal(.regular(size: ServerStoreFormat.maxFileBytes), path: path) == nil)
        let cases: [(StoreEntry, String)] = [
            (.regular(size: ServerStoreFormat.maxFileBytes + 1), "larger than any server list"), (.directory, "is a directory"),
            (.fifo, "is a named pipe"), (.socket, "is a socket"), (.characterDevice, "is a device"), (.blockDevice, "is a device"),
            (.brokenLink, "symbolic link"), (.other, "not a regular file"),
        ]
        for (entry, words) in cases {
            let refusal = ServerStoreRules.refusal(entry, path: path)
            #expect(refusal?.contains(words) == true && refusal?.contains(path) == true && refusal?.contains("Move it away") == true, "\(entry): \(refusal ?? "nil")")
        }
    }

    @Test("kept copies of damaged lists: the time in UTC, then a number — never one name twice")
    func damagedNames() {
        #expect(ServerStoreRules.damagedName(utcSeconds: 0, attempt: 1) == "servers.json.damaged-19700101T000000Z")
        #expect(ServerStoreRules.damagedName(utcSeconds: 1_764_586_388, attempt: 1) == "servers.json.damaged-20251201T105308Z")
        #expect(ServerStoreRules.damagedName(utcSeconds: 951_782_400, attempt: 2) == "servers.json.damaged-20000229T000000Z-2")
        let names = (1...ServerStoreRules.maxDamagedAttempts).map { ServerStoreRules.damagedName(utcSeconds: 1_764_586_388, attempt: $0) }
        #expect(Set(names).count == names.count)
    }

    @Test("stale temporaries are the list's own, and only those")
    func temporaries() {
        let names = [".", "..", "servers.json", "servers.json.lock", "servers.json.tmp-4242", ServerStoreRules.temporaryName(pid: 7),
                     "servers.json.tmp-", "servers.json.tmp-12x", "credential.json.tmp-99", "servers.json.damaged-20251201T105308Z"]
        #expect(ServerStoreRules.staleTemporaries(among: names) == ["servers.json.tmp-4242", "servers.json.tmp-7"])
    }

    @Test("20,000 servers decode in time linear in their number (a duplicate id is still found)")
    func manyServers() throws {
        func list(_ count: Int) -> [UInt8] { ServerStoreFormat.encode((0..<count).map { Self.record("s\($0)", $0) }) }
        func seconds(_ bytes: [UInt8]) -> Double {
            (0..<3).map { _ in
                let start = Date()
                _ = ServerStoreFormat.decode(bytes)
                return Date().timeIntervalSince(start)
            }.min()!
        }
        let small = list(5_000), large = list(20_000)
        #expect(large.count < ServerStoreFormat.maxFileBytes, "20,000 ordinary servers fit the file limit")
        #expect(try ServerStoreFormat.decode(large).get().count == 20_000)
        // Four times the servers: about four times the time when linear, sixteen when quadratic.
        let ratio = seconds(large) / seconds(small)
        #expect(ratio < 8, "20,000 servers took \(ratio)× the time of 5,000")
        var twice = (0..<20_000).map { Self.record("s\($0)", $0) }
        twice.append(Self.record("s7", 20_001))
        #expect(ServerStoreFormat.decode(ServerStoreFormat.encode(twice)) == .failure(.invalid("server 20001: id s7 is used twice")))
    }

    @Test("what changed: added, removed, replaced under the same id, renamed")
    func change() {
        let a = Self.record("a", 1), b = Self.record("b", 2), c = Self.record("c", 3)
        let change = ServerListChange(from: [a, b, c], to: [Self.record("a", 1, name: "Renamed"), Self.record("c", 9), Self.record("d", 4)])
        #expect(change.added == ["d"] && change.removed == ["b"] && change.replaced == ["c"] && change.renamed == ["a"])
        #expect(ServerListChange(from: [a, b], to: [a, b]).isEmpty)
    }

    @Test("the running app follows the store: the server on screen is closed before any data goes")
    func follower() {
        let a = Self.record("a", 1), b = Self.record("b", 2), c = Self.record("c", 3)
        func react(_ old: [ServerRecord], _ new: [ServerRecord], shown: String) -> [ServerListEffect] {
            ServerListFollower.reaction(to: ServerListChange(from: old, to: new), shown: shown, now: new)
        }
        #expect(react([a], [a], shown: "a") == [])
        #expect(react([a], [a, b], shown: "a") == [.updateSwitcher], "a new server is offered, the one shown stays")
        #expect(react([a, b], [a], shown: "a") == [.forget("b"), .updateSwitcher], "a server not shown: its data goes, the page stays")
        #expect(react([a, b, c], [b, c], shown: "a") == [.show("b"), .forget("a"), .updateSwitcher])
        #expect(react([a], [], shown: "a").prefix(2) == [.closeShown, .forget("a")])
        guard case .quit(let message)? = react([a], [], shown: "a").last else { Issue.record("the app did not end"); return }
        #expect(message.contains("server add"))
        let replaced = Self.record("a", 7)
        #expect(react([a, b], [replaced, b], shown: "a") == [.closeShown, .forget("a"), .show("a"), .updateSwitcher],
                "another server under the same id: the old session and data go before a fresh one starts")
        #expect(react([a, b], [Self.record("a", 1, name: "New name"), b], shown: "a") == [.updateSwitcher])
    }
}

@Suite("Profile file rules: what is read, refused or damaged; the kept-aside names")
struct ProfileFileRulesTests {
    @Test("a file is read; nothing is absent; too large is damaged; a FIFO, a link to nothing and the rest are refused")
    func plans() {
        let plan = { (entry: ProfileFileEntry) in ProfileFileRules.plan(entry, path: "/p/push.json", what: "the push registration", limit: 4096) }
        #expect(plan(.missing) == .absent && plan(.regular(size: 4096)) == .read)
        guard case .damaged(let problem) = plan(.regular(size: 40 << 20)) else { Issue.record("40 MB read"); return }
        #expect(problem.contains("41943040 bytes") && problem.contains("4096"))
        for (entry, word) in [(ProfileFileEntry.fifo, "FIFO"), (.brokenLink, "symbolic link"), (.directory, "directory"), (.device, "device"), (.socket, "socket")] {
            guard case .refused(let why) = plan(entry) else { Issue.record("\(entry) not refused"); continue }
            #expect(why.contains(word) && why.contains("/p/push.json") && why.contains("neither reads nor replaces"), "\(why)")
        }
    }

    @Test("kept-aside names: the UTC time, then a number; servers.json's are the same rule")
    func names() {
        #expect(ProfileFileRules.damagedName("push.json", utcSeconds: 0, attempt: 1) == "push.json.damaged-19700101T000000Z")
        #expect(ProfileFileRules.damagedName("push.json", utcSeconds: 0, attempt: 2) == "push.json.damaged-19700101T000000Z-2")
        #expect(ServerStoreRules.damagedName(utcSeconds: 0, attempt: 3) == "servers.json.damaged-19700101T000000Z-3")
    }
}
