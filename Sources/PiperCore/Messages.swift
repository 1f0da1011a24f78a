/// The exact user-facing sentences from the Piper spec. Every use reads them from here.
public enum Messages {
    public static let noURL = "No URL found in share input"
    public static let connectX = "Open Piper to connect your X account"
    public static let saved = "Saved — paste into Instapaper"
    public static func failedToSave(_ reason: String) -> String { "Failed to save: \(reason)" }
}
