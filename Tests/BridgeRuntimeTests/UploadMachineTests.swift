import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// A host for `UploadBatch` in tests: it opens files and reads chunks at once (ok, unless told
/// otherwise), keeps every effect, and answers the request the batch awaits.
private struct Host {
    var batch: UploadBatch
    var effects: [UploadEffect] = []
    /// Chunk reads that fail, by offset.
    var failingReads: Set<Int> = []
    var unopenable: [Int: String] = [:]

    init(_ files: [UploadFile], refused: Int = 0) { batch = UploadBatch(files: files, refused: refused) }

    /// Reduces `event` and what the host reports back at once; returns every effect of it.
    @discardableResult
    mutating func on(_ event: UploadEvent) -> [UploadEffect] {
        var queue = [event], out: [UploadEffect] = []
        while !queue.isEmpty {
            for effect in batch.reduce(queue.removeFirst()) {
                out.append(effect)
                switch effect {
                case .openFile(let file): queue.append(.fileOpened(file: file, error: unopenable[file]))
                case .readChunk(let read): queue.append(.chunkRead(read, ok: !failingReads.contains(read.offset)))
                default: break
                }
            }
        }
        effects += out
        return out
    }

    /// The request the batch waits for an answer to.
    var awaited: UploadRequest? {
        if case .requesting(let request) = batch.phase { return request }
        return nil
    }

    @discardableResult
    mutating func answer(_ status: Int, offset: String? = nil, body: String = "") -> [UploadEffect] {
        guard let request = awaited else {
            Issue.record("no request is awaited (phase \(batch.phase))")
            return []
        }
        return on(.answered(request, UploadResponse(status: status, headers: offset.map { ["upload-offset": $0] } ?? [:], body: Array(body.utf8))))
    }

