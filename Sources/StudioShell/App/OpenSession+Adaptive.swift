/// The window's width decides the layout, as size classes do on iOS (`AdaptiveLayout`): a
/// change of class draws the chrome again (tabs ↔ sidebar) and gives the sheet its style in
/// place; the selection, the back bar and whatever is open stay as they are.
extension OpenSession {
    func windowWidthChanged(_ width: Int) {
        for effect in adaptive.reduce(width: width) {
            switch effect {
            case .relayout(let sizeClass):
                page.apply(.sizeClassChanged(sizeClass))
                presentations.relayout(sizeClass)
                mapSurface?.apply(sizeClass: sizeClass)
            }
        }
    }
}
