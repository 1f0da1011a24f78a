// A growable byte buffer for the token under construction. Plain pointer + count, so
// appends are memcpy and clearing is `count = 0`, with no reference counting or run-time
// exclusivity checks. Not copyable in spirit: exactly one `TokenizerCore` owns each run,
// and `Tokenizer.deinit` frees them.

struct ByteRun {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    /// At least 16 bytes, the first 16 always initialized, so that a name's first 16 bytes can
    /// be loaded as two words whatever its length (`TokenNames`).
    init(capacity: Int = 64) {
        precondition(capacity >= 16)
        self.capacity = capacity
        base = .allocate(capacity: capacity)
        base.initialize(repeating: 0, count: 16)
    }

    func free() { base.deallocate() }

    var isEmpty: Bool { count == 0 }

    @inline(__always) mutating func clear() { count = 0 }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: max(count, 16))
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always) mutating func append(_ b: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = b
        count += 1
    }

    @inline(__always) mutating func append(_ p: UnsafePointer<UInt8>, _ n: Int) {
        if n <= 0 { return }
        if count + n > capacity { grow(to: count + n) }
        (base + count).update(from: p, count: n)
        count += n
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { if let p = $0.baseAddress { append(p, $0.count) } }
    }

    mutating func append(_ other: ByteRun) {
        append(other.base, other.count)
    }

    mutating func appendScalar(_ v: UInt32) {
        if count + 4 > capacity { grow(to: count + 4) }
        switch v {
        case 0..<0x80:
            base[count] = UInt8(v); count += 1
        case 0x80..<0x800:
            base[count] = UInt8(0xC0 | (v >> 6)); base[count + 1] = UInt8(0x80 | (v & 0x3F)); count += 2
        case 0x800..<0x10000:
            base[count] = UInt8(0xE0 | (v >> 12)); base[count + 1] = UInt8(0x80 | ((v >> 6) & 0x3F))
            base[count + 2] = UInt8(0x80 | (v & 0x3F)); count += 3
        default:
            base[count] = UInt8(0xF0 | (v >> 18)); base[count + 1] = UInt8(0x80 | ((v >> 12) & 0x3F))
            base[count + 2] = UInt8(0x80 | ((v >> 6) & 0x3F)); base[count + 3] = UInt8(0x80 | (v & 0x3F))
            count += 4
        }
    }

    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    var string: String { String(decoding: buffer, as: UTF8.self) }

    var array: [UInt8] { Array(buffer) }

    func equals(_ bytes: [UInt8]) -> Bool {
        bytes.count == count && bytes.withUnsafeBufferPointer { b in
            for i in 0..<count where b[i] != base[i] { return false }
            return true
        }
    }
}
