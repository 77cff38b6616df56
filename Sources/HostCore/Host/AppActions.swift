/// The app's own actions, as a GNOME app offers them: in the primary menu, on the keyboard, and
/// in the Keyboard Shortcuts window — one table, so the three cannot disagree. `ctl action NAME`
/// triggers one headless, as the menu or the key would.
public enum AppAction: String, Sendable, CaseIterable {
    case newWindow = "new-window"
    case closeWindow = "close-window"
    case quit
    case reload
    case back
    case switchServer = "switch-server"
    case shortcuts
    case about

    /// The keys that trigger it, in GTK's accelerator syntax (`<Control>r`); the first is the
    /// one menus show.
    public var accelerators: [String] {
        switch self {
        case .newWindow: return ["<Control>n"]
        case .closeWindow: return ["<Control>w"]
        case .quit: return ["<Control>q"]
        case .reload: return ["<Control>r", "F5"]
        case .back: return ["<Alt>Left"]
        case .switchServer: return ["F10"]
        case .shortcuts: return ["<Control>question"]
        case .about: return []
        }
    }

    /// Its name in menus and in the Keyboard Shortcuts window.
    public var title: String {
        switch self {
        case .newWindow: return "New Window"
        case .closeWindow: return "Close Window"
        case .quit: return "Quit"
        case .reload: return "Reload"
        case .back: return "Back"
        case .switchServer: return "Switch Server"
        case .shortcuts: return "Keyboard Shortcuts"
        case .about: return "About HostShell"
        }
    }

    /// The group the Keyboard Shortcuts window lists it under.
    public var section: String {
        switch self {
        case .newWindow, .closeWindow, .quit, .shortcuts, .about: return "General"
        case .reload, .back, .switchServer: return "Navigation"
        }
    }

    /// The primary menu (the header's "open menu" button), in order, as GNOME's guidelines have
    /// it: window items first, then Keyboard Shortcuts and About.
    public static let primaryMenu: [[AppAction]] = [[.newWindow], [.shortcuts, .about]]

    /// What a kiosk offers of them: nothing a person could use to leave it or look around it.
    public static func available(kiosk: Bool) -> [AppAction] {
        kiosk ? [] : allCases
    }

    /// The Keyboard Shortcuts window's sections, in order, each with its actions that have keys.
    public static var shortcutSections: [(title: String, actions: [AppAction])] {
        var sections: [(title: String, actions: [AppAction])] = []
        for action in allCases where !action.accelerators.isEmpty {
            if let index = sections.firstIndex(where: { $0.title == action.section }) {
                sections[index].actions.append(action)
            } else {
                sections.append((action.section, [action]))
            }
        }
        return sections
    }

    /// `ctl action`'s words, for its errors.
    public static var names: [String] { allCases.map(\.rawValue) }
}
