import Foundation

/// Byte counts as people read them in messages: "38.2 MB", "8 GiB" for round binary limits.
enum ByteText {
    static func format(_ bytes: Int64) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes < 1000 { return "\(bytes) bytes" }
        let units = ["kB", "MB", "GB", "TB", "PB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return "\(String(format: "%.1f", value)) \(units[unit])"
    }
}
