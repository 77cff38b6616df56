import Glibc

/// Whole-file reads with errors a person can act on.
package enum FileReading {
    /// The bytes of `path`, or a `UsageError` that says why they could not be read.
    package static func bytes(_ path: String, limit: Int = 256 << 20) throws(UsageError) -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            throw UsageError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var status = stat()
        if fstat(fileno(file), &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
            throw UsageError("\(path) is a directory, not a file")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count > 0 { bytes.append(contentsOf: chunk[0..<count]) }
            if bytes.count > limit { throw UsageError("\(path) is larger than \(limit >> 20) MiB") }
            if count < chunk.count {
                if ferror(file) != 0 { throw UsageError("cannot read \(path): \(String(cString: strerror(errno)))") }
                return bytes
            }
        }
    }
}
