import Foundation
import Testing

/// `scripts/check-layers` on a copy of this checkout: each rule, broken once, is reported by
/// name and fails the check (exit 1); what the checkout reports anyway is no more than before.
/// (scripts/test runs the checker on the checkout itself, so CI fails on a real break.)
@Suite("scripts/check-layers: the target graph's rules")
struct LayerCheckTests {
    struct Outcome {
        var status: Int32
        var problems: Set<String>
    }

    static func check(_ root: URL) throws -> Outcome {
        let process = Process()
        process.executableURL = HostShellBinary.root.appendingPathComponent("scripts/check-layers")
        process.arguments = [root.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        return Outcome(status: process.terminationStatus, problems: Set(lines.filter { !$0.contains("targets, every edge allowed") }))
    }

    /// A throw-away copy of what the checker reads: Package.swift, Sources and Tests.
    static func copyOfCheckout() throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-layers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for item in ["Package.swift", "Sources", "Tests"] {
            try FileManager.default.copyItem(at: HostShellBinary.root.appendingPathComponent(item), to: copy.appendingPathComponent(item))
        }
        return copy
    }

    static func prepend(_ line: String, to file: URL) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        try (line + "\n" + text).write(to: file, atomically: true, encoding: .utf8)
    }

    @Test("an edge, a file size, a singleton and an unretained pointer out of place are each named, and fail the check")
    func breaksAreNamed() throws {
        let copy = try Self.copyOfCheckout()
        defer { try? FileManager.default.removeItem(at: copy) }
        let before = try Self.check(copy)
        let sources = copy.appendingPathComponent("Sources")
        // Capacitor's contract reaching into Studio's, the host core into GTK, a shell into the fixtures.
        try Self.prepend("import StudioContract", to: sources.appendingPathComponent("CapacitorContract/CapacitorWire.swift"))
        try Self.prepend("import CGtk", to: sources.appendingPathComponent("HostCore/JSON/JSONValue.swift"))
        try Self.prepend("import DevFixtures", to: sources.appendingPathComponent("StudioShell/App/ShellApp.swift"))
        // The graph in Package.swift gaining a Studio ↔ Capacitor edge.
        let package = copy.appendingPathComponent("Package.swift")
        let manifest = try String(contentsOf: package, encoding: .utf8)
        let edged = manifest.replacingOccurrences(of: #".target(name: "CapacitorContract", dependencies: ["HostCore", "Push"]"#,
                                                  with: #".target(name: "CapacitorContract", dependencies: ["HostCore", "Push", "StudioContract"]"#)
        #expect(edged != manifest, "Package.swift's CapacitorContract line moved; update this test")
        try edged.write(to: package, atomically: true, encoding: .utf8)
        // A pure file over 400 lines, a glue file over 300, a singleton, an unowned connection.
        try (Array(repeating: "// line", count: 401).joined(separator: "\n") + "\n")
            .write(to: sources.appendingPathComponent("HostCore/Host/Long.swift"), atomically: true, encoding: .utf8)
        try (Array(repeating: "// line", count: 301).joined(separator: "\n") + "\n")
            .write(to: sources.appendingPathComponent("ShellKit/Long.swift"), atomically: true, encoding: .utf8)
        try "enum Clipboard { static let shared = 1 }\nlet x = Clipboard.shared\nlet p = Unmanaged.passUnretained(NSObject())\n"
            .write(to: sources.appendingPathComponent("ShellKit/Clipboard.swift"), atomically: true, encoding: .utf8)

        let after = try Self.check(copy)
        #expect(after.status == 1)
        let new = after.problems.subtracting(before.problems)
        let expected = [
            "Sources/CapacitorContract/CapacitorWire.swift: CapacitorContract (pure) may not import StudioContract",
            "Sources/HostCore/JSON/JSONValue.swift: HostCore (pure) may not import CGtk",
            "Sources/StudioShell/App/ShellApp.swift: StudioShell (glue) may not import DevFixtures",
            "Package.swift: CapacitorContract (pure) may not depend on StudioContract",
            "Sources/HostCore/Host/Long.swift: 401 lines; a pure file has at most 400",
            "Sources/ShellKit/Long.swift: 301 lines; a glue file has at most 300",
            "Sources/ShellKit/Clipboard.swift: Clipboard.shared",
            "Sources/ShellKit/Clipboard.swift: declares a static shared",
            "Sources/ShellKit/Clipboard.swift: Unmanaged.passUnretained",
        ]
        for fragment in expected {
            #expect(new.contains { $0.contains(fragment) }, "not reported: \(fragment)\nreported: \(new.sorted().joined(separator: "\n"))")
        }
        #expect(new.count == expected.count, "\(new.sorted().joined(separator: "\n"))")
    }

    @Test("the checkout itself reports nothing but what it reported before a break; a folder that is no checkout is exit 2")
    func checkoutAndMisuse() throws {
        let copy = try Self.copyOfCheckout()
        defer { try? FileManager.default.removeItem(at: copy) }
        let pristine = try Self.check(copy)
        let real = try Self.check(HostShellBinary.root)
        #expect(pristine.problems.sorted() == real.problems.sorted())
        #expect(real.status == (real.problems.isEmpty ? 0 : 1))
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-layers-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(try Self.check(empty).status == 2)
    }
}
