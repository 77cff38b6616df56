import HostCore

/// One file of a media intake, as the upload machine knows it (the host keeps where it lives).
public struct UploadFile: Sendable, Equatable {
    public var name: String
    public var size: Int
    public var mimeType: String

    public init(name: String, size: Int, mimeType: String) {
        self.name = name; self.size = max(0, size); self.mimeType = mimeType
    }
}

/// Why a file was not uploaded.
public enum UploadProblem: Sendable, Equatable {
    /// The file could not be opened; the system's reason.
    case unreadable(String)
    /// A chunk could not be read whole: the file is shorter than it was.
    case changedWhileReading
    /// The server's final answer to a step (after retries and the one credential refresh).
    case status(Int)
    /// The server answered, but not as the protocol says (no id, an offset out of range …).
    case notUnderstood
    /// `complete` still answered 409 (incomplete) after the resends allowed.
    case incomplete
    /// The server kept refusing the chunks' offset without moving on.
    case noProgress
    /// The asset's processing failed at the server.
    case processingFailed
    /// The asset was still processing after the last poll.
    case processingTimedOut

    /// Worded for the person: "NAME was not uploaded: …".
    public var message: String {
        switch self {
        case .unreadable(let reason): return "it could not be read (\(reason))"
        case .changedWhileReading: return "it could not be read to the end (it may have changed)"
        case .status(let status): return UploadProtocol.problem(status: status)
        case .notUnderstood: return "the server's answer was not understood"
        case .incomplete: return "the server did not receive all of it"
        case .noProgress: return "the server kept refusing its progress"
        case .processingFailed: return "the server could not process it"
        case .processingTimedOut: return "the server did not finish processing it in time"
        }
    }
}

/// A file of the batch that was not uploaded, and why.
public struct UploadFailure: Sendable, Equatable {
    public var name: String
    public var reason: UploadProblem
    public var problem: String { reason.message }
    /// "NAME was not uploaded: PROBLEM".
    public var sentence: String { "\(name) was not uploaded: \(problem)" }

    public init(name: String, reason: UploadProblem) { self.name = name; self.reason = reason }
}

/// How a batch ended: what Studio hears (`outcome`, `uploaded`) and what the person is told.
public struct UploadSummary: Sendable, Equatable {
    public var uploaded: Int
    public var failed: [UploadFailure]
    public var cancelled: Bool
    /// Files refused before the batch started (not a file, not a kind asked for).
    public var refused: Int

    public init(uploaded: Int, failed: [UploadFailure], cancelled: Bool, refused: Int = 0) {
        self.uploaded = uploaded; self.failed = failed; self.cancelled = cancelled; self.refused = refused
    }

    public var outcome: MediaIntakeOutcome {
        UploadProtocol.outcome(uploaded: uploaded, failed: failed.count + refused, cancelled: cancelled)
    }

    /// The notice for the person, nil when everything went.
    public var notice: String? {
        if let first = failed.first {
            let others = failed.count > 1 ? " (and \(failed.count - 1) more)" : ""
            return "\(first.sentence)\(others)."
        }
        return cancelled ? "Upload cancelled." : nil
    }

    /// For state dumps.
    public var json: JSONValue {
        ["outcome": .string(outcome.rawValue), "uploaded": .number(Double(uploaded)),
         "failed": .array(failed.map { ["name": .string($0.name), "problem": .string($0.problem)] }),
         "notice": notice.map(JSONValue.string) ?? .null]
    }
}

/// Where a batch is, for the progress panel.
public struct UploadProgress: Sendable, Equatable {
    public var fileIndex: Int
    public var fileCount: Int
    public var fileName: String
    public var fileBytes: Int
    public var fileSize: Int
    public var totalBytes: Int
    public var totalSize: Int

    public init(fileIndex: Int, fileCount: Int, fileName: String, fileBytes: Int, fileSize: Int, totalBytes: Int, totalSize: Int) {
        self.fileIndex = fileIndex; self.fileCount = fileCount; self.fileName = fileName
        self.fileBytes = fileBytes; self.fileSize = fileSize; self.totalBytes = totalBytes; self.totalSize = totalSize
    }

    /// This file's part done, 0…1 (an empty file is done at once).
    public var fileFraction: Double { fileSize > 0 ? Double(fileBytes) / Double(fileSize) : 1 }
    /// The batch's part done, 0…1.
    public var totalFraction: Double { totalSize > 0 ? Double(totalBytes) / Double(totalSize) : 1 }

    /// "Uploading 2 of 3: clip.mp4 — 40 %".
    public var label: String {
        let percent = fileSize > 0 ? fileBytes * 100 / fileSize : 100
        return "Uploading \(fileIndex + 1) of \(fileCount): \(fileName) — \(percent) %"
    }

    /// What the panel says before the first file starts.
    public static func preparing(fileCount: Int) -> String {
        "Preparing \(fileCount) file\(fileCount == 1 ? "" : "s")…"
    }
}
