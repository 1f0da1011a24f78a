import CSystem

/// How the C allocator treats large blocks, for a process that parses one big input and exits.
public enum MemoryPolicy {
    /// Blocks of 128 KiB and more get their own mapping and go back to the system when freed,
    /// whatever was freed before. glibc otherwise raises that threshold to the size of the
    /// first such block freed (up to 32 MiB), so a parser's later growing arrays come from the
    /// heap and their old copies stay resident: on the largest corpus pages (5 MB) `piper
    /// extract` peaked 2–3 MB higher. It costs page faults on fresh mappings, so long-running
    /// commands (`serve`, the agent) keep glibc's default.
    public static func mapLargeBlocksFromTheSystem() {
        _ = piper_map_blocks_above(128 * 1024)
    }
}
