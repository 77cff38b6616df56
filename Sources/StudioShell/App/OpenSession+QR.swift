import CGtk

/// QR scanning: Studio's `system/scan-qr` opens the scan dialog (a picture of the code; there is
/// no camera here), and the text goes back as `system/qr-scan-result`. The control interface can
/// answer with a value or an image instead of a person.
extension OpenSession {
    /// Opens the scan dialog for `page`'s request.
    func startQRScan(_ requestId: String, for page: StudioPage) {
        qrScan = QRScanDialog(parent: page.window) { [weak self, weak page] value in
            guard let self else { return }
            self.qrScan = nil
            page?.finishQRScan(requestId, value: value)
            self.onScreenChanged?()
        }
        onScreenChanged?()
    }

    /// Takes the scan away without a result (its document or presentation is gone).
    func withdrawQRScan() {
        guard let scan = qrScan else { return }
        qrScan = nil
        scan.finish(nil)
    }
}
