import CGtk
import Glibc
import HostCore
import ShellKit
import StudioContract

/// Where the uploader gets the bearer credential, and a fresh one after a 401.
@MainActor
package protocol CredentialSource: AnyObject {
    var credential: Credential? { get }
    func refresh(studioSession: Bool, done: @escaping @MainActor (Bool) -> Void)
}

extension ServerAuth: CredentialSource {}

/// Uploads files with the resumable upload protocol and the app's own credential. Every
/// decision is `UploadBatch`'s (BridgeRuntime); this carries out its effects: the files opened
/// and read with `pread` into two reused chunk buffers (memory stays flat whatever the file
/// size), the requests through `UploadTransport`, the timers through a `TimerBank`, the
/// credential refreshed through the `CredentialSource`, and progress and the end reported.
@MainActor
package final class Uploader {
    package struct File {
        var path: String
        var name: String
        var size: Int
        var mimeType: String

        package init(path: String, name: String, size: Int, mimeType: String) {
            self.path = path; self.name = name; self.size = size; self.mimeType = mimeType
        }
    }

    package typealias Progress = UploadProgress
    package typealias Result = UploadSummary

    private let auth: CredentialSource
    private let paths: [String]
    /// The batch, run by the one perform loop: an effect's report (a file opened, a chunk read)
    /// is reduced after the effects before it were all carried out, never inside them.
    private let loop: MachineLoop<UploadBatch>
    private var batch: UploadBatch { loop.machine }
    private let transport: UploadTransport
    private var timers: TimerBank<UploadTimer>!
    private let buffers = (0..<UploadBatch.bufferCount).map { _ in
        UnsafeMutableRawBufferPointer.allocate(byteCount: UploadProtocol.chunkSize, alignment: 16)
    }
    private var fd: Int32 = -1
    private var closed = false
    var onProgress: ((Progress) -> Void)?
    /// Called when a file's upload is complete at the server (before its processing is polled).
    package var onCompleted: (() -> Void)?
    package var onDone: ((Result) -> Void)?

    /// `refused`: files the intake refused before the batch (they count in the outcome).
    package init(origin: Origin, auth: CredentialSource, files: [File], refused: Int = 0) {
        self.auth = auth
        paths = files.map(\.path)
        loop = MachineLoop(UploadBatch(files: files.map { UploadFile(name: $0.name, size: $0.size, mimeType: $0.mimeType) }, refused: refused))
        transport = UploadTransport(origin: origin)
        timers = TimerBank { [weak self] name in self?.handle(.timerFired(name)) }
    }

    isolated deinit { close() }

    package func start() { handle(.start) }

    /// Stops at once: the request in flight is aborted and the open upload is deleted.
    func cancel() { handle(.cancel) }

    /// For state dumps: the batch's file, bytes and what it waits for.
    var stateJSON: JSONValue { batch.stateJSON }

    private func handle(_ event: UploadEvent) { loop.send(event, perform: perform) }

    private func perform(_ effect: UploadEffect) {
        switch effect {
        case .openFile(let index):
            // A regular file only: a FIFO or a device picked by mistake would block the upload.
            do throws(UsageError) {
                fd = try FileReading.openRegular(paths[index])
                handle(.fileOpened(file: index, error: nil))
            } catch {
                fd = -1
                handle(.fileOpened(file: index, error: error.message))
            }
        case .closeFile:
            closeFile()
        case .readChunk(let chunk):
            handle(.chunkRead(chunk, ok: read(chunk)))
        case .send(let request):
            var chunk: UnsafeRawBufferPointer?
            if case .chunk(let buffer, let length) = request.body {
                chunk = UnsafeRawBufferPointer(rebasing: buffers[buffer][0..<min(length, UploadProtocol.chunkSize)])
            }
            transport.send(request, bearer: auth.credential?.accessToken, chunk: chunk) { [self] response in
                handle(.answered(request, response))
            }
        case .abortRequest:
            transport.abort()
        case .refreshCredential:
            auth.refresh(studioSession: false) { [self] refreshed in handle(.credentialRefreshed(refreshed)) }
        case .timer(let command):
            timers.perform(command)
        case .progress(let progress):
            onProgress?(progress)
        case .uploadCompleted:
            onCompleted?()
        case .fileFinished(let index, let problem):
            if let problem { printError("hostshell: " + UploadFailure(name: batch.files[index].name, reason: problem).sentence) }
        case .batchDone(let summary):
            let done = onDone
            onDone = nil
            onProgress = nil
            onCompleted = nil
            close()
            done?(summary)
        }
    }

    /// Reads the chunk into its buffer; false when the file ended early or could not be read.
    private func read(_ chunk: ChunkRead) -> Bool {
        guard fd >= 0, chunk.length <= UploadProtocol.chunkSize, let base = buffers[chunk.buffer].baseAddress else { return false }
        var done = 0
        while done < chunk.length {
            let n = pread(fd, base + done, chunk.length - done, off_t(chunk.offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    private func closeFile() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// The end: timers stopped, the file closed, and the transport (with the buffers) released
    /// once the requests already sent — a last DELETE — have run.
    private func close() {
        guard !closed else { return }
        closed = true
        timers.cancelAll()
        closeFile()
        transport.close(releasing: buffers)
    }
}
