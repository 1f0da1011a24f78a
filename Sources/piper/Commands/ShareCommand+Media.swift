import MediaImport
import PiperCore

/// The media route's queue for `piper share`: the durable download journal, worked by
/// `piper agent` (started in the background when none runs).
func makeMediaQueue(config: Config) -> (any MediaQueue)? {
    JournalMediaQueue(state: config.state)
}
