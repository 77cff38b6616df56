@testable import CapacitorContract
@testable import HomeSec
@testable import HostCore
@testable import Push
@testable import StudioContract
import Testing

/// The identifier and token checks were rewritten for speed (length first, then one class test
/// per byte); these are the per-byte versions they replaced (commit 72e5f6a), as the oracle.
/// The catalog's differential test cannot catch a change here: both of its decoders use these.
enum ReferencePatterns {
    static func isIdentifier(_ bytes: UnsafeBufferPointer<UInt8>, maxLength: Int) -> Bool {
        var count = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): break
            case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"):
                if count == 0 { return false }
            default: return false
            }
            count += 1
            if count > maxLength { return false }
        }
        return count > 0
    }

    static func isToken(_ bytes: UnsafeBufferPointer<UInt8>, maxLength: Int) -> Bool {
        var count = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): break
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                if count == 0 { return false }
            default: return false
            }
            count += 1
            if count > maxLength { return false }
        }
        return count > 0
    }
}

@Suite("Patterns, differential")
struct PatternDifferentialTests {
    /// Every one- and two-byte text, then seeded texts of every short length and around the limits.
    @Test("identifier and token checks agree with the per-byte versions")
    func agree() {
        var mismatches: [String] = []
        var accepted = 0
        func check(_ bytes: [UInt8]) {
            bytes.withUnsafeBufferPointer { b in
                for maxLength in [1, 2, 3, 32, 40, 64, 128] {
                    let id = Patterns.isIdentifier(b, maxLength: maxLength), token = Patterns.isToken(b, maxLength: maxLength)
                    if id != ReferencePatterns.isIdentifier(b, maxLength: maxLength) { mismatches.append("identifier \(bytes) ≤\(maxLength)") }
                    if token != ReferencePatterns.isToken(b, maxLength: maxLength) { mismatches.append("token \(bytes) ≤\(maxLength)") }
                    if id { accepted += 1 }
                }
            }
        }
        check([])
        for a in 0...255 {
            check([UInt8(a)])
            for b in 0...255 { check([UInt8(a), UInt8(b)]) }
        }
        // Every length up to two words and the limits, mostly valid bytes, and in half of them
        // one arbitrary byte planted anywhere (the checks read words: every lane must count).
        var rng = SeededGenerator(state: 0xB17E5)
        let valid = Array("abcxyz0189.-_:".utf8)
        for _ in 0..<100_000 {
            let count = Bool.random(using: &rng) ? Int.random(in: 0...17, using: &rng)
                : [31, 32, 33, 39, 40, 41, 63, 64, 65, 127, 128, 129].randomElement(using: &rng)!
            var bytes = (0..<count).map { _ in valid.randomElement(using: &rng)! }
            if count > 0 && Bool.random(using: &rng) {
                bytes[Int.random(in: 0..<count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            check(bytes)
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
        #expect(accepted > 10_000)
    }
}
