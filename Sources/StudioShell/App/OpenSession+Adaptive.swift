/// The window's width decides the layout, as size classes do on iOS (`AdaptiveLayout`): a
/// change of class draws the chrome again (tabs ↔ sidebar) and gives the sheet its style in
/// place; the selection, the back bar and whatever is open stay as they are.
extension OpenSession {
    func windowWidthChanged(_ width: Int) {
        adaptiveLoop.send(width) { effect in
            switch effect {
            case .relayout(let sizeClass):
                self.page.apply(.sizeClassChanged(sizeClass))
                self.presentations.relayout(sizeClass)
                self.mapSurface?.apply(sizeClass: sizeClass)
            }
        }
    }
}
