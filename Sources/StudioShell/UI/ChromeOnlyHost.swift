import CGtk
import StudioContract

/// The performer of a bare Studio page in a window (`probe`, the live benchmark): it draws the
/// native chrome and reports each change; the rest of the native surface is not offered there.
@MainActor
package final class ChromeOnlyHost: StudioPageHost {
    private let view: StudioView
    private let changed: @MainActor () -> Void

    package init(view: StudioView, changed: @escaping @MainActor () -> Void) {
        self.view = view
        self.changed = changed
    }

    package func perform(_ effect: PageEffect, for page: StudioPage) {
        if case .chromeChanged(let chrome) = effect { view.show(chrome) }
    }

    package func studioPageChanged(_ page: StudioPage) { changed() }
}
