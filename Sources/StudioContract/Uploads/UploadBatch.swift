import HostCore

/// Media intake's uploads as a pure state machine (CONTRACT.md §4 "Media intake"): the files
/// one after another — create, PATCH chunks read into two buffers (the next is read while the
/// current one travels), resync with HEAD on 409, complete (resent after a 409), poll the asset
/// until it is processed — with retries on the contract's schedule, one credential refresh per
/// file after a 401, DELETE for an upload abandoned, and the batch's summary at the end. The
/// host does the HTTP, the file reading and the timers, and reports back.
public struct UploadBatch: Machine, Sendable, Equatable {
    /// Chunk buffers the host keeps, each `UploadProtocol.chunkSize` bytes.
    public static let bufferCount = 2

    public enum Phase: Sendable, Equatable {
        case idle
        case opening
        /// Waiting for the chunk to send to be read into `buffer`.
        case reading(buffer: Int)
        case requesting(UploadRequest)
        /// The `.retry` timer runs; then the request goes again.
        case retrying(UploadRequest)
        /// The credential is being refreshed; then the request goes again.
        case refreshing(UploadRequest)
        /// The `.poll` timer runs; then the asset is asked again.
        case waitingToPoll(assetId: String)
        case done
    }

    /// What a chunk buffer holds.
    enum Slot: Sendable, Equatable { case empty, reading(ChunkRead), holds(offset: Int, length: Int) }

    public let files: [UploadFile]
    /// Files refused before the batch (they count as failed in the outcome).
    public let refused: Int
    public private(set) var phase: Phase = .idle
    public private(set) var timers = TimerSet<UploadTimer>()
    /// The file in progress (`files.count` once all are done).
    public private(set) var index = 0
    /// The open upload of the file in progress: DELETEd when it is abandoned.
    public private(set) var uploadId: String?
    /// The bytes of the file in progress the server has.
    public private(set) var offset = 0
    /// Retries of the current step so far.
    public private(set) var attempt = 0
    public private(set) var uploaded = 0
    public private(set) var failed: [UploadFailure] = []
    private var refreshed = false
    private var completeResends = 0
    private var polls = 0
    private var stalls = 0
    private var slots = [Slot](repeating: .empty, count: bufferCount)
    private var doneBytes = 0
    private let totalSize: Int

    public init(files: [UploadFile], refused: Int = 0) {
        self.files = files
        self.refused = refused
        totalSize = files.reduce(0) { $0 + $1.size }
    }

    /// Where the batch is, nil before the first file and after the last.
    public var progress: UploadProgress? {
        guard phase != .idle, phase != .done, files.indices.contains(index) else { return nil }
        return UploadProgress(fileIndex: index, fileCount: files.count, fileName: files[index].name, fileBytes: offset,
                              fileSize: files[index].size, totalBytes: doneBytes + offset, totalSize: totalSize)
    }

    public mutating func reduce(_ event: UploadEvent) -> [UploadEffect] {
        switch event {
        case .start:
            return phase == .idle ? begin(file: 0) : []
        case .fileOpened(let file, let error):
            guard phase == .opening, file == index else { return [] }
            if let error { return fail(.unreadable(error)) }
            return report() + issue(.create(files[index]))
        case .chunkRead(let read, let ok):
            guard phase != .done, read.file == index, slots.indices.contains(read.buffer),
                  slots[read.buffer] == .reading(read) else { return [] }
            slots[read.buffer] = ok ? .holds(offset: read.offset, length: read.length) : .empty
            guard phase == .reading(buffer: read.buffer) else { return [] }  // a read-ahead
            return ok ? sendChunk() : fail(.changedWhileReading)
        case .answered(let request, let response):
            guard case .requesting(let awaited) = phase, awaited == request else { return [] }
            return answered(request, response)
        case .credentialRefreshed(let ok):
            guard case .refreshing(let request) = phase else { return [] }
            return ok ? resend(request) : fail(.status(401))
        case .timerFired(let name):
            guard timers.fire(name) else { return [] }
            switch (name, phase) {
            case (.retry, .retrying(let request)): return resend(request)
            case (.poll, .waitingToPoll(let asset)): return issue(.poll(assetId: asset))
            default: return []
            }
        case .cancel:
            return cancel()
        }
    }

