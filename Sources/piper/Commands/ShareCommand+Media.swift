<<<<<<< HEAD
import PiperCore

/// The media route's queue for `piper share`. This build has no media pipeline: nil makes a media
/// link fail clearly ("media downloads are not available in this build") instead of being saved
/// as an article. The media pipeline replaces this file with one returning its real queue.
func makeMediaQueue(config: Config) -> (any MediaQueue)? {
    nil
=======
import MediaImport
import PiperCore

/// The media route's queue for `piper share`: the durable download journal, worked by
/// `piper agent` (started in the background when none runs).
func makeMediaQueue(config: Config) -> (any MediaQueue)? {
    JournalMediaQueue(state: config.state)
>>>>>>> media-download
}
