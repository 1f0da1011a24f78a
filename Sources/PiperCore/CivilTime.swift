/// Dates of the proleptic Gregorian calendar in UTC, counted by hand (Howard Hinnant's
/// `days_from_civil` and its inverse): the share path, the save answer and posts write and read
/// their times without ICU's date formatters.
public enum CivilTime {
    /// Days from 1970-01-01 to the date.
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Year, month, day, hour, minute, second of a time in seconds since 1970 (UTC).
    public static func parts(_ total: Int) -> (Int, Int, Int, Int, Int, Int) {
        var days = total / 86400
        var seconds = total % 86400
        if seconds < 0 { seconds += 86400; days -= 1 }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, seconds / 3600, seconds % 3600 / 60, seconds % 60)
    }
}
