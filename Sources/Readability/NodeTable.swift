// A value per node, looked up by node index: what `[Int32: Value]` holds, in a flat array.
// Scores and memoised text lengths are read and written for every candidate and its
// ancestors; indexing an array costs a bounds check where a dictionary hashes the key.

/// Node index → value, with a dictionary's optional subscript (nil: no value).
struct NodeTable<Value>: ExpressibleByDictionaryLiteral {
    private var values: [Value?] = []

    init() {}

    init(dictionaryLiteral elements: (Int32, Value)...) {
        for (index, value) in elements { self[index] = value }
    }

    subscript(index: Int32) -> Value? {
        get {
            let i = Int(index)
            return i >= 0 && i < values.count ? values[i] : nil
        }
        set {
            let i = Int(index)
            guard i >= 0 else { return }
            if i >= values.count {
                guard newValue != nil else { return }
                values.append(contentsOf: repeatElement(nil, count: i + 1 - values.count))
            }
            values[i] = newValue
        }
    }

    subscript(index: Int32, default value: @autoclosure () -> Value) -> Value {
        get { self[index] ?? value() }
        set { self[index] = newValue }
    }
}
