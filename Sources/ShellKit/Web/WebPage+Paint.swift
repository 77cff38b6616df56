extension WebPage {
    /// Calls `done(true)` once the page has painted what its script has drawn so far: after the
    /// second animation frame from now (the first runs before the frame that shows the change),
    /// or `done(false)` after `limit` ms if the page never paints (or the script failed). Runs in
    /// a world of its own, so Studio's scripts cannot see or disturb it.
    package func whenPainted(limit seconds: Double, _ done: @escaping @MainActor (_ painted: Bool) -> Void) {
        let limit = UInt32(max(0, min(seconds, 600)) * 1000)
        let once = FireOnce(done)
        MainLoop.after(milliseconds: limit) { once.fire(false) }
        callAsync("return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))));",
                  world: "hostshell-paint") { result in
            if case .success = result { once.fire(true) } else { once.fire(false) }
        }
    }
}
