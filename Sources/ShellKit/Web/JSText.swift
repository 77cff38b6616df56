import CGtk

/// A JavaScript string's text, read with its length: a NUL in it must not cut it short (a C
/// string would end there). Nil when the value is not a string.
@MainActor
package func javaScriptText(_ value: JSValuePointer) -> String? {
    guard jsc_value_is_string(value) != 0, let bytes = jsc_value_to_string_as_bytes(value) else { return nil }
    defer { g_bytes_unref(bytes) }
    var size: gsize = 0
    let data = g_bytes_get_data(bytes, &size)
    return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(size)), as: UTF8.self)
}
