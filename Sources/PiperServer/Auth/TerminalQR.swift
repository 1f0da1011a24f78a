import CQRencode

/// A QR code for a terminal, drawn with half-block characters (two module rows per line),
/// light modules as blocks so it scans on the usual dark terminal. libqrencode encodes it.
public enum TerminalQR {
    /// The code as lines of text, or nil when libqrencode cannot encode `text` (or cannot be
    /// loaded: it is opened on first use).
    public static func render(_ text: String, quietZone: Int = 2) -> String? {
        guard piper_qrencode_load() == nil, let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let modules = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        func dark(_ x: Int, _ y: Int) -> Bool {
            let (mx, my) = (x - quietZone, y - quietZone)
            guard mx >= 0, my >= 0, mx < width, my < width else { return false }
            return modules[my * width + mx] & 1 == 1
        }
        let size = width + 2 * quietZone
        var lines: [String] = []
        for y in stride(from: 0, to: size, by: 2) {
            var line = ""
            for x in 0..<size {
                switch (dark(x, y), dark(x, y + 1)) {
                case (false, false): line += "█"
                case (true, true): line += " "
                case (true, false): line += "▄"
                case (false, true): line += "▀"
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The modules as rows of booleans (true: dark), for tests and other renderers.
    public static func modules(_ text: String) -> [[Bool]]? {
        guard piper_qrencode_load() == nil, let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        return (0..<width).map { y in (0..<width).map { x in code.pointee.data[y * width + x] & 1 == 1 } }
    }
}