    /// Answers as a well-behaved server would, until the batch waits for something else (or,
    /// with `oneFile`, moves on to the next file).
    mutating func serve(asset: String = "a1", processing: String = "ready", oneFile: Bool = false) {
        let file = batch.index
        while let request = awaited, !oneFile || batch.index == file {
            switch request {
            case .create: answer(201, body: #"{"data":{"id":"up1","offset":0}}"#)
            case .patch(_, let offset, let length, _): answer(204, offset: String(offset + length))
            case .head: Issue.record("unexpected HEAD"); return
            case .complete: answer(200, body: #"{"data":{"id":"\#(asset)"}}"#)
            case .poll: answer(200, body: #"{"data":{"processingStatus":"\#(processing)"}}"#)
            case .delete: return
            }
        }
    }

    var sent: [UploadRequest] { effects.compactMap { if case .send(let request) = $0 { request } else { nil } } }
    var summary: UploadSummary? { effects.lazy.compactMap { if case .batchDone(let summary) = $0 { summary } else { nil } }.first }
    var retryDelays: [Double] { effects.compactMap { if case .timer(.start(.retry, let after)) = $0 { after } else { nil } } }
}

private let mib = 1 << 20
private func file(_ name: String = "clip.mp4", size: Int) -> UploadFile { UploadFile(name: name, size: size, mimeType: "video/mp4") }
private func created(_ id: String = "up1", offset: Int = 0) -> String { #"{"data":{"id":"\#(id)","offset":\#(offset)}}"# }

@Suite("Upload machine: the resumable upload protocol of media intake")
struct UploadMachineTests {
    @Test("a multi-chunk file: create, 2 MiB PATCHes with the next chunk read ahead into the other buffer, complete, poll")
    func happyPath() {
        var host = Host([file(size: 5 * mib + 123)])
        #expect(host.on(.start) == [.openFile(0),
                                   .progress(UploadProgress(fileIndex: 0, fileCount: 1, fileName: "clip.mp4", fileBytes: 0, fileSize: 5 * mib + 123,
                                                            totalBytes: 0, totalSize: 5 * mib + 123)),
                                   .send(.create(file(size: 5 * mib + 123)))])
        // The first chunk is read, sent from buffer 0, and the second read into buffer 1 meanwhile.
        #expect(host.answer(201, body: created()) == [
            .readChunk(ChunkRead(file: 0, offset: 0, length: 2 * mib, buffer: 0)),
            .send(.patch(uploadId: "up1", offset: 0, length: 2 * mib, buffer: 0)),
            .readChunk(ChunkRead(file: 0, offset: 2 * mib, length: 2 * mib, buffer: 1)),
        ])
        let second = host.answer(204, offset: String(2 * mib))
        #expect(second.dropFirst() == [.send(.patch(uploadId: "up1", offset: 2 * mib, length: 2 * mib, buffer: 1)),
                                       .readChunk(ChunkRead(file: 0, offset: 4 * mib, length: mib + 123, buffer: 0))],
                "the read-ahead chunk goes without another read")
        guard case .progress(let progress) = second.first else { Issue.record("no progress: \(second)"); return }
        #expect(progress.fileBytes == 2 * mib && progress.label == "Uploading 1 of 1: clip.mp4 — 39 %")
        #expect(host.answer(204, offset: String(4 * mib)).last == .send(.patch(uploadId: "up1", offset: 4 * mib, length: mib + 123, buffer: 0)))
        #expect(host.answer(204, offset: String(5 * mib + 123)).last == .send(.complete(uploadId: "up1")))
        #expect(host.answer(200, body: #"{"data":{"id":"asset-1"}}"#) == [.uploadCompleted(file: 0), .send(.poll(assetId: "asset-1"))])
        #expect(host.answer(200, body: #"{"data":{"processingStatus":"pending"}}"#) == [.timer(.start(.poll, after: 1.5))])
        #expect(host.batch.timers.isRunning(.poll))
        #expect(host.on(.timerFired(.poll)) == [.send(.poll(assetId: "asset-1"))])
        #expect(host.answer(200, body: #"{"data":{"processingStatus":"ready"}}"#)
            == [.closeFile(0), .fileFinished(file: 0, problem: nil), .batchDone(UploadSummary(uploaded: 1, failed: [], cancelled: false))])
        #expect(host.summary?.outcome == .completed && host.summary?.notice == nil)
        #expect(host.batch.phase == .done && host.batch.reduce(.start).isEmpty)
    }

    @Test("a chunk is never read into the buffer of the PATCH in flight; an answer without Upload-Offset moves on by the chunk")
    func buffersStayApart() {
        var host = Host([file(size: 9 * mib)])
        host.on(.start)
        var effects = host.answer(201, body: created())
        while true {
            // A read that comes with a PATCH never targets the PATCH's buffer.
            for (index, effect) in effects.enumerated() {
                guard case .send(.patch(_, _, _, let sending)) = effect else { continue }
                for later in effects.dropFirst(index + 1) {
                    if case .readChunk(let read) = later { #expect(read.buffer != sending, "read into the buffer in flight: \(effects)") }
                }
            }
            guard case .patch(_, let offset, let length, _) = host.awaited else { break }
            effects = host.answer(204)  // no header: the server took the whole chunk
            #expect(host.batch.offset == offset + length)
        }
        #expect(host.awaited == .complete(uploadId: "up1"))
        let reads = host.effects.filter { if case .readChunk = $0 { true } else { false } }
        #expect(reads.count == 5, "every chunk read once: \(reads)")
    }

    @Test("several files, one empty: totals over the batch; each file gets its own upload")
    func batch() {
        var host = Host([file("a.png", size: 10), file("b.png", size: 0), file("c.mp4", size: 3 * mib)])
        host.on(.start)
        host.serve()
        #expect(host.summary == UploadSummary(uploaded: 3, failed: [], cancelled: false))
        #expect(host.sent.filter { if case .create = $0 { true } else { false } }.count == 3)
        #expect(host.sent.filter { if case .patch = $0 { true } else { false } }.count == 3, "1 + 0 + 2")
        let last = host.effects.compactMap { if case .progress(let p) = $0 { p } else { nil } }.last
        #expect(last?.fileIndex == 2 && last?.totalBytes == 3 * mib + 10 && last?.totalSize == 3 * mib + 10)
        #expect(host.effects.filter { if case .closeFile = $0 { true } else { false } }.count == 3)
    }

    @Test("409 on a PATCH: HEAD asks where the server is, and the upload goes on from the server's offset")
    func resync() {
        var host = Host([file(size: 3 * mib)])
        host.on(.start)
        host.answer(201, body: created())
        #expect(host.answer(409) == [.send(.head(uploadId: "up1"))])
        // The server has 1 MiB: that chunk is in no buffer, so it is read, then sent.
        let resumed = host.answer(200, offset: String(mib))
        #expect(resumed.contains(.readChunk(ChunkRead(file: 0, offset: mib, length: 2 * mib, buffer: 0))))
        #expect(host.awaited == .patch(uploadId: "up1", offset: mib, length: 2 * mib, buffer: 0))
        #expect(host.batch.offset == mib)
        host.serve()
        #expect(host.summary?.uploaded == 1)
    }

    @Test("complete answered 409 (incomplete): resync and resend at most twice, then the file fails and its upload is deleted")
    func completeResends() {
        var host = Host([file(size: 100)])
        host.on(.start)
        host.answer(201, body: created())
        host.answer(204, offset: "100")
        for _ in 0..<2 {
            #expect(host.answer(409) == [.send(.head(uploadId: "up1"))])
            #expect(host.answer(200, offset: "100") == [.send(.complete(uploadId: "up1"))])
        }
        let failed = host.answer(409)
        #expect(failed == [.send(.delete(uploadId: "up1")), .closeFile(0), .fileFinished(file: 0, problem: .incomplete),
                           .batchDone(UploadSummary(uploaded: 0, failed: [UploadFailure(name: "clip.mp4", reason: .incomplete)], cancelled: false))])
        #expect(host.summary?.outcome == .failed)
        #expect(host.summary?.notice == "clip.mp4 was not uploaded: the server did not receive all of it.")
    }

    @Test("415 on complete fails that file (its upload deleted) and the next one still goes: partial")
    func unsupported() {
        var host = Host([file("refused.png", size: 1000), file("fine.png", size: 2000)])
        host.on(.start)
        host.answer(201, body: created("up1"))
        host.answer(204, offset: "1000")
        let refused = host.answer(415)
        #expect(refused.prefix(3) == [.send(.delete(uploadId: "up1")), .closeFile(0), .fileFinished(file: 0, problem: .status(415))])
        #expect(refused.contains(.send(.create(file("fine.png", size: 2000)))))
        host.serve()
        #expect(host.summary?.outcome == .partial && host.summary?.uploaded == 1)
        #expect(host.summary?.notice == "refused.png was not uploaded: the server does not accept this kind of file.")
    }

    @Test("413 and 507 on create fail the file with their own words (nothing to delete); so does a maximum below the file's size",
          arguments: [(413, "the file is larger than the server accepts"), (507, "the server has no room for it")])
    func refusedAtCreate(_ status: Int, _ words: String) {
        var host = Host([file(size: 10)])
        host.on(.start)
        #expect(host.answer(status) == [.closeFile(0), .fileFinished(file: 0, problem: .status(status)),
                                        .batchDone(UploadSummary(uploaded: 0, failed: [UploadFailure(name: "clip.mp4", reason: .status(status))], cancelled: false))])
        #expect(host.summary?.failed.first?.problem == words)
        #expect(host.summary?.outcome == .failed)

        var small = Host([file(size: 10)])
        small.on(.start)
        let answer = small.answer(201, body: #"{"data":{"id":"up9","offset":0,"maximumSizeBytes":5}}"#)
        #expect(answer.prefix(3) == [.send(.delete(uploadId: "up9")), .closeFile(0), .fileFinished(file: 0, problem: .status(413))])
    }

    @Test("retries: network errors, 408, 429 and 5xx, 5 per step, after min(400 ms × 2^(n−1), 5 s); then the file fails",
          arguments: [0, 408, 429, 500, 503, 599])
    func backoff(_ status: Int) {
        var host = Host([file(size: 10)])
        host.on(.start)
        for attempt in 1...5 {
            #expect(host.answer(status) == [.timer(.start(.retry, after: UploadProtocol.retryDelay(attempt: attempt)))])
            #expect(host.batch.phase == .retrying(.create(file(size: 10))) && host.batch.attempt == attempt)
            #expect(host.on(.timerFired(.retry)) == [.send(.create(file(size: 10)))])
        }
        #expect(host.retryDelays == [0.4, 0.8, 1.6, 3.2, 5.0])
        let last = host.answer(status)
        #expect(last.contains(.fileFinished(file: 0, problem: .status(status))))
        #expect(host.summary?.failed.first?.problem == UploadProtocol.problem(status: status))
        #expect(UploadProtocol.retryDelay(attempt: 6) == 5 && UploadProtocol.retryDelay(attempt: 60) == 5)
    }

    @Test("the retry count is per step: a step that succeeds gives the next one its own 5")
    func retriesPerStep() {
        var host = Host([file(size: 10)])
        host.on(.start)
        for _ in 0..<5 { host.answer(503); host.on(.timerFired(.retry)) }
        host.answer(201, body: created())
        #expect(host.batch.attempt == 0)
        for _ in 0..<5 { host.answer(502); host.on(.timerFired(.retry)) }
        host.serve()
        #expect(host.summary?.uploaded == 1)
        #expect(host.retryDelays.count == 10)
    }

    @Test("other answers are not retried", arguments: [400, 403, 404, 410, 422])
    func notRetried(_ status: Int) {
        var host = Host([file(size: 10)])
        host.on(.start)
        host.answer(201, body: created())
        let failed = host.answer(status)
        #expect(failed.first == .send(.delete(uploadId: "up1")))
        #expect(failed.contains(.fileFinished(file: 0, problem: .status(status))))
        #expect(host.retryDelays.isEmpty)
    }

    @Test("a 401 refreshes the credential once and the step goes again; a second 401 fails the file")
    func refreshOnce() {
        var host = Host([file("a.png", size: 10), file("b.png", size: 10)])
        host.on(.start)
        #expect(host.answer(401) == [.refreshCredential])
        #expect(host.batch.phase == .refreshing(.create(file("a.png", size: 10))))
        #expect(host.on(.credentialRefreshed(true)) == [.send(.create(file("a.png", size: 10)))])
        host.answer(201, body: created())
        let second = host.answer(401)
        #expect(second.prefix(3) == [.send(.delete(uploadId: "up1")), .closeFile(0), .fileFinished(file: 0, problem: .status(401))])
        #expect(host.effects.filter { $0 == .refreshCredential }.count == 1, "one refresh for the file")
        // The next file has its own refresh; one that fails fails the file.
        #expect(host.answer(401) == [.refreshCredential])
        #expect(host.on(.credentialRefreshed(false)).contains(.fileFinished(file: 1, problem: .status(401))))
        #expect(host.summary?.failed.map(\.problem) == ["the server refused the app's sign-in", "the server refused the app's sign-in"])
        #expect(host.on(.credentialRefreshed(true)).isEmpty, "a late refresh asks nothing")
    }

    @Test("polling: every 1.5 s, at most 120 times; failed processing fails the file; a poll's 5xx is retried")
    func polling() {
        var host = Host([file(size: 10)])
        host.on(.start)
        host.serve(processing: "pending")
        var polls = 1
        while host.batch.timers.isRunning(.poll) {
            host.on(.timerFired(.poll))
            host.serve(processing: "pending")
            polls += 1
        }
        #expect(polls == UploadProtocol.maxPolls && polls == 120)
        #expect(host.sent.filter { if case .poll = $0 { true } else { false } }.count == 120)
        #expect(host.summary?.failed == [UploadFailure(name: "clip.mp4", reason: .processingTimedOut)])
        #expect(!host.sent.contains(.delete(uploadId: "up1")), "a completed upload is not deleted")

        var failing = Host([file(size: 10)])
        failing.on(.start)
        failing.serve(processing: "failed")
        #expect(failing.summary?.failed.first?.problem == "the server could not process it")

        var flaky = Host([file(size: 10)])
        flaky.on(.start)
        flaky.answer(201, body: created())
        flaky.answer(204, offset: "10")
        flaky.answer(200, body: #"{"data":{"id":"a1"}}"#)
        #expect(flaky.answer(500) == [.timer(.start(.retry, after: 0.4))])
        #expect(flaky.on(.timerFired(.retry)) == [.send(.poll(assetId: "a1"))])
        flaky.serve()
        #expect(flaky.summary?.uploaded == 1)
    }

    @Test("cancel mid-chunk: the PATCH is aborted, the upload DELETEd; cancelled, or partial once a file is in")
    func cancelMidChunk() {
        var host = Host([file(size: 5 * mib)])
        host.on(.start)
        host.answer(201, body: created())
        let patch = host.awaited
        #expect(host.on(.cancel) == [.abortRequest, .send(.delete(uploadId: "up1")), .closeFile(0),
                                     .batchDone(UploadSummary(uploaded: 0, failed: [], cancelled: true))])
        #expect(host.summary?.outcome == .cancelled && host.summary?.notice == "Upload cancelled.")
        #expect(host.on(.answered(patch!, UploadResponse(status: 204))).isEmpty, "the aborted PATCH's answer is ignored")
        #expect(host.on(.cancel).isEmpty)

        var partial = Host([file("a.png", size: 10), file("b.mp4", size: 5 * mib)])
        partial.on(.start)
        partial.serve(oneFile: true)  // a.png; b.mp4's create is then awaited
        partial.answer(201, body: created("up2"))
        partial.answer(503)  // the PATCH waits to be retried
        #expect(partial.on(.cancel) == [.timer(.cancel(.retry)), .send(.delete(uploadId: "up2")), .closeFile(1),
                                        .batchDone(UploadSummary(uploaded: 1, failed: [], cancelled: true))])
        #expect(partial.summary?.outcome == .partial)
        #expect(partial.on(.timerFired(.retry)).isEmpty)

        var early = Host([file(size: 10)])
        #expect(early.on(.cancel) == [.batchDone(UploadSummary(uploaded: 0, failed: [], cancelled: true))])
    }

    @Test("stale reports are ignored: a timer that is not running, an answer to a request not awaited, a chunk not asked for")
    func staleReports() {
        var host = Host([file(size: 3 * mib)])
        host.on(.start)
        #expect(host.on(.timerFired(.retry)).isEmpty && host.on(.timerFired(.poll)).isEmpty)
        host.answer(503)
        #expect(host.on(.timerFired(.poll)).isEmpty, "the poll timer is not running")
        #expect(host.on(.answered(.create(file(size: 3 * mib)), UploadResponse(status: 201))).isEmpty, "retrying: nothing is awaited")
        #expect(host.on(.timerFired(.retry)).count == 1)
        #expect(host.on(.timerFired(.retry)).isEmpty, "fired once")
        #expect(host.on(.answered(.delete(uploadId: "up0"), UploadResponse(status: 204))).isEmpty)
        #expect(host.on(.chunkRead(ChunkRead(file: 0, offset: 0, length: 2 * mib, buffer: 0), ok: true)).isEmpty)
        #expect(host.on(.fileOpened(file: 0, error: nil)).isEmpty)
        #expect(host.on(.credentialRefreshed(true)).isEmpty)
        host.serve()
        #expect(host.summary?.uploaded == 1)
    }

    @Test("malformed answers fail the file cleanly: no id, a bad id, a negative or impossible offset, no asset id",
          arguments: [
            ("create", #"{"data":{"offset":0}}"#), ("create", #"{"data":{"id":"a/b"}}"#), ("create", #"{"data":{"id":"up1","offset":-1}}"#),
            ("create", #"{"data":{"id":"up1","offset":"x"}}"#), ("create", #"{"data":{"id":"up1","offset":11}}"#), ("create", "not json"),
            ("patch", "-5"), ("patch", "abc"), ("patch", "11"), ("patch", ""),
            ("head", "-1"), ("head", "12"), ("head", "none"),
            ("complete", #"{"data":{}}"#), ("complete", #"{"data":{"id":""}}"#),
          ])
    func malformed(_ step: String, _ answer: String) {
        var host = Host([file(size: 10)])
        host.on(.start)
        switch step {
        case "create":
            host.answer(201, body: answer)
        case "patch":
            host.answer(201, body: created())
            host.answer(204, offset: answer)
        case "head":
            host.answer(201, body: created())
            host.answer(409)
            host.answer(200, offset: answer == "none" ? nil : answer)
        default:
            host.answer(201, body: created())
            host.answer(204, offset: "10")
            host.answer(200, body: answer)
        }
        #expect(host.summary?.failed == [UploadFailure(name: "clip.mp4", reason: .notUnderstood)], "\(step) \(answer)")
        #expect(host.summary?.failed.first?.problem == "the server's answer was not understood")
        #expect(host.sent.contains(.delete(uploadId: "up1")) == (step != "create"), "an upload that exists is deleted")
    }

    @Test("a server that keeps refusing the offset without moving on: the file fails after 5 stalls")
    func stalls() {
        var host = Host([file(size: 10)])
        host.on(.start)
        host.answer(201, body: created())
        for _ in 0..<UploadProtocol.maxStalledChunks {
            host.answer(409)
            host.answer(200, offset: "0")
        }
        #expect(host.answer(409).contains(.fileFinished(file: 0, problem: .noProgress)))
        var standing = Host([file(size: 10)])
        standing.on(.start)
        standing.answer(201, body: created())
        for _ in 0...UploadProtocol.maxStalledChunks { standing.answer(204, offset: "0") }
        #expect(standing.summary?.failed.first?.reason == .noProgress)
    }

    @Test("files that cannot be opened or read to the end fail with the reason; a failed read-ahead is read again")
    func unreadable() {
        var host = Host([file("gone.mp4", size: 10), file("short.mp4", size: 3 * mib), file("ahead.mp4", size: 3 * mib)])
        host.unopenable[0] = "No such file or directory"
        host.failingReads = [0]
        host.on(.start)
        #expect(host.summary == nil)
        host.answer(201, body: created("up2"))
        #expect(host.effects.contains(.fileFinished(file: 0, problem: .unreadable("No such file or directory"))))
        #expect(host.effects.contains(.fileFinished(file: 1, problem: .changedWhileReading)))
        #expect(host.sent.contains(.delete(uploadId: "up2")))
        // The third file: its read-ahead (at 2 MiB) fails, so that chunk is read again when it is due.
        host.failingReads = [2 * mib]
        host.answer(201, body: created("up3"))
        host.failingReads = []
        host.answer(204, offset: String(2 * mib))
        #expect(host.effects.suffix(2) == [.readChunk(ChunkRead(file: 2, offset: 2 * mib, length: mib, buffer: 0)),
                                           .send(.patch(uploadId: "up3", offset: 2 * mib, length: mib, buffer: 0))])
        host.serve()
        #expect(host.summary?.failed.map(\.problem) == ["it could not be read (No such file or directory)",
                                                       "it could not be read to the end (it may have changed)"])
        #expect(host.summary?.outcome == .partial)
    }

    @Test("the state dump says the file, the bytes and what the batch waits for")
    func stateDump() {
        var host = Host([file(size: 3 * mib)])
        #expect(StatePredicate(["waiting": .null]).holds(in: host.batch.stateJSON))
        host.on(.start)
        host.answer(201, body: created())
        host.answer(204, offset: String(2 * mib))
        host.answer(503)
        #expect(host.batch.stateJSON == ["file": 0, "bytes": .number(Double(2 * mib)), "waiting": "retry"])
        host.on(.timerFired(.retry))
        #expect(StatePredicate(["waiting": "patch"]).holds(in: host.batch.stateJSON))
    }
}