    // MARK: the steps

    private mutating func answered(_ request: UploadRequest, _ response: UploadResponse) -> [UploadEffect] {
        let size = files[index].size
        switch (request, response.status) {
        case (.create, 201):
            guard let session = UploadProtocol.session(from: response.body), session.offset <= size else { return fail(.notUnderstood) }
            uploadId = session.id
            if let limit = session.maximumSizeBytes, size > limit { return fail(.status(413)) }
            return moved(to: session.offset)
        case (.patch(_, let sent, let length, _), 204):
            let header = response.headers["upload-offset"]
            guard let next = header == nil ? sent + length : UploadProtocol.offset(header: header, size: size) else {
                return fail(.notUnderstood)
            }
            if next > sent { stalls = 0 } else if let stalled = stalled() { return stalled }
            return moved(to: next)
        case (.patch(let id, _, _, _), 409):
            return stalled() ?? issue(.head(uploadId: id))
        case (.head, 200):
            guard let at = UploadProtocol.offset(header: response.headers["upload-offset"], size: size) else { return fail(.notUnderstood) }
            return moved(to: at)
        case (.complete, 200):
            guard let asset = UploadProtocol.assetId(from: response.body) else { return fail(.notUnderstood) }
            uploadId = nil
            return [.uploadCompleted(file: index)] + issue(.poll(assetId: asset))
        case (.complete(let id), 409):
            guard completeResends < UploadProtocol.maxCompleteResends else { return fail(.incomplete) }
            completeResends += 1
            return issue(.head(uploadId: id))
        case (.poll(let asset), 200):
            switch UploadProtocol.processing(from: response.body) {
            case .ready: return end(nil)
            case .failed: return fail(.processingFailed)
            case .pending:
                polls += 1
                guard polls < UploadProtocol.maxPolls else { return fail(.processingTimedOut) }
                phase = .waitingToPoll(assetId: asset)
                return [.timer(timers.start(.poll, after: UploadProtocol.pollInterval))]
            }
        default:
            return stepFailed(request, status: response.status)
        }
    }

    /// A PATCH moved the server nowhere: nil while that may go on, else the file's failure.
    private mutating func stalled() -> [UploadEffect]? {
        stalls += 1
        return stalls > UploadProtocol.maxStalledChunks ? fail(.noProgress) : nil
    }

    /// The server has `newOffset` bytes: report it and go on from there.
    private mutating func moved(to newOffset: Int) -> [UploadEffect] {
        let changed = newOffset != offset
        offset = newOffset
        guard let id = uploadId else { return [] }
        return (changed ? report() : []) + (offset >= files[index].size ? issue(.complete(uploadId: id)) : sendChunk())
    }

    /// PATCHes the chunk at `offset` once it is in a buffer, reading it first when it is not.
    private mutating func sendChunk() -> [UploadEffect] {
        guard let id = uploadId else { return [] }
        let size = files[index].size
        let length = min(UploadProtocol.chunkSize, size - offset)
        if let buffer = slots.firstIndex(of: .holds(offset: offset, length: length)) {
            var effects = issue(.patch(uploadId: id, offset: offset, length: length, buffer: buffer))
            // The next chunk goes into the other buffer while this one travels.
            let ahead = offset + length, other = (buffer + 1) % Self.bufferCount
            let read = ChunkRead(file: index, offset: ahead, length: min(UploadProtocol.chunkSize, size - ahead), buffer: other)
            if ahead < size, slots[other] != .holds(offset: read.offset, length: read.length), slots[other] != .reading(read) {
                slots[other] = .reading(read)
                effects.append(.readChunk(read))
            }
            return effects
        }
        // Not in a buffer: wait for it when it is being read, else read it where nothing is.
        if let buffer = slots.indices.first(where: { slots[$0] == .reading(ChunkRead(file: index, offset: offset, length: length, buffer: $0)) }) {
            phase = .reading(buffer: buffer)
            return []
        }
        let buffer = slots.firstIndex { if case .reading = $0 { false } else { true } } ?? 0
        let read = ChunkRead(file: index, offset: offset, length: length, buffer: buffer)
        slots[buffer] = .reading(read)
        phase = .reading(buffer: buffer)
        return [.readChunk(read)]
    }

