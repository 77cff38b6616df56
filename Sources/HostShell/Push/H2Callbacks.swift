import BridgeRuntime
import CGtk

/// nghttp2's server callbacks for `H2Connection`: C functions that find the connection through
/// `user_data` and record a request's headers and body, then hand the finished stream over.
/// nghttp2 calls them on the main thread, inside `H2Connection`'s own calls into the session.
enum H2Callbacks {
    static func install(_ callbacks: OpaquePointer?) {
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, data in
            guard let frame, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue),
                  frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else { return 0 }
            let connection = H2Connection.from(data), id = frame.pointee.hd.stream_id
            MainActor.assumeIsolated { connection.beginStream(id) }
            return 0
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) { _, frame, name, nameLength, value, valueLength, _, data in
            guard let frame, let name, let value else { return 0 }
            let pseudo = nameLength > 0 && name[0] == UInt8(ascii: ":")
            // Of the pseudo-headers only :method (7 bytes) and :path (5) are kept.
            if pseudo && !(nameLength == 7 && name[1] == UInt8(ascii: "m")) && !(nameLength == 5 && name[1] == UInt8(ascii: "p")) { return 0 }
            let text = String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self)
            let key = pseudo ? "" : String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self)
            let isMethod = pseudo && nameLength == 7
            let connection = H2Connection.from(data), id = frame.pointee.hd.stream_id
            MainActor.assumeIsolated {
                guard let stream = connection.stream(id) else { return }
                if !pseudo { stream.headers.append((key, text)) } else if isMethod { stream.method = text } else { stream.path = text }
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, streamID, bytes, length, data in
            guard let bytes else { return 0 }
            let chunk = Array(UnsafeBufferPointer(start: bytes, count: min(length, APNsLimits.requestBodyCap)))
            let connection = H2Connection.from(data)
            MainActor.assumeIsolated {
                guard let stream = connection.stream(streamID) else { return }
                let room = APNsLimits.requestBodyCap - stream.body.count
                if room > 0 { stream.body.append(contentsOf: chunk.prefix(room)) }
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, data in
            guard let frame else { return 0 }
            let type = frame.pointee.hd.type, id = frame.pointee.hd.stream_id
            let ended = frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
            guard ended, type == UInt8(NGHTTP2_HEADERS.rawValue) || type == UInt8(NGHTTP2_DATA.rawValue) else { return 0 }
            let connection = H2Connection.from(data)
            MainActor.assumeIsolated { connection.requestComplete(id) }
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, streamID, _, data in
            let connection = H2Connection.from(data)
            MainActor.assumeIsolated { connection.endStream(streamID) }
            return 0
        }
    }

    /// Copies a response body out as DATA frames; the last one ends the stream.
    static let readBody: nghttp2_data_source_read_callback = { _, streamID, buffer, length, flags, _, data in
        let connection = H2Connection.from(data)
        guard let buffer, let flags else { return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
        let chunk: [UInt8]? = MainActor.assumeIsolated {
            guard let stream = connection.stream(streamID) else { return nil }
            let count = min(length, stream.response.count - stream.sent)
            defer { stream.sent += count }
            return Array(stream.response[stream.sent..<(stream.sent + count)])
        }
        guard let chunk else { return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
        buffer.update(from: chunk, count: chunk.count)
        let finished = MainActor.assumeIsolated { connection.stream(streamID).map { $0.sent == $0.response.count } ?? true }
        if finished { flags.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue) }
        return chunk.count
    }
}
