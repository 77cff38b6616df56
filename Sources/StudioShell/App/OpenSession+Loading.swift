import CGtk
import HostCore
import ShellKit
import StudioContract

/// Loading the server's Studio, carried out: the session's `LoadingMachine` decides (identity
/// check, reveal, failure screens, reloads after a crash, a kiosk's retries); this reports the
/// identity check's and WebKit's events to it and performs its effects.
extension OpenSession {
    /// Checks the server's identity, then loads Studio (start, Retry, the control's `reload`).
    func verifyAndLoad() { loadingEvent(.start) }

    /// Loads Studio's start page (after sign-in or sign-out).
    func loadStudio() { loadingEvent(.loadAgain) }

    /// What the window shows (for `--check`, replays and state dumps).
    var screen: Screen { loading.screen }

    /// Called after every change of the page: a catalog may have arrived.
    func reportPageState() {
        if page.session.catalog != nil { loadingEvent(.catalogArrived) }
    }

    func loadingEvent(_ event: LoadingEvent) {
        guard loadingLoop.send(event, perform: { self.performLoading($0) }) else { return }  // queued behind the effects running
        if loadingShowedScreen {
            loadingShowedScreen = false
            onScreenChanged?()
        }
    }

    private func performLoading(_ effect: LoadingEffect) {
        switch effect {
        case .fetchIdentity(let request):
            // Asynchronous: the loading mark keeps turning while a slow server answers.
            IdentityClient.fetch(record.address) { [weak self] result in
                guard let self else { return }
                switch result {
                case .success(let identity): self.loadingEvent(.identityAnswered(request: request, self.record.verify(identity)))
                case .failure(let failure): self.loadingEvent(.identityFailed(request: request, failure.kind, message: failure.message))
                }
            }
        case .loadStartPage:
            page.load(record.address.origin.description + "/")
        case .reload:
            webkit_web_view_reload(page.view)
        case .endWebProcess:
            webkit_web_view_terminate_web_process(page.view)
        case .show(let screen):
            view.show(screen)
            loadingShowedScreen = true
        case .timer(let command):
            loadingTimers.perform(command)
        }
    }

    /// Wires loading: the timers, Retry, a kiosk's unattended retries, and WebKit's load,
    /// responsiveness and web-process signals. The window shows the machine's first screen from the start.
    func connectLoading() {
        loadingTimers = TimerBank { [weak self] name in self?.loadingEvent(.timerFired(name)) }
        view.onRetry = { [weak self] in self?.verifyAndLoad() }
        if kiosk != nil { loadingEvent(.kioskMode) }
        view.show(loading.screen)
        // Connected after the page's own handlers, which run first: `documentStatus` and the
        // catalog are the new document's when this one runs.
        pageSignals.append(onLoadChanged(page.view) { [weak self] event in
            guard let self else { return }
            switch event {
            case WEBKIT_LOAD_COMMITTED: self.loadingEvent(.loadCommitted(status: self.page.web.documentStatus, uri: self.page.uri ?? ""))
            case WEBKIT_LOAD_FINISHED: self.loadingEvent(.loadFinished)
            default: break
            }
        })
        // Never WebKit's own error page (it would be taken for Studio's): a failure shows the
        // error screen, a load replaced or stopped by a policy shows nothing. A load cut off with
        // nothing after it (`LoadEnd.cutOff`) failed.
        pageSignals.append(onLoadFailed(page.view) { [weak self] uri, error in
            guard let self else { return true }
            let failure: LoadFailure = switch self.page.web.loadEnd(error) {
            case .replaced: .cancelled
            case .policy: .policy
            case .cutOff(let reason): .other("the load was cut off before the page came (\(reason))")
            case .failed(let reason): .other(reason)
            }
            self.loadingEvent(.loadFailed(failure, uri: uri))
            return true
        })
        page.web.onResponsivenessChange { [weak self] responsive in self?.loadingEvent(.webProcessResponsive(responsive)) }
        pageSignals.append(onProcessTerminated(page.view) { [weak self] reason in
            let end: WebProcessEnd = switch reason {
            case WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT: .exceededMemory
            case WEBKIT_WEB_PROCESS_TERMINATED_BY_API: .terminatedByHost
            default: .crashed
            }
            self?.loadingEvent(.webProcessEnded(end, at: monotonicSeconds()))
        })
    }
}