@Suite("Upload protocol: requests, answers, outcomes, and the files an intake takes")
struct UploadProtocolTests {
    @Test("requests on the wire")
    func wire() {
        let create = UploadRequest.create(UploadFile(name: "a.png", size: 7, mimeType: "image/png"))
        #expect(create.method == "POST" && create.path == "/api/v1/uploads" && create.contentType == "application/json")
        #expect(create.body == .json(Array(#"{"filename":"a.png","mimeType":"image/png","sizeBytes":7}"#.utf8)))
        let patch = UploadRequest.patch(uploadId: "u", offset: 4096, length: 10, buffer: 1)
        #expect(patch.method == "PATCH" && patch.path == "/api/v1/uploads/u" && patch.contentType == "application/offset+octet-stream")
        #expect(patch.headers.map(\.name) == ["Upload-Offset"] && patch.headers.map(\.value) == ["4096"])
        #expect(patch.body == .chunk(buffer: 1, length: 10))
        #expect(UploadRequest.head(uploadId: "u").method == "HEAD" && UploadRequest.head(uploadId: "u").body == .none)
        #expect(UploadRequest.complete(uploadId: "u").path == "/api/v1/uploads/u/complete")
        #expect(UploadRequest.complete(uploadId: "u").body == .json(Array("{}".utf8)))
        #expect(UploadRequest.poll(assetId: "x").method == "GET" && UploadRequest.poll(assetId: "x").path == "/api/v1/assets/x")
        #expect(UploadRequest.delete(uploadId: "u").method == "DELETE" && UploadRequest.delete(uploadId: "u").contentType == nil)
    }

