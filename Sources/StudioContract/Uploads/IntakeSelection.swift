/// Which of the paths the person picked a media intake uploads: at most one unless Studio asked
/// for several (and then at most `UploadProtocol.maxFilesPerIntake`), only regular files, only
/// the kinds asked for. The others are refused, each with a line for the log.
public struct IntakeSelection: Sendable, Equatable {
    public struct Pick: Sendable, Equatable {
        public var path: String
        public var file: UploadFile

        public init(path: String, file: UploadFile) { self.path = path; self.file = file }
    }

    public var picks: [Pick]
    /// Why each refused path is not uploaded.
    public var refusals: [String]

    /// `size` is the host's look at a path: the size of the regular file there, nil when there
    /// is none it can read.
    public init(_ paths: [String], for request: MediaIntakeRequest, size: (String) -> Int?) {
        picks = []
        refusals = []
        for path in paths.prefix(request.multiple ? UploadProtocol.maxFilesPerIntake : 1) {
            let name = path.split(separator: "/").last.map(String.init) ?? "file"
            guard let bytes = size(path) else {
                refusals.append("\(path) cannot be uploaded: it is not a readable file")
                continue
            }
            guard let type = UploadProtocol.mimeType(forFileName: name, kinds: request.kinds) else {
                let kinds = request.kinds.map { $0 == .image ? "an image" : "a video" }.joined(separator: " or ")
                refusals.append("\(name) is not \(kinds); it is skipped")
                continue
            }
            picks.append(Pick(path: path, file: UploadFile(name: name, size: bytes, mimeType: type)))
        }
    }

    /// Studio's outcome when nothing is left to upload: cancelled when nothing was picked.
    public var outcomeWithoutFiles: MediaIntakeOutcome { refusals.isEmpty ? .cancelled : .failed }
}
