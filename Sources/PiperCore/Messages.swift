import Foundation

/// The exact user-facing sentences from the Piper spec. Every use reads them from here.
public enum Messages {
    /// A saved article's page also names media: where to get it instead.
    public static func alsoFound(_ media: URL) -> String {
        let ext = media.pathExtension.lowercased()
        let kind = ["mp4", "m4v", "mov"].contains(ext) ? "video" : MediaLinks.allowedExtensions.contains(ext) ? "audio" : "media"
        let name = media.lastPathComponent.isEmpty || media.lastPathComponent == "/" ? media.absoluteString : media.lastPathComponent
        return "Also found \(kind): \(name) (share with --as media)"
    }
    /// The share input held no http(s) URL.
    public static let noURL = "No URL found in share input"
    /// An X/Twitter link was shared without X cookies.
    public static let connectX = "Open Piper to connect your X account"
    /// An article was saved (the reader URL follows).
    public static let saved = "Saved — paste into Instapaper"
    /// `saved`, then when the link stops working: "Saved — paste into Instapaper (link valid until 14:32)".
    public static func saved(until time: String) -> String { "\(saved) (link valid until \(time))" }
    /// A save failed, with the backend's or the transport's reason.
    public static func failedToSave(_ reason: String) -> String { "Failed to save: \(reason)" }

    /// Piper's own sentence for shared media whose content (or link) is already in the library;
    /// `path` is relative to the library.
    public static func alreadyInLibrary(_ path: String) -> String { "Already in the library as \(path)" }
    /// Piper's own sentence for shared media that reached the library.
    public static func inLibrary(_ path: String) -> String { "In the library as \(path)" }
}