    @Test("outcomes and what the person is told")
    func outcomes() {
        let failure = UploadFailure(name: "a.png", reason: .status(507))
        #expect(UploadSummary(uploaded: 2, failed: [], cancelled: false).outcome == .completed)
        #expect(UploadSummary(uploaded: 1, failed: [failure], cancelled: false).outcome == .partial)
        #expect(UploadSummary(uploaded: 0, failed: [failure, failure], cancelled: false).notice
            == "a.png was not uploaded: the server has no room for it (and 1 more).")
        #expect(UploadSummary(uploaded: 1, failed: [], cancelled: false, refused: 1).outcome == .partial, "a refused file counts")
        #expect(UploadSummary(uploaded: 0, failed: [], cancelled: false, refused: 1).outcome == .failed)
        #expect(UploadSummary(uploaded: 0, failed: [], cancelled: true).outcome == .cancelled)
        #expect(UploadProtocol.problem(status: 0) == "the server could not be reached")
        #expect(UploadProtocol.problem(status: 418) == "the server answered HTTP 418")
        #expect(UploadProgress(fileIndex: 0, fileCount: 1, fileName: "e.png", fileBytes: 0, fileSize: 0, totalBytes: 0, totalSize: 0).fileFraction == 1)
        #expect(UploadProgress.preparing(fileCount: 1) == "Preparing 1 file…" && UploadProgress.preparing(fileCount: 3) == "Preparing 3 files…")
    }

    @Test("an intake takes one file unless Studio allows several, only regular files, only the kinds asked for")
    func selection() {
        let sizes = ["/p/a.png": 10, "/p/b.MP4": 20, "/p/c.txt": 5]
        let both = IntakeSelection(["/p/a.png", "/p/b.MP4", "/p/c.txt", "/p/dir"], for: MediaIntakeRequest(requestId: "r")) { sizes[$0] }
        #expect(both.picks == [.init(path: "/p/a.png", file: UploadFile(name: "a.png", size: 10, mimeType: "image/png")),
                               .init(path: "/p/b.MP4", file: UploadFile(name: "b.MP4", size: 20, mimeType: "video/mp4"))])
        #expect(both.refusals == ["c.txt is not an image or a video; it is skipped", "/p/dir cannot be uploaded: it is not a readable file"])
        let one = IntakeSelection(["/p/a.png", "/p/b.MP4"], for: MediaIntakeRequest(requestId: "r", multiple: false)) { sizes[$0] }
        #expect(one.picks.map(\.path) == ["/p/a.png"] && one.refusals.isEmpty)
        let videos = IntakeSelection(["/p/a.png"], for: MediaIntakeRequest(requestId: "r", kinds: [.video])) { sizes[$0] }
        #expect(videos.picks.isEmpty && videos.refusals == ["a.png is not a video; it is skipped"] && videos.outcomeWithoutFiles == .failed)
        #expect(IntakeSelection([], for: MediaIntakeRequest(requestId: "r")) { _ in 1 }.outcomeWithoutFiles == .cancelled)
        let many = IntakeSelection((0..<1500).map { "/m/\($0).png" }, for: MediaIntakeRequest(requestId: "r")) { _ in 1 }
        #expect(many.picks.count == UploadProtocol.maxFilesPerIntake)
    }
}
