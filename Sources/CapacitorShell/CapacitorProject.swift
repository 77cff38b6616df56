import Foundation
import CGtk
import CapacitorContract
import HostCore
import ShellKit

/// Finds and reads a Capacitor project's configuration the ways a shell finds it (contract §3):
/// the project's `capacitor.config.json`, the iOS sync output
/// `ios/App/App/capacitor.config.json` with its copied bundle in `ios/App/App/public`, or a
/// `capacitor.config.ts` whose exported object is plain data (`CapacitorConfigSource`, read,
/// never run). Says which file it used, and what to do when there is none.
package enum CapacitorProject {
    package struct Found {
        var config: CapacitorConfig
        /// The file read (nil when only flags described the app).
        var file: String?
        /// The directory `webDir` is relative to.
        var base: String
    }

    /// Where a project directory's configuration may be, in the order they are tried, each
    /// with the directory its `webDir` is relative to and an override of `webDir` (the iOS sync
    /// output's bundle is `public`, whatever `webDir` the project names).
    static func candidates(in directory: String) -> [(file: String, base: String, webDir: String?)] {
        [(directory + "/capacitor.config.json", directory, nil),
         (directory + "/ios/App/App/capacitor.config.json", directory + "/ios/App/App", "public")]
    }

    static func read(_ project: String) throws(UsageError) -> Found {
        var path = project
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        if g_file_test(path, G_FILE_TEST_IS_REGULAR) != 0 {
            let base = takeGString(g_path_get_dirname(path)) ?? "."
            return Found(config: try decode(path), file: path, base: base)
        }
        guard g_file_test(path, G_FILE_TEST_IS_DIR) != 0 else {
            throw UsageError("\(path) is neither a Capacitor project directory nor a capacitor.config.json file")
        }
        for candidate in candidates(in: path) where g_file_test(candidate.file, G_FILE_TEST_EXISTS) != 0 {
            var config = try decode(candidate.file)
            if let webDir = candidate.webDir, config.server.url == nil { config.webDir = webDir }
            return Found(config: config, file: candidate.file, base: candidate.base)
        }
        let ts = path + "/capacitor.config.ts"
        if g_file_test(ts, G_FILE_TEST_EXISTS) != 0 {
            return Found(config: try decode(ts, typeScript: true), file: ts, base: path)
        }
        throw UsageError("no Capacitor configuration in \(path) (looked for capacitor.config.json, ios/App/App/capacitor.config.json "
            + "and capacitor.config.ts); name the app with --web-dir DIR or --url URL (and --app-id ID)")
    }

    private static func decode(_ file: String, typeScript: Bool = false) throws(UsageError) -> CapacitorConfig {
        let bytes = try FileReading.bytes(file, limit: CapacitorConfig.maxBytes)
        guard var text = String(validating: bytes, as: UTF8.self) else { throw UsageError("\(file) is not UTF-8 text") }
        if typeScript {
            switch CapacitorConfigSource.json(fromTypeScript: text) {
            case .success(let json): text = json
            case .failure(let error):
                throw UsageError("\(file) cannot be read without running it: \(error.message); run npx cap sync ios (which writes ios/App/App/capacitor.config.json), or use --web-dir DIR --app-id ID")
            }
        }
        switch CapacitorConfig.decode(text) {
        case .success(let config): return config
        case .failure(let error): throw UsageError("\(file) cannot be used: \(error.message)")
        }
    }

    /// How many directories above a web directory `nearest` looks.
    static let levelsAbove = 4

    /// The directories a web directory's project may be in: its own, then each above it.
    static func around(_ webDir: String) -> [String] {
        var directories: [String] = []
        var path = webDir.hasPrefix("/") ? webDir : FileManager.default.currentDirectoryPath + "/" + webDir
        for _ in 0...levelsAbove {
            while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
            directories.append(path)
            guard let parent = takeGString(g_path_get_dirname(path)), parent != path else { break }
            path = parent
        }
        return directories
    }

    /// For `--web-dir` alone: the nearest project's configuration around the web directory
    /// (its name and id), read as `read` reads it; nil when there is none or it cannot be used
    /// (the flags then describe the app). `--web-dir` still says what is served.
    static func nearest(_ webDir: String) -> Found? {
        for directory in around(webDir) {
            let files = candidates(in: directory).map(\.file) + [directory + "/capacitor.config.ts"]
            guard files.contains(where: { g_file_test($0, G_FILE_TEST_EXISTS) != 0 }) else { continue }
            do throws(UsageError) {
                return try read(directory)
            } catch {
                printError("hostshell: the Capacitor configuration near \(TerminalText.escaped(webDir)) is not used: \(error.message)")
                return nil
            }
        }
        return nil
    }

    /// `version` of the nearest `package.json` around a web directory.
    static func nearestVersion(_ webDir: String) -> String? {
        around(webDir).lazy.compactMap { version(in: $0) }.first
    }

    /// `version` of the project's `package.json`, when it has one.
    static func version(in directory: String) -> String? {
        guard let bytes = try? FileReading.bytes(directory + "/package.json", limit: 4 << 20),
              let object = (try? JSONParser.parse(String(decoding: bytes, as: UTF8.self)))?.objectValue else { return nil }
        return object["version"]?.stringValue
    }
}
