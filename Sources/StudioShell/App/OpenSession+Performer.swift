import StudioContract

/// The session as its pages' performer: main's page's effects all come here; the sheet page's
/// come through the presentation controller, which keeps the sheet's own (presentation, menus)
/// and passes on what both pages share — alerts, share, haptics, QR scans.
extension OpenSession: StudioPageHost {
    package func perform(_ effect: PageEffect, for page: StudioPage) {
        if page === self.page {
            switch effect {
            case .chromeChanged(let chrome): return view.show(chrome)
            case .studioSignedOut:
                presentations.discard()  // the hidden sheet page carries the sign-in that ended (§6)
                return auth.send(.studioSignedOut)
            case .startMediaIntake(let request): return startIntake(request)
            case .openPresentation(let request): return presentations.open(request)
            case .showMap(let map):
                // A new surface closes the sheet page's open menu too (main's is closed already).
                presentations.preparedPage?.apply(.surfaceShown)
                return showMap(map)
            case .hideMap(let mapId): return hideMap(mapId)
            case .menusChanged, .showMenu, .hideMenu:
                _ = view.menus.perform(effect, for: page)
                if effect == .menusChanged { menusChanged(on: page) }
                return onScreenChanged?() ?? ()
            default: break
            }
        }
        switch effect {
        case .showAlert, .showShare, .startQRScan:
            // A new surface closes the menu open on either page (the asking page's own is
            // already closed by its session).
            for other in [self.page, presentations.preparedPage].compactMap({ $0 }) where other !== page { other.apply(.surfaceShown) }
        default: break
        }
        switch effect {
        case .showAlert(let request): showAlert(request, for: page)
        case .withdrawAlert(let alertId): withdrawAlert(alertId, for: page)
        case .haptic(let feedback): showHaptic(feedback)
        case .showShare(let request): showShare(request, for: page)
        case .shareWarned(let warnings): warnShare(warnings, for: page)
        case .startQRScan(let requestId): startQRScan(requestId, for: page)
        case .withdrawQRScan: withdrawQRScan()
        case .menusChanged: menusChanged(on: page)  // the sheet page's, drawn by its controller
        default: break  // nothing else reaches a session from a page that is not its own
        }
    }

    package func studioPageCommitted(_ page: StudioPage) { documentCommitted(page.uri ?? "") }

    package func studioPageChanged(_ page: StudioPage) {
        reportPageState()
        presentations?.mainChanged()
        reportReady()
    }
}
