import CGtk
import CHTTP2
import Push

/// nghttp2's server callbacks for `H2Connection`: C functions that find the connection through
/// `user_data` and the stream through its stream user data, record a request's headers and
/// body, then hand the finished stream to the connection (the one step on the main actor).
/// nghttp2 calls them on the main thread, inside `H2Connection`'s own calls into the session.
package enum H2Callbacks {
    static func install(_ callbacks: OpaquePointer?) {
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { session, frame, data in
            guard let frame, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue),
                  frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else { return 0 }
            H2Connection.from(data).streams.begin(session, frame.pointee.hd.stream_id)
            return 0
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) { session, frame, name, nameLength, value, valueLength, _, data in
            guard let frame, let name, let value,
                  let stream = H2Connection.from(data).streams.stream(session, frame.pointee.hd.stream_id) else { return 0 }
            // Past the list's limit the stream is reset: nothing of an endless list is kept (a
            // few bytes of HPACK can name a table entry of kilobytes again and again).
            guard stream.budget.take(nameBytes: nameLength, valueBytes: valueLength) else {
                return Int32(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue)
            }
            let nameBytes = UnsafeBufferPointer(start: name, count: nameLength)
            guard nameLength > 0, name[0] == UInt8(ascii: ":") else {
                guard APNsRequest.readsHeader(named: nameBytes) else { return 0 }
                stream.headers.append((String(decoding: nameBytes, as: UTF8.self),
                                       String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self)))
                return 0
            }
            // Of the pseudo-headers only :method (7 bytes) and :path (5) are kept.
            let isMethod = nameLength == 7 && name[1] == UInt8(ascii: "m"), isPath = nameLength == 5 && name[1] == UInt8(ascii: "p")
            guard isMethod || isPath else { return 0 }
            let text = String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self)
            if isMethod { stream.method = text } else { stream.path = text }
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { session, _, streamID, bytes, length, data in
            let connection = H2Connection.from(data)
            guard let bytes, let stream = connection.streams.stream(session, streamID), !stream.handedOn else { return 0 }
            let room = APNsLimits.requestBodyCap - stream.body.count
            stream.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: min(length, room)))
            guard length > room else { return 0 }
            // Past the cap: answered now, as Apple answers a payload too large; the rest is dropped.
            stream.overLimit = true
            H2Callbacks.handOn(stream, streamID, connection)
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { session, frame, data in
            guard let frame else { return 0 }
            let type = frame.pointee.hd.type, id = frame.pointee.hd.stream_id
            let ended = frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
            guard ended, type == UInt8(NGHTTP2_HEADERS.rawValue) || type == UInt8(NGHTTP2_DATA.rawValue) else { return 0 }
            let connection = H2Connection.from(data)
            guard let stream = connection.streams.stream(session, id), !stream.handedOn else { return 0 }
            H2Callbacks.handOn(stream, id, connection)
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks) { session, frame, data in
            // A stream answered before its body ended: once the answer's last frame is out, the
            // client is told to stop sending it.
            guard let frame, frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0,
                  let stream = H2Connection.from(data).streams.stream(session, frame.pointee.hd.stream_id), stream.overLimit else { return 0 }
            nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), frame.pointee.hd.stream_id, UInt32(NGHTTP2_NO_ERROR.rawValue))
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, streamID, _, data in
            H2Connection.from(data).streams.end(streamID)
            return 0
        }
    }

    /// Hands a stream's request to the connection, once.
    static func handOn(_ stream: H2Stream, _ id: Int32, _ connection: H2Connection) {
        stream.handedOn = true
        // nghttp2 refuses header names with capitals, as HTTP/2 does.
        var request = APNsRequest(method: stream.method, path: stream.path, lowerCaseHeaders: stream.headers, body: stream.body)
        request.bodyOverLimit = stream.overLimit
        MainActor.assumeIsolated { connection.requestComplete(id, request) }
    }

    /// Copies a response body out as DATA frames (the stream rides in the data source); the
    /// last one ends the stream.
    static let readBody: nghttp2_data_source_read_callback = { _, _, buffer, length, flags, source, _ in
        guard let buffer, let flags, let pointer = source?.pointee.ptr else { return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
        let stream = Unmanaged<H2Stream>.fromOpaque(pointer).takeUnretainedValue()
        let count = min(length, stream.response.count - stream.sent)
        stream.response.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + stream.sent, count: count) }
        stream.sent += count
        if stream.sent == stream.response.count { flags.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue) }
        return count
    }
}
