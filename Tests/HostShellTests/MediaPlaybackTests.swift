import Foundation
import Testing

/// Issue 28 item 5: media as WKWebView plays it. iOS plays HLS itself and decodes H.264 and AAC;
/// HomeSec's live view hands the stream's URL to a `<video>`. Here a real `hostshell capacitor`
/// page (`fixtures/capacitor/media-app`) plays an HLS stream of H.264 and AAC that the test makes
/// with GStreamer's own tools (no network) and serves on loopback.
@Suite("Media as the phone plays it: HLS with H.264 and AAC (real WebKit, real GStreamer)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct MediaPlaybackTests {
    static let project = HostShellBinary.root.appendingPathComponent("fixtures/capacitor/media-app").path

    /// Three seconds of H.264 video and AAC audio in one MPEG-TS segment, and its playlist, in
    /// `directory/live`. (GStreamer's hlssink2 makes the same but, at the end of a short stream,
    /// sometimes does not exit: the muxer into a file always does, and the playlist is six lines.)
    static func makeStream(in directory: URL) throws -> URL {
        let live = directory.appendingPathComponent("live")
        try FileManager.default.createDirectory(at: live, withIntermediateDirectories: true)
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["gst-launch-1.0", "-q", "mpegtsmux", "name=mux", "!", "filesink", "location=\(live.path)/segment0.ts",
                          "videotestsrc", "num-buffers=90", "!", "video/x-raw,width=320,height=240,framerate=30/1", "!",
                          "x264enc", "speed-preset=ultrafast", "tune=zerolatency", "key-int-max=30", "!", "h264parse", "!", "queue", "!", "mux.",
                          "audiotestsrc", "num-buffers=130", "!", "audio/x-raw,rate=44100,channels=2", "!",
                          "avenc_aac", "!", "aacparse", "!", "queue", "!", "mux."]
        let said = directory.appendingPathComponent("gst-launch.log")
        FileManager.default.createFile(atPath: said.path, contents: nil)
        make.standardError = try FileHandle(forWritingTo: said)
        make.standardOutput = FileHandle.nullDevice
        try make.run()
        let ended = waitUntil(timeout: 60) { !make.isRunning }
        if !ended { make.terminate() }
        make.waitUntilExit()
        let errors = (try? String(contentsOf: said, encoding: .utf8)) ?? ""
        try #require(ended && make.terminationStatus == 0, "gst-launch-1.0 (scripts/install-deps installs it) could not make the stream: \(errors)")
        try "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:3\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:3.0,\nsegment0.ts\n#EXT-X-ENDLIST\n"
            .write(to: live.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
        return live
    }

    @Test("canPlayType says \"maybe\" for HLS as on iOS, and a <video> plays an HLS stream of H.264 and AAC from a loopback server")
    func playsHLS() throws {
        let served = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-hls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: served) }
        _ = try Self.makeStream(in: served)
        let server = try ServingProcess(["serve", "--reference", "--root", served.path], what: "the stream's server")
        defer { server.stop() }
        try #require(server.url.hasPrefix("http://127.0.0.1:"))

        let home = TemporaryHome()
        defer { home.remove() }
        let app = try RunningApp(home: home, arguments: [Self.project, "--allow-eval"], command: "capacitor")
        defer { app.stop() }
        _ = try app.state("screen=page")
        let answers = try #require(try app.evalWhen("window.media && JSON.stringify(window.media.canPlay)") as? String)
        let canPlay = try #require(try JSONSerialization.jsonObject(with: Data(answers.utf8)) as? [String: String])
        #expect(canPlay["hls"] == "maybe", "iOS answers maybe for HLS: \(answers)")
        #expect(canPlay["hlsX"] == "maybe", "\(answers)")
        #expect(canPlay["mp4H264AAC"] == "probably", "H.264 with AAC in MP4: \(answers)")

        #expect(try app.ctl("eval", "window.media.play(\(CapacitorLiveTests.literal(server.url + "/live/index.m3u8")))").status == 0)
        let played = try app.evalWhen("(window.media.error || (window.media.playing && window.media.currentTime > 0)) && JSON.stringify(window.media)", timeout: 60)
        let media = try #require((played as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] },
                                 "the stream did not play: \(String(describing: played))")
        #expect(media["error"] is NSNull, "\(media)")
        #expect(media["playing"] as? Bool == true && ((media["currentTime"] as? Double) ?? 0) > 0, "\(media)")
        #expect(media["videoWidth"] as? Int == 320, "the H.264 picture was decoded: \(media)")
        let events = media["events"] as? [String] ?? []
        #expect((events.firstIndex(of: "loadedmetadata") ?? .max) < (events.firstIndex(of: "playing") ?? -1), "the media events in order: \(media)")
    }
}
