// A value per node, looked up by node index: what `[Int32: Value]` holds, in a flat array.
// Scores and memoised text lengths are read and written for every candidate and its
// ancestors; indexing an array costs a bounds check where a dictionary hashes the key.

/// What a `NodeTable` stores in the slots of nodes that have no value.
protocol NodeTableValue {
    static var filler: Self { get }
}

extension Double: NodeTableValue { static var filler: Double { 0 } }
extension Int: NodeTableValue { static var filler: Int { 0 } }
extension Bool: NodeTableValue { static var filler: Bool { false } }

/// Node index → value, with a dictionary's optional subscript (nil: no value).
///
/// The values sit in a plain array and whether a slot holds one in a bit set beside it: an
/// array of optionals would take 16 bytes a node for a `Double` or an `Int` (the flag pads the
/// value to its alignment), and on a large page these tables span every node of the document.
struct NodeTable<Value: NodeTableValue>: ExpressibleByDictionaryLiteral {
    private var values: [Value] = []
    private var present: [UInt64] = []

    init() {}

    init(dictionaryLiteral elements: (Int32, Value)...) {
        for (index, value) in elements { self[index] = value }
    }

    subscript(index: Int32) -> Value? {
        get {
            let i = Int(index)
            guard i >= 0, i < values.count, present[i >> 6] & (1 << UInt64(i & 63)) != 0 else { return nil }
            return values[i]
        }
        set {
            let i = Int(index)
            guard i >= 0 else { return }
            if i >= values.count {
                guard newValue != nil else { return }
                values.append(contentsOf: repeatElement(Value.filler, count: i + 1 - values.count))
                let words = (values.count + 63) >> 6
                if words > present.count { present.append(contentsOf: repeatElement(0, count: words - present.count)) }
            }
            if let newValue {
                values[i] = newValue
                present[i >> 6] |= 1 << UInt64(i & 63)
            } else {
                present[i >> 6] &= ~(1 << UInt64(i & 63))
            }
        }
    }

    subscript(index: Int32, default value: @autoclosure () -> Value) -> Value {
        get { self[index] ?? value() }
        set { self[index] = newValue }
    }
}
