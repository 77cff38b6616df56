import CGtk
import Foundation
import HostCore

/// A recording's frames on their way to the encoder: the main thread puts the window's latest
/// picture here (`take`), and a thread of its own writes the latest one into the pipe once per
/// frame slot (`ScreenRecording.slot`), repeating it when drawing fell behind, so writes that
/// block on a busy encoder never hold the main loop. `finish` ends the input (the pipe is closed
/// after the last whole frame), which the encoder takes as the end of the stream.
final class FrameFeed: @unchecked Sendable {
    private let fd: Int32
    private let width: Int, height: Int
    private let lock = NSLock()
    private var latest: [UInt8]
    private var finished = false
    private let written = DispatchSemaphore(value: 0)

    init(fd: Int32, width: Int, height: Int) {
        self.fd = fd
        self.width = width
        self.height = height
        latest = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// The window's picture now: copied in BGRA (GDK's default memory format on this
    /// little-endian machine), cut or padded with black to the recording's size.
    @MainActor func take(_ texture: OpaquePointer) {
        let textureWidth = Int(gdk_texture_get_width(texture)), textureHeight = Int(gdk_texture_get_height(texture))
        var pixels = [UInt8](repeating: 0, count: textureWidth * textureHeight * 4)
        pixels.withUnsafeMutableBufferPointer { gdk_texture_download(texture, $0.baseAddress, gsize(textureWidth * 4)) }
        var frame = [UInt8](repeating: 0, count: width * height * 4)
        let rowBytes = min(width, textureWidth) * 4
        for row in 0..<min(height, textureHeight) {
            frame.withUnsafeMutableBytes { target in
                pixels.withUnsafeBytes { source in
                    (target.baseAddress! + row * width * 4).copyMemory(from: source.baseAddress! + row * textureWidth * 4, byteCount: rowBytes)
                }
            }
        }
        lock.withLock { latest = frame }
    }

    func startWriting() {
        let thread = Thread { [self] in write() }
        thread.name = "recording's frames"
        thread.start()
    }

    func finish() { lock.withLock { finished = true } }

    /// Waits until the writer has closed the pipe.
    func waitUntilWritten() { written.wait(); written.signal() }

    private func write() {
        // A pipeline that died makes writes fail with EPIPE instead of ending the app with SIGPIPE.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        let start = monotonicSeconds()
        var slots = 0
        while true {
            let (frame, done) = lock.withLock { (latest, finished) }
            if done { break }
            let due = ScreenRecording.slot(elapsed: monotonicSeconds() - start) + 1
            if slots < due {
                guard writeAll(frame) else { break }
                slots += 1
            } else {
                let next = start + Double(slots) / Double(ScreenRecording.framesPerSecond)
                usleep(useconds_t(max(1_000, (next - monotonicSeconds()) * 1_000_000)))
            }
        }
        close(fd)
        written.signal()
    }

    private func writeAll(_ frame: [UInt8]) -> Bool {
        frame.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 { if errno == EINTR { continue } else { return false } }
                offset += count
            }
            return true
        }
    }
}
