import Glibc

/// The names in a directory, read with `opendir`/`readdir` — every file kind, without `.` and
/// `..`; none when it cannot be opened.
package enum DirectoryNames {
    package nonisolated static func of(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
