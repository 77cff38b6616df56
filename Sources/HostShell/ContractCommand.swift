import CapacitorContract
import HomeSec
import HostCore
import StudioContract

/// `hostshell contract check FILE…`: runs conformance corpora against the bridge codec.
enum ContractCommand {
    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.first == "check" else {
            throw UsageError("usage: hostshell contract check FILE… (a Studio corpus in the format of messages-v1.json, or a Capacitor wire corpus with \"contract\": \"capacitor-shell\")")
        }
        let files = Array(arguments.dropFirst())
        guard !files.isEmpty else { throw UsageError("contract check needs at least one corpus file") }
        if let option = files.first(where: { $0.hasPrefix("-") }) {
            throw UsageError("contract check takes no option \"\(option)\"")
        }
        // Load every file first, so a bad file is reported before any result is printed.
        var corpora: [(String, Corpus)] = []
        var capacitor: [(String, CapacitorCorpus)] = []
        for path in files {
            let bytes = try FileReading.bytes(path)
            let document: JSONValue
            do { document = try JSONParser.parse(bytes: bytes) } catch {
                throw UsageError("\(path) is not a conformance corpus: it is not JSON (\(error))")
            }
            if CapacitorCorpus.isCapacitorCorpus(document) {
                do { capacitor.append((path, try CapacitorCorpus(document, available: CapacitorPlugins.combined(CapacitorPlugins.standard, HomeSecPluginTypes.all)))) } catch {
                    throw UsageError("\(path) is not a Capacitor corpus: \(error.description)")
                }
                continue
            }
            do { corpora.append((path, try Corpus(document))) } catch {
                throw UsageError("\(path) is not a conformance corpus: \(error.description)")
            }
        }
        var passed = 0
        var failed = 0
        for (path, corpus) in corpora {
            let report = ConformanceRunner.run(corpus)
            for result in report.cases where !result.passed {
                printOut("FAIL \(path) case \(result.index): \(result.name)")
                for mismatch in result.mismatches { printOut("  \(mismatch.field)\n    expected: \(mismatch.expected)\n    actual:   \(mismatch.actual)") }
            }
            for mismatch in report.deepLinkFailures {
                printOut("FAIL \(path) \(mismatch.field)\n    expected: \(mismatch.expected)\n    actual:   \(mismatch.actual)")
            }
            if !report.uncheckedFields.isEmpty {
                printError("note: \(path): fields this runner does not check: \(report.uncheckedFields.joined(separator: ", "))")
            }
            printOut("\(path): \(report.cases.count) cases, \(report.deepLinkChecked) deep-link paths: \(report.summaryLine)")
            passed += report.passed
            failed += report.failed
        }
        for (path, corpus) in capacitor {
            let report = CapacitorConformanceRunner.run(corpus)
            if let mismatch = report.headerFailure {
                printOut("FAIL \(path) \(mismatch.field)\n    expected: \(mismatch.expected)\n    actual:   \(mismatch.actual)")
            }
            for result in report.cases where !result.passed {
                printOut("FAIL \(path) case \(result.index): \(result.name)")
                for mismatch in result.mismatches { printOut("  \(mismatch.field)\n    expected: \(mismatch.expected)\n    actual:   \(mismatch.actual)") }
            }
            printOut("\(path): \(report.cases.count) Capacitor wire cases: \(report.summaryLine)")
            passed += report.passed
            failed += report.failed
        }
        printOut("\(passed) passed, \(failed) failed")
        return failed == 0 ? ExitCode.success : ExitCode.failure
    }
}
