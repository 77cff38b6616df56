import CGtk
import CHTTP2
import Push

/// One request stream of an `H2Connection`: what the client sent, and the answer going back.
package final class H2Stream {
    var method = "", path = ""
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    var response: [UInt8] = []
    var sent = 0
    /// The header list so far, against `APNsLimits.headerListBytes`.
    var budget = HeaderListBudget()
    /// Handed to the service already: its body went past `APNsLimits.requestBodyCap`, and what
    /// more comes of it is dropped; the stream is reset (NO_ERROR) once its answer is out.
    var overLimit = false
    var handedOn = false
}

/// A connection's open streams. nghttp2 calls back only on the main thread, inside the
/// connection's own calls into its session, so the callbacks use this without the main actor's
/// check per header (a measurable share of each push). The table owns each stream; nghttp2's
/// stream user data points at it, so a callback finds its stream without a lookup here.
package final class H2Streams: @unchecked Sendable {
    private var open: [Int32: H2Stream] = [:]

    func begin(_ session: OpaquePointer?, _ id: Int32) {
        let stream = H2Stream()
        stream.headers.reserveCapacity(12)  // a provider's request has about eight
        open[id] = stream
        // Unretained (nghttp2 takes no destroy notify): `open` holds the stream until nghttp2's
        // stream-close callback ends it, and nghttp2 reads the pointer no later than that.
        nghttp2_session_set_stream_user_data(session, id, Unmanaged.passUnretained(stream).toOpaque())
    }

    func stream(_ session: OpaquePointer?, _ id: Int32) -> H2Stream? {
        nghttp2_session_get_stream_user_data(session, id).map { Unmanaged<H2Stream>.fromOpaque($0).takeUnretainedValue() }
    }

    func end(_ id: Int32) { open[id] = nil }

    func closeAll() { open = [:] }
}
