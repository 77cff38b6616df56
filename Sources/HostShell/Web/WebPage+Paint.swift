
extension WebPage {
    /// Calls `done` once the page has painted what its script has drawn so far: after the second
    /// animation frame from now (the first runs before the frame that shows the change), or after
    /// `limit` ms if the page never paints. Runs in a world of its own, so Studio's scripts
    /// cannot see or disturb it.
    func whenPainted(limit: UInt32 = 2_000, _ done: @escaping @MainActor () -> Void) {
        let once = PaintBox(done)
        MainLoop.after(milliseconds: limit) { once.fire() }
        callAsync("return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))));",
                  world: "hostshell-paint") { _ in once.fire() }
    }
}

/// Runs its closure the first time it fires, whichever of the paint and the time limit comes first.
@MainActor
private final class PaintBox {
    private var done: (@MainActor () -> Void)?
    init(_ done: @escaping @MainActor () -> Void) { self.done = done }
    func fire() {
        let body = done
        done = nil
        body?()
    }
}
