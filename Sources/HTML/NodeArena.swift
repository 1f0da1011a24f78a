// The document's node records in one block the C allocator owns, grown with `realloc`.
// A Swift array grows by allocating a buffer twice the size and copying into it, so at every
// growth the old and the new buffer are both resident; on the largest corpus pages (70,000+
// nodes, and Readability's clone of the body doubling that) each growth held a 2.5 MB copy
// at the moment of the process's peak. A large block (`MemoryPolicy` maps blocks of 128 KiB
// and more from the system in `piper extract`) grows in place through mremap: no copy, no
// second buffer. Records are plain values (no references), so moving their bytes is all a
// growth needs.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The node records of one document: indexable like an array, appended to, never shrunk.
/// Owned by exactly one `Document`, which frees it in its `deinit`; a copy of the struct is
/// not a copy of the records (the document never hands it out).
@usableFromInline
struct NodeArena {
    @usableFromInline var base: UnsafeMutablePointer<NodeRecord>
    @usableFromInline private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = NodeArena.allocate(nil, self.capacity)
    }

    private static func allocate(_ old: UnsafeMutablePointer<NodeRecord>?, _ capacity: Int) -> UnsafeMutablePointer<NodeRecord> {
        guard let raw = realloc(old, capacity * MemoryLayout<NodeRecord>.stride) else {
            fatalError("out of memory for \(capacity) nodes")
        }
        return raw.bindMemory(to: NodeRecord.self, capacity: capacity)
    }

    @inlinable subscript(index: Int) -> NodeRecord {
        unsafeAddress {
            precondition(index >= 0 && index < count, "node index out of range")
            return UnsafePointer(base + index)
        }
        nonmutating unsafeMutableAddress {
            precondition(index >= 0 && index < count, "node index out of range")
            return base + index
        }
    }

    var isEmpty: Bool { count == 0 }

    mutating func append(_ record: NodeRecord) {
        if count == capacity { reserveCapacity(capacity * 2) }
        (base + count).initialize(to: record)
        count += 1
    }

    /// Room for `minimum` records in all (does nothing when there is room already).
    mutating func reserveCapacity(_ minimum: Int) {
        guard minimum > capacity else { return }
        base = NodeArena.allocate(base, minimum)
        capacity = minimum
    }

    /// Frees the records; the arena is not used afterwards.
    func deallocate() { free(base) }
}
