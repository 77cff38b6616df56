/// The latest entries of a list a state report shows (notices, notifications, console lines).
public enum KeptList {
    /// `list` with `item` added at the end, keeping only the latest `limit` entries.
    public static func appending<T>(_ item: T, to list: [T], keeping limit: Int) -> [T] {
        Array((list + [item]).suffix(max(0, limit)))
    }
}
