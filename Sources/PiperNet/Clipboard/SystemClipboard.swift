import Foundation
import PiperCore
import PiperSystem

/// The desktop's clipboard: `pbcopy` on macOS; `wl-copy` under Wayland; `xclip` or `xsel` under
/// X11; otherwise OSC 52 to the controlling terminal. The choice reads only the environment
/// given, so a test can point it at its own display.
public struct SystemClipboard: Clipboard {
    package enum Mechanism: Equatable, Sendable {
        case tool(String, [String])   // executable path, arguments
        case osc52
    }

    package let environment: [String: String]

    /// A clipboard that chooses its mechanism from `environment` at each copy.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// Which mechanism this environment calls for, or nil when there is none.
    package func mechanism() -> Mechanism? {
        #if os(macOS)
        if let pbcopy = which("pbcopy") { return .tool(pbcopy, []) }
        #endif
        if nonEmpty("WAYLAND_DISPLAY"), let wl = which("wl-copy") { return .tool(wl, []) }
        if nonEmpty("DISPLAY") {
            if let xclip = which("xclip") { return .tool(xclip, ["-selection", "clipboard", "-in"]) }
            if let xsel = which("xsel") { return .tool(xsel, ["--clipboard", "--input"]) }
        }
        if FileManager.default.isWritableFile(atPath: "/dev/tty") { return .osc52 }
        return nil
    }

    /// Copies `text` and returns how (the tool's name, or OSC 52), so the share can say where
    /// the URL went; throws `ClipboardError` when this desktop has no clipboard to use.
    public func copy(_ text: String) throws -> String {
        guard let mechanism = mechanism() else {
            throw ClipboardError("No clipboard available (no DISPLAY or WAYLAND_DISPLAY, and no terminal); the URL is printed above")
        }
        switch mechanism {
        case .tool(let path, let args):
            try run(path, args, input: text)
            return URL(fileURLWithPath: path).lastPathComponent
        case .osc52:
            try writeOSC52(text)
            return "terminal (OSC 52)"
        }
    }

    private func nonEmpty(_ key: String) -> Bool { !(environment[key] ?? "").isEmpty }

    private func which(_ tool: String) -> String? {
        ExecutableSearch.find(tool, environment: environment)
    }

    /// Feeds `input` to the tool and checks its exit status. `xclip` and `wl-copy` leave a
    /// child running to own the selection; its output goes to /dev/null so it holds none of ours.
    private func run(_ path: String, _ args: [String], input: String) throws {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let status: Int32
        do {
            status = try ToolRunner.run(path, args, input: input, environment: environment)
        } catch {
            throw ClipboardError("Could not copy to the clipboard: \(name) \(error)")
        }
        guard status == 0 else {
            throw ClipboardError("Could not copy to the clipboard: \(name) exited with status \(status)")
        }
    }

    /// `ESC ] 52 ; c ; <base64> BEL` to the controlling terminal.
    private func writeOSC52(_ text: String) throws {
        guard let tty = FileHandle(forWritingAtPath: "/dev/tty") else {
            throw ClipboardError("Could not copy to the clipboard: no terminal")
        }
        defer { try? tty.close() }
        let sequence = "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
        do {
            try tty.write(contentsOf: Data(sequence.utf8))
        } catch {
            throw ClipboardError("Could not copy to the clipboard: \(error.localizedDescription)")
        }
    }
}
