import BridgeRuntime
import CGtk

/// The performer of a bare Studio page in a window (`probe`, the live benchmark): it draws the
/// native chrome and reports each change; the rest of the native surface is not offered there.
@MainActor
final class ChromeOnlyHost: StudioPageHost {
    private let view: StudioView
    private let changed: @MainActor () -> Void

    init(view: StudioView, changed: @escaping @MainActor () -> Void) {
        self.view = view
        self.changed = changed
    }

    func perform(_ effect: PageEffect, for page: StudioPage) {
        if case .chromeChanged(let chrome) = effect { view.show(chrome) }
    }

    func studioPageChanged(_ page: StudioPage) { changed() }
}
