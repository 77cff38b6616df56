import HostCore

/// A page's system features (§4 System): haptic feedback (made visible: there is no vibration
/// motor), the share panel (one at a time, refusing the server's own `/api` and `/__native`
/// links), and the QR scan (one at a time; its result sent once, a late one dropped). A panel
/// or a scan opens only where a person can see the page.
public struct SystemFeatures: Machine, Sendable, Equatable {
    public enum Event: Sendable, Equatable {
        /// `system/haptic`; nil feedback: a well-formed kind this host does not know.
        case haptic(HapticFeedback?, id: String?)
        /// `system/share`; `seen`: a person can see the page now.
        case share(ShareRequest, id: String?, seen: Bool)
        /// The share panel closed (whatever was chosen): another share may open.
        case shareClosed
        /// `system/scan-qr`.
        case scanQR(QRScanRequest, id: String?, seen: Bool)
        /// The scan `requestId` ended: a value, or nil when cancelled. `studioReady`: Studio may be told.
        case scanFinished(requestId: String, value: String?, studioReady: Bool)
        /// The document (or presentation) the scan belonged to is gone: take it away unreported.
        case withdrawScan
    }

    /// Replies, `.haptic`, `.showShare` (and `.shareWarned`), `.startQRScan`, `.withdrawQRScan`, and `.send` of
    /// `system/qr-scan-result`.
    public typealias Effect = PageEffect

    /// What is offered to this page (`systemHaptics`, `systemShare`, `systemQrScanner` are read).
    public let offered: HostCapabilities
    /// The server's origin, for the share rule about its own `/api` and `/__native` trees.
    public let serverOrigin: Origin?
    /// A share panel is open: another share gets `unavailable`.
    public private(set) var shareOpen = false
    /// The QR scan in progress, by request id: one at a time.
    public private(set) var qrScanRequestId: String?

    public init(offered: HostCapabilities, serverOrigin: Origin?) {
        self.offered = offered
        self.serverOrigin = serverOrigin
    }

    public mutating func reduce(_ event: Event) -> [PageEffect] {
        switch event {
        case .haptic(let feedback, let id):
            guard offered.contains(.systemHaptics) else { return [.reply(.failure(id: id, code: .unavailable))] }
            return [.reply(.ok(id))] + (feedback.map { [.haptic($0)] } ?? [])  // an unknown kind does nothing

        case .share(let request, let id, let seen):
            guard offered.contains(.systemShare), !shareOpen, seen,
                  case .allowed = SharePolicy.verdict(for: request, serverOrigin: serverOrigin) else {
                return [.reply(.failure(id: id, code: .unavailable))]
            }
            shareOpen = true
            // Shared as the phone shares it; what the phone's rules miss is said, not refused.
            let warnings = ShareLint.warnings(for: request, serverOrigin: serverOrigin)
            return [.reply(.ok(id)), .showShare(request)] + (warnings.isEmpty ? [] : [.shareWarned(warnings)])

        case .shareClosed:
            shareOpen = false
            return []

        case .scanQR(let request, let id, let seen):
            guard offered.contains(.systemQrScanner), qrScanRequestId == nil, seen else {
                return [.reply(.failure(id: id, code: .unavailable))]
            }
            qrScanRequestId = request.requestId
            return [.reply(.ok(id)), .startQRScan(requestId: request.requestId)]

        case .scanFinished(let requestId, let value, let studioReady):
            // A late result for a scan that was settled or withdrawn is dropped.
            guard qrScanRequestId == requestId else { return [] }
            qrScanRequestId = nil
            return studioReady ? [.send(HostMessage.boundedQRResult(requestId: requestId, value: value))] : []

        case .withdrawScan:
            guard let scan = qrScanRequestId else { return [] }
            qrScanRequestId = nil
            return [.withdrawQRScan(requestId: scan)]
        }
    }
}
