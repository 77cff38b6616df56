import BridgeRuntime
import CGtk

/// Finds and reads a Capacitor project's configuration as `cap sync` leaves it (contract §3):
/// the project's `capacitor.config.json`, or the iOS sync output
/// `ios/App/App/capacitor.config.json` with its copied bundle in `ios/App/App/public`. Says
/// which file it used, and what to do when there is none.
enum CapacitorProject {
    struct Found {
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
        let ts = g_file_test(path + "/capacitor.config.ts", G_FILE_TEST_EXISTS) != 0
        throw UsageError("no capacitor.config.json in \(path) (looked for capacitor.config.json and ios/App/App/capacitor.config.json)"
            + (ts ? "; it has capacitor.config.ts, which is not read: run npx cap sync ios, or name the app with --web-dir DIR --app-id ID" : "; name the app with --web-dir DIR or --url URL (and --app-id ID)"))
    }

    private static func decode(_ file: String) throws(UsageError) -> CapacitorConfig {
        let bytes = try FileReading.bytes(file, limit: CapacitorConfig.maxBytes)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw UsageError("\(file) is not UTF-8 text") }
        switch CapacitorConfig.decode(text) {
        case .success(let config): return config
        case .failure(let error): throw UsageError("\(file) cannot be used: \(error.message)")
        }
    }

    /// `version` of the project's `package.json`, when it has one.
    static func version(in directory: String) -> String? {
        guard let bytes = try? FileReading.bytes(directory + "/package.json", limit: 4 << 20),
              let object = (try? JSONParser.parse(String(decoding: bytes, as: UTF8.self)))?.objectValue else { return nil }
        return object["version"]?.stringValue
    }
}
