#if canImport(Glibc)
import Glibc
#endif

/// Writing to a pipe whose reader has died (a clipboard tool that failed at once, a browser that
/// crashed) must be an error (EPIPE), not a fatal signal for the whole process. Evaluated once,
/// before the first such write. Children get SIGPIPE back at its default through
/// `ProcessSpawner.resetSignals`, since an ignored disposition survives exec.
package let ignoreSIGPIPE: Void = {
    signal(SIGPIPE, SIG_IGN)
}()
