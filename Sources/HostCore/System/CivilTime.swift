/// Calendar arithmetic without Foundation, for timestamps in records and logs.
public enum CivilTime {
    /// Proleptic Gregorian date and time of a Unix time (Howard Hinnant's days-from-civil, inverted).
    public static func components(_ seconds: Int) -> (Int, Int, Int, Int, Int, Int) {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rest = seconds - days * 86400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, rest / 3600, rest % 3600 / 60, rest % 60)
    }
}
