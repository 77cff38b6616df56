import CGtk
import Glibc
import HostCore

/// Bounds on what one client may make a loopback libsoup server hold: each connection closes
/// after its answer, and a request body past a limit is refused as it arrives.
///
/// libsoup 3.2 keeps a kept-alive connection open after its client closed it (in CLOSE-WAIT,
/// its descriptor held until the process runs out), so the servers that use this answer each
/// request with `connection: close` — cheap for their few JSON requests. And libsoup reads a
/// whole body before a handler sees it; here a `content-length` past the limit, or chunks that
/// add up past it, take the connection from libsoup at once (`steal_connection`): the refusal is
/// written, the sending side shut, and what the client still sends is read and dropped for a
/// short while (closing on unread bytes would reset the connection before the answer is read).
package struct SoupBounds: Sendable {
    package var bodyBytes: Int
    package var lingerMs: UInt32
    package var lingerBytes: Int
    /// The JSON body of the refusal (a 413).
    package var refusal: JSONValue

    package init(bodyBytes: Int, lingerMs: UInt32, lingerBytes: Int, refusal: JSONValue) {
        self.bodyBytes = bodyBytes
        self.lingerMs = lingerMs
        self.lingerBytes = lingerBytes
        self.refusal = refusal
    }

    /// Applies these bounds to every request `server` starts.
    @MainActor
    package func apply(to server: UnsafeMutablePointer<SoupServer>) {
        _ = cgtk_connect_pointer_arg(UnsafeMutableRawPointer(server), "request-started", { _, message, data in
            guard let message else { return }
            let bounds = Callback<SoupBounds>.body(data)
            MainActor.assumeIsolated { bounds.watch(OpaquePointer(message)) }
        }, Callback.retained(self), CallbackRelease.closureNotify)
    }

    @MainActor
    private func watch(_ message: OpaquePointer) {
        soup_message_headers_replace(soup_server_message_get_response_headers(message), "Connection", "close")
        final class Count { var bytes = 0, refused = false }
        let count = Count()
        let bounds = self
        _ = cgtk_connect_void(UnsafeMutableRawPointer(message), "got-headers", { message, data in
            guard let message else { return }
            let check = Callback<@MainActor (OpaquePointer) -> Void>.body(data)
            MainActor.assumeIsolated { check(OpaquePointer(message)) }
        }, Callback.retained({ @MainActor (message: OpaquePointer) in
            let headers = soup_server_message_get_request_headers(message)
            guard soup_message_headers_get_encoding(headers) == SOUP_ENCODING_CONTENT_LENGTH,
                  soup_message_headers_get_content_length(headers) > goffset(bounds.bodyBytes), !count.refused else { return }
            count.refused = true
            bounds.refuse(message)
        }), CallbackRelease.closureNotify)
        _ = cgtk_connect_pointer_arg(UnsafeMutableRawPointer(message), "got-chunk", { message, chunk, data in
            guard let message, let chunk else { return }
            let check = Callback<@MainActor (OpaquePointer, Int) -> Void>.body(data)
            let size = Int(g_bytes_get_size(OpaquePointer(chunk)))
            MainActor.assumeIsolated { check(OpaquePointer(message), size) }
        }, Callback.retained({ @MainActor (message: OpaquePointer, size: Int) in
            count.bytes += size
            guard count.bytes > bounds.bodyBytes, !count.refused else { return }
            count.refused = true
            bounds.refuse(message)
        }), CallbackRelease.closureNotify)
    }

    /// Takes the connection from libsoup, answers with the refusal, and lingers before closing.
    @MainActor
    private func refuse(_ message: OpaquePointer) {
        guard let socket = soup_server_message_get_socket(message) else { return }
        let fd = dup(g_socket_get_fd(socket))
        if let stream = soup_server_message_steal_connection(message) {  // libsoup lets go of its own descriptor
            g_io_stream_close(stream, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(stream))
        }
        guard fd >= 0 else { return }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let body = JSONWriter.bytes(refusal)
        let head = "HTTP/1.1 413 Payload Too Large\r\ncontent-type: application/json\r\ncontent-length: \(body.count)\r\nconnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }  // small: the empty buffer takes it
        SocketLinger.close(fd, ms: lingerMs, bytes: lingerBytes)
    }
}

/// Closes a socket whose last answer is written: shuts its sending side, then reads and drops
/// what the peer still sends — at most `bytes`, for at most `ms` — and closes, so the peer reads
/// the answer before the connection goes.
package enum SocketLinger {
    @MainActor
    package static func close(_ fd: Int32, ms: UInt32, bytes limit: Int) {
        shutdown(fd, Int32(SHUT_WR))
        final class State { var dropped = 0, closed = false, source: UInt32 = 0 }
        let state = State()
        func finish() {
            guard !state.closed else { return }
            state.closed = true
            if state.source != 0 { g_source_remove(state.source); state.source = 0 }
            Glibc.close(fd)
        }
        state.source = MainLoop.watch(fd, GIOCondition(G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)) {
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && (errno == EAGAIN || errno == EINTR) { return true }
            if count > 0 { state.dropped += count }
            if count <= 0 || state.dropped > limit { finish() }
            return true  // `finish` removes the source
        }
        MainLoop.after(milliseconds: ms) { finish() }
    }
}
