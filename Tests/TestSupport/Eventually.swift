import Foundation

/// Waits, within a bound, for a condition that another thread or process brings about, and
/// returns whether it came true. A functional wait, never a timing assertion.
public func eventually(within seconds: Double = 60, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}

/// `eventually` for async conditions (an HTTP request, a child's output read in a task).
public func eventually(within seconds: Double = 60, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
