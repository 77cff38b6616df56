import CGtk
import ShellKit

/// Reads QR codes from images with the zbar library (loaded on first use): the image is decoded
/// by GDK (PNG, JPEG, … whatever the system's loaders know), turned into 8-bit grey, and scanned.
package enum QRDecoder {
    package enum Failure: Error, Equatable {
        case unreadable(String)
        case noCode
    }

    /// The text of the first QR code in the image file.
    static func decode(file path: String) -> Result<String, Failure> {
        var error: UnsafeMutablePointer<GError>?
        guard let texture = gdk_texture_new_from_filename(path, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            return .failure(.unreadable(reason))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        let width = Int(gdk_texture_get_width(texture)), height = Int(gdk_texture_get_height(texture))
        guard width > 0, height > 0, width * height <= 64 << 20 else { return .failure(.unreadable("the image is empty or too large")) }
        // GDK's download format is 32-bit premultiplied B, G, R, A in memory order (little-endian ARGB).
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { gdk_texture_download(texture, $0.baseAddress, gsize(width * 4)) }
        var grey = [UInt8](repeating: 0, count: width * height)
        for i in 0..<(width * height) {
            let b = Int(pixels[i * 4]), g = Int(pixels[i * 4 + 1]), r = Int(pixels[i * 4 + 2]), a = Int(pixels[i * 4 + 3])
            // Composite on white (transparent areas are paper), then luma.
            let luma = (r * 299 + g * 587 + b * 114) / 1000
            grey[i] = UInt8(min(255, luma + (255 - a)))
        }
        return scan(grey, width: width, height: height)
    }

    /// Scans 8-bit grey pixels (`Y800`). zbar is loaded on the first scan (`cgtk_zbar`); without
    /// it the picture is unreadable and says why.
    static func scan(_ grey: [UInt8], width: Int, height: Int) -> Result<String, Failure> {
        var why: UnsafePointer<CChar>?
        guard let zbar = cgtk_zbar(&why)?.pointee else {
            return .failure(.unreadable("the QR decoder could not be loaded (\(why.map { String(cString: $0) } ?? "libzbar.so.0"))"))
        }
        guard let scanner = zbar.image_scanner_create() else { return .failure(.unreadable("the decoder could not start")) }
        defer { zbar.image_scanner_destroy(scanner) }
        _ = zbar.image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        _ = zbar.image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
        guard let image = zbar.image_create() else { return .failure(.unreadable("the decoder could not start")) }
        defer { zbar.image_destroy(image) }
        let y800: UInt = 0x3030_3859  // fourcc "Y800"
        zbar.image_set_format(image, y800)
        zbar.image_set_size(image, UInt32(width), UInt32(height))
        return grey.withUnsafeBytes { raw -> Result<String, Failure> in
            zbar.image_set_data(image, raw.baseAddress, UInt(raw.count), nil)
            guard zbar.scan_image(scanner, image) > 0 else { return .failure(.noCode) }
            var symbol = zbar.image_first_symbol(image)
            while let current = symbol {
                if zbar.symbol_get_type(current) == ZBAR_QRCODE, let data = zbar.symbol_get_data(current) {
                    let length = Int(zbar.symbol_get_data_length(current))
                    return .success(String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self))
                }
                symbol = zbar.symbol_next(current)
            }
            return .failure(.noCode)
        }
    }
}
