import HostCore

/// The timers of an upload batch: the pause before a step is tried again, and the pause
/// between two polls of an asset's processing.
public enum UploadTimer: String, Hashable, Sendable, CaseIterable { case retry, poll }

/// A chunk of the file in progress to read into one of the host's chunk buffers; the host
/// reports it back with `.chunkRead(read, ok:)`.
public struct ChunkRead: Sendable, Equatable {
    public var file: Int
    public var offset: Int
    public var length: Int
    public var buffer: Int

    public init(file: Int, offset: Int, length: Int, buffer: Int) {
        self.file = file; self.offset = offset; self.length = length; self.buffer = buffer
    }
}

/// What happened to an upload batch.
public enum UploadEvent: Sendable, Equatable {
    case start
    /// The host opened file `file` for reading, or could not (`error` says why, for the person).
    case fileOpened(file: Int, error: String?)
    /// A `.readChunk` finished: `ok` when every byte was read.
    case chunkRead(ChunkRead, ok: Bool)
    /// The server answered a `.send` (status 0: no answer came).
    case answered(UploadRequest, UploadResponse)
    /// The `.refreshCredential` asked for finished: a fresh credential, or none.
    case credentialRefreshed(Bool)
    case timerFired(UploadTimer)
    /// The person cancelled the batch.
    case cancel
}

/// What the host does for an upload batch.
public enum UploadEffect: Sendable, Equatable {
    case openFile(Int)
    case closeFile(Int)
    /// Read the chunk into its buffer — never the buffer of a request in flight.
    case readChunk(ChunkRead)
    /// Send the request (one awaited at a time; a `.delete` is not awaited).
    case send(UploadRequest)
    /// Abort the request in flight; its answer must not be reported.
    case abortRequest
    /// Get a fresh credential (a step was answered 401).
    case refreshCredential
    case timer(TimerCommand<UploadTimer>)
    case progress(UploadProgress)
    /// File `file` is complete at the server (its processing is polled next).
    case uploadCompleted(file: Int)
    /// File `file` is done with: uploaded when `problem` is nil.
    case fileFinished(file: Int, problem: UploadProblem?)
    /// The batch is over; nothing more will be asked.
    case batchDone(UploadSummary)
}
