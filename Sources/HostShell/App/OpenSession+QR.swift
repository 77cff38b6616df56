import BridgeRuntime
import CGtk

/// QR scanning: Studio's `system/scan-qr` opens the scan dialog (a picture of the code; there is
/// no camera here), and the text goes back as `system/qr-scan-result`. The control interface can
/// answer with a value or an image instead of a person.
extension OpenSession {
    func connectQR(_ page: StudioPage) {
        page.onStartQRScan = { [weak self, weak page] requestId in
            guard let self, let page else { return }
            self.qrScan = QRScanDialog(parent: page.window) { [weak self, weak page] value in
                guard let self else { return }
                self.qrScan = nil
                page?.finishQRScan(requestId, value: value)
                self.onScreenChanged?()
            }
            self.onScreenChanged?()
        }
        page.onWithdrawQRScan = { [weak self] _ in
            guard let self, let scan = self.qrScan else { return }
            self.qrScan = nil
            scan.finish(nil)
        }
    }
}
