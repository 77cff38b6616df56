import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// `convertFileSrc` URLs on the app scheme: which local files a page may read (the app's web
/// directory and its own `files/` directories stand in for iOS's sandbox), and byte ranges.
@Suite("Capacitor local files and byte ranges")
struct CapacitorFilesTests {
    static let files = CapacitorFiles(roots: ["/w/app/www", "/d/hostshell/apps/a.b/files/", "/real/files", "/real/files", "relative", "/"])

    @Test("roots: absolute, without a trailing slash, once each; the file directories sit beside the profile")
    func roots() {
        #expect(Self.files.roots == ["/w/app/www", "/d/hostshell/apps/a.b/files", "/real/files"])
        #expect(CapacitorFiles.directories(dataDirectory: "/d/hostshell/apps/a.b", cacheDirectory: "/c/hostshell/apps/a.b")
                == ["/d/hostshell/apps/a.b/files", "/c/hostshell/apps/a.b/files"])
    }

    @Test("a /_capacitor_file_ path names the local file after the prefix, decoded, typed by its extension", arguments: [
        ("/_capacitor_file_/d/hostshell/apps/a.b/files/photo.JPG", "/d/hostshell/apps/a.b/files/photo.JPG", "image/jpeg"),
        ("/_capacitor_file_/d/hostshell/apps/a.b/files/a%20b/clip.mp4?x=1#t", "/d/hostshell/apps/a.b/files/a b/clip.mp4", "video/mp4"),
        ("/_capacitor_file_//real//files/notes", "/real/files/notes", "application/octet-stream"),
        ("/_capacitor_file_/w/app/www/assets/app.js", "/w/app/www/assets/app.js", "text/javascript"),
        ("/%5Fcapacitor_file_/real/files/x.json", "/real/files/x.json", "application/json"),
    ])
    func served(_ input: (String, String, String)) {
        #expect(CapacitorFiles.isFileRequest(input.0))
        #expect(CapacitorAssets.answer(forRequestPath: input.0, files: Self.files) == .localFile(input.1, mimeType: input.2), "\(input.0)")
    }

    @Test("anything outside the roots, a root itself, a way out, or no absolute path is refused, saying why", arguments: [
        ("/_capacitor_file_/etc/passwd", "outside the files this app may read"),
        ("/_capacitor_file_/d/hostshell/apps/a.b/cookies.sqlite", "outside the files"),
        ("/_capacitor_file_/d/hostshell/apps/a.b/files", "outside the files"),
        ("/_capacitor_file_/d/hostshell/apps/a.b/files-old/x", "outside the files"),
        ("/_capacitor_file_/real/files/../../etc/passwd", "no \"..\""),
        ("/_capacitor_file_/real/files/%2e%2e/x", "no \"..\""),
        ("/_capacitor_file_/real/files/./x", "no \"..\""),
        ("/_capacitor_file_/real/files/x%00.png", "absolute file path"),
        ("/_capacitor_file_", "absolute file path"),
        ("/_capacitor_file_/", "absolute file path"),
    ])
    func refused(_ input: (String, String)) {
        guard case .forbidden(let why) = CapacitorAssets.answer(forRequestPath: input.0, files: Self.files) else {
            Issue.record("\(input.0) was served"); return
        }
        #expect(why.contains(input.1), "\(input.0): \(why)")
    }

    @Test("a resolved path is checked again; with no roots nothing is served; other paths stay webDir's")
    func contains() {
        #expect(Self.files.contains("/real/files/x/y.png") && !Self.files.contains("/real/files") && !Self.files.contains("/real/filesx/y"))
        guard case .forbidden(let why) = CapacitorAssets.answer(forRequestPath: "/_capacitor_file_/real/files/x.png") else {
            Issue.record("served without roots"); return
        }
        #expect(why.contains("serves no local files"))
        #expect(!CapacitorFiles.isFileRequest("/_capacitor_file_x/y") && !CapacitorFiles.isFileRequest("/assets/_capacitor_file_/x"))
        #expect(CapacitorAssets.answer(forRequestPath: "/_capacitor_file_x/y.js", files: Self.files)
                == .file("_capacitor_file_x/y.js", mimeType: "text/javascript", fallback: false))
    }

    @Test("Range headers: one range is served, past the end is 416, anything else is the whole file", arguments: [
        ("bytes=0-9", 100, ByteRange.partial(first: 0, last: 9)), ("bytes=90-", 100, .partial(first: 90, last: 99)),
        ("bytes=-10", 100, .partial(first: 90, last: 99)), ("bytes=-500", 100, .partial(first: 0, last: 99)),
        ("bytes=50-500", 100, .partial(first: 50, last: 99)), (" Bytes=5-6 ", 100, .partial(first: 5, last: 6)),
        ("bytes=100-", 100, .unsatisfiable), ("bytes=0-", 0, .unsatisfiable), ("bytes=-0", 100, .unsatisfiable),
        ("bytes=9-1", 100, .whole), ("bytes=0-1,5-6", 100, .whole), ("items=0-1", 100, .whole), ("bytes=x-1", 100, .whole),
        ("bytes=-", 100, .whole), ("bytes=99999999999999999999-", 100, .whole), ("", 100, .whole),
    ])
    func ranges(_ input: (String, Int, ByteRange)) {
        #expect(ByteRange.resolve(input.0, size: input.1) == input.2, "\(input.0)")
    }

    @Test("a range's headers and length; a long range is cut to the limit")
    func rangeHeaders() {
        #expect(ByteRange.resolve(nil, size: 5) == .whole && ByteRange.whole.contentRange(size: 5) == nil)
        #expect(ByteRange.partial(first: 2, last: 4).contentRange(size: 5) == "bytes 2-4/5" && ByteRange.partial(first: 2, last: 4).length == 3)
        #expect(ByteRange.unsatisfiable.contentRange(size: 5) == "bytes */5")
        #expect(ByteRange.partial(first: 10, last: 1000).limited(to: 100) == .partial(first: 10, last: 109))
        #expect(ByteRange.partial(first: 10, last: 20).limited(to: 100) == .partial(first: 10, last: 20))
    }
}