    /// A new step: its retries count from zero.
    private mutating func issue(_ request: UploadRequest) -> [UploadEffect] {
        attempt = 0
        return resend(request)
    }

    private mutating func resend(_ request: UploadRequest) -> [UploadEffect] {
        phase = .requesting(request)
        return [.send(request)]
    }

    /// `request` was not answered as hoped: refresh the credential once after a 401, retry on
    /// the schedule, or give up on the file.
    private mutating func stepFailed(_ request: UploadRequest, status: Int) -> [UploadEffect] {
        if status == 401 && !refreshed {
            refreshed = true
            phase = .refreshing(request)
            return [.refreshCredential]
        }
        guard UploadProtocol.isRetryable(status: status), attempt < UploadProtocol.maxRetries else { return fail(.status(status)) }
        attempt += 1
        phase = .retrying(request)
        return [.timer(timers.start(.retry, after: UploadProtocol.retryDelay(attempt: attempt)))]
    }

    // MARK: files and the batch

    private mutating func begin(file: Int) -> [UploadEffect] {
        index = file
        guard file < files.count else { return finish(cancelled: false) }
        uploadId = nil
        offset = 0
        attempt = 0
        refreshed = false
        completeResends = 0
        polls = 0
        stalls = 0
        slots = [Slot](repeating: .empty, count: Self.bufferCount)
        phase = .opening
        return [.openFile(file)]
    }

    private mutating func fail(_ problem: UploadProblem) -> [UploadEffect] {
        failed.append(UploadFailure(name: files[index].name, reason: problem))
        return end(problem)
    }

    /// The file in progress is done with (uploaded when `problem` is nil); on to the next.
    private mutating func end(_ problem: UploadProblem?) -> [UploadEffect] {
        var effects = timers.cancelAll().map(UploadEffect.timer)
        if let id = uploadId { effects.append(.send(.delete(uploadId: id))) }
        if problem == nil { uploaded += 1 }
        effects += [.closeFile(index), .fileFinished(file: index, problem: problem)]
        doneBytes += files[index].size
        return effects + begin(file: index + 1)
    }

    private mutating func cancel() -> [UploadEffect] {
        switch phase {
        case .done: return []
        case .idle: return finish(cancelled: true)
        default: break
        }
        var effects: [UploadEffect] = []
        if case .requesting = phase { effects.append(.abortRequest) }
        effects += timers.cancelAll().map(UploadEffect.timer)
        if let id = uploadId { effects.append(.send(.delete(uploadId: id))) }
        effects.append(.closeFile(index))
        return effects + finish(cancelled: true)
    }

    private mutating func finish(cancelled: Bool) -> [UploadEffect] {
        phase = .done
        return [.batchDone(UploadSummary(uploaded: uploaded, failed: failed, cancelled: cancelled, refused: refused))]
    }

    private func report() -> [UploadEffect] { progress.map { [.progress($0)] } ?? [] }
}

extension UploadBatch {
    /// For state dumps: the file in progress, the bytes of the batch the server has, and what
    /// the batch is waiting for (a step's answer by its name, "chunk", "retry", "credential",
    /// "poll"; null before the start and after the end).
    public var stateJSON: JSONValue {
        let waiting: String? = switch phase {
        case .idle, .done: nil
        case .opening: "file"
        case .reading: "chunk"
        case .requesting(let request): request.step
        case .retrying: "retry"
        case .refreshing: "credential"
        case .waitingToPoll: "poll"
        }
        return ["file": .number(Double(index)), "bytes": .number(Double(progress?.totalBytes ?? doneBytes)),
                "waiting": waiting.map(JSONValue.string) ?? .null]
    }
}
