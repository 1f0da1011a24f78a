/// Text a person gave that is shown back as a name (an uploaded file's, a device's): without
/// control characters (C0, DEL, C1) or invisible format characters (Unicode's category Cf:
/// bidi controls such as U+202E and U+2066–2069, zero-width ones such as U+200B), which
/// would make a name read as another ("\u{202E}gnp.wav" shows as "vaw.png").
enum VisibleText {
    static func of(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter {
            $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) && $0.properties.generalCategory != .format
        }))
    }
}
