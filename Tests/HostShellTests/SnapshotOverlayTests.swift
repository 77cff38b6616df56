import CGtk
import Foundation
import Testing

/// Pictures show what a person sees (issue 16 item 5): `ctl snapshot` draws the popovers, menus
/// and dialogs over the window where they show.
@Suite("Snapshots with what shows over the window (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct SnapshotOverlayTests {
    /// A PNG's pixels (RGBA, 8 bits each), read by GDK as any image viewer would.
    struct Pixels {
        let width: Int, height: Int, bytes: [UInt8]
        init(_ path: String) throws {
            var error: UnsafeMutablePointer<GError>?
            let file = g_file_new_for_path(path)
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            guard let texture = gdk_texture_new_from_file(file, &error) else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path])
            }
            defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
            let w = Int(gdk_texture_get_width(texture)), h = Int(gdk_texture_get_height(texture))
            var buffer = [UInt8](repeating: 0, count: w * h * 4)
            buffer.withUnsafeMutableBufferPointer { gdk_texture_download(texture, $0.baseAddress, gsize(w * 4)) }
            (width, height, bytes) = (w, h, buffer)
        }
        func differs(from other: Pixels, x: Int, y: Int) -> Bool {
            let i = (y * width + x) * 4
            return bytes[i..<i + 4] != other.bytes[i..<i + 4]
        }
    }

    @Test("a snapshot with a menu open shows the menu where it opened; the picture without it does not")
    func menuInSnapshot() throws {
        let live = try LiveApp()
        defer { live.finish() }
        let (app, home) = (live.app, live.home)
        _ = try app.state("screen=page", "negotiated=true")
        #expect(try app.ctl("tap", "screens").status == 0)
        _ = try app.stateWhen("menus.triggers.2")
        let before = home.root.appendingPathComponent("before.png").path
        #expect(try app.ctl("snapshot", before).status == 0)
        try app.openMenu("row-lobby-north")
        let state = try app.state("desktop.overlays.0.kind=\"popover\"")
        let frame = try #require(((state["desktop"] as? [String: Any])?["overlays"] as? [[String: Any]])?.first)
        let (fx, fy, fw, fh) = (frame["x"] as! Int, frame["y"] as! Int, frame["width"] as! Int, frame["height"] as! Int)
        let open = home.root.appendingPathComponent("open.png").path
        #expect(try app.ctl("snapshot", open).status == 0)
        let (a, b) = (try Pixels(before), try Pixels(open))
        try #require(a.width == b.width && a.height == b.height && fw > 20 && fh > 20, "\(frame)")
        // Inside the menu's frame (in the window), most pixels changed; outside it, none did.
        var inside = 0, changedInside = 0, changedOutside = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let within = x >= fx && x < fx + fw && y >= fy && y < fy + fh
                let changed = a.differs(from: b, x: x, y: y)
                if within { inside += 1; if changed { changedInside += 1 } } else if changed { changedOutside += 1 }
            }
        }
        #expect(inside > 0 && changedInside * 4 > inside, "\(changedInside) of \(inside) pixels of the menu's frame changed")
        #expect(changedOutside * 50 < a.width * a.height, "\(changedOutside) pixels outside the menu changed")
        #expect(try app.ctl("menu-close").status == 0)
        _ = try app.state("menus.open=null", "desktop.overlays=[]")

        // A dialog (About) shows centred over the dimmed window.
        #expect(try app.ctl("action", "about").status == 0)
        _ = try app.state("desktop.about=true", "desktop.overlays.0.kind=\"dialog\"")
        let about = home.root.appendingPathComponent("about.png").path
        #expect(try app.ctl("snapshot", about).status == 0)
        let c = try Pixels(about)
        let centre = (c.height / 2 * c.width + c.width / 2)
        #expect(c.bytes[centre * 4..<centre * 4 + 4] != a.bytes[centre * 4..<centre * 4 + 4], "the About window is not in the picture")
    }

    @Test("a snapshot taken right after wait screen=page shows the page as it settles, not the loading mark or a cross-fade")
    func snapshotAfterWait() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let (app, home) = (live.app, live.home)
        _ = try app.state("screen=page")
        let first = home.root.appendingPathComponent("first.png").path
        let shot = try app.ctl("snapshot", first)
        #expect(shot.status == 0, "\(shot.error)")
        // The same window once the page has settled: nothing moves in the reference Studio's
        // overview once it is shown, so the two pictures are the same but for a few pixels.
        _ = try app.state("negotiated=true", "frontendReady=true", "navigation.selected=overview")
        #expect(try app.evalWhen("document.readyState === 'complete'") as? Bool == true)
        let settled = home.root.appendingPathComponent("settled.png").path
        #expect(try app.ctl("snapshot", settled).status == 0)
        let (a, b) = (try Pixels(first), try Pixels(settled))
        try #require(a.width == b.width && a.height == b.height)
        var changed = 0
        for y in 0..<a.height { for x in 0..<a.width where a.differs(from: b, x: x, y: y) { changed += 1 } }
        #expect(changed * 100 < a.width * a.height, "\(changed) of \(a.width * a.height) pixels differ from the settled window")
    }
}
