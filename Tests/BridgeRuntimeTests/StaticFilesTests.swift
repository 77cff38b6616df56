@testable import CapacitorContract
@testable import HomeSec
@testable import HostCore
@testable import Push
@testable import StudioContract
import Testing

@Suite("StaticFiles: the fixture servers' files — never outside the root, routes get index.html, types as the app scheme sends them")
struct StaticFilesTests {
    @Test("a file path stays under the root; a dot-segment anywhere is refused; an extension-less path is a route")
    func paths() {
        #expect(StaticFiles.file(root: "/w", requestPath: "/js/app.js") == "/w/js/app.js")
        #expect(StaticFiles.file(root: "/w", requestPath: "/events/clip-42") == "/w/index.html")
        #expect(StaticFiles.file(root: "/w", requestPath: "/") == "/w/index.html")
        for refused in ["/../etc/passwd", "/js/../../x.js", "/.git/config", "/a/.hidden.js", "/./x.js"] {
            #expect(StaticFiles.file(root: "/w", requestPath: refused) == nil, "\(refused)")
        }
    }

    @Test("text types say their charset; others do not; unknown ones are bytes")
    func types() {
        #expect(StaticFiles.contentType("/w/index.html") == "text/html; charset=utf-8")
        #expect(StaticFiles.contentType("/w/app.MJS") == "text/javascript; charset=utf-8")
        #expect(StaticFiles.contentType("/w/a.png") == "image/png")
        #expect(StaticFiles.contentType("/w/blob.bin") == "application/octet-stream")
    }
}
