// Element attributes. Names compare ASCII case-insensitively on HTML elements; adjusted
// foreign attributes answer to their qualified name ("xlink:href").

extension Attribute {
    /// "xlink:href" for adjusted foreign attributes, else the name.
    public var qualifiedName: String {
        if let prefix { return prefix + ":" + name }
        return name
    }
}

extension Node {
    /// The element's attributes in source order (empty for other nodes).
    public var attributes: [Attribute] {
        let r = record
        guard r.kind == .element, r.payload >= 0 else { return [] }
        return document.attributeLists[Int(r.payload)]
    }

    private func attributeName(_ name: String) -> String {
        namespace == .html ? asciiLowercased(name) : name
    }

    /// The value of the attribute `name` (matched as stored, lowercase for HTML), or nil.
    public func getAttribute(_ name: String) -> String? {
        let r = record
        guard r.kind == .element, r.payload >= 0 else { return nil }
        let key = attributeName(name)
        let keyLength = key.utf8.count
        // Through a buffer: iterating the array itself copies it and each attribute, a
        // reference count apiece.
        return document.attributeLists[Int(r.payload)].withUnsafeBufferPointer { list in
            for i in list.indices {
                if list[i].prefix == nil {
                    // Lengths first: a mismatch then costs no string comparison.
                    if list[i].name.utf8.count == keyLength && list[i].name == key { return list[i].value }
                } else if list[i].qualifiedName == key {
                    return list[i].value
                }
            }
            return nil
        }
    }

    /// True when the element has an attribute `name`.
    public func hasAttribute(_ name: String) -> Bool {
        getAttribute(name) != nil
    }

    /// Sets the attribute `name` to `value`, adding it after the others when absent.
    public func setAttribute(_ name: String, _ value: String) {
        let r = record
        guard r.kind == .element else { return }
        let key = attributeName(name)
        if r.payload < 0 {
            document.nodes[Int(index)].payload = Int32(document.attributeLists.count)
            document.attributeLists.append([Attribute(name: key, value: value)])
            return
        }
        let list = Int(r.payload)
        if let i = document.attributeLists[list].firstIndex(where: { $0.qualifiedName == key }) {
            document.attributeLists[list][i].value = value
        } else {
            document.attributeLists[list].append(Attribute(name: key, value: value))
        }
    }

    /// Removes the attribute `name`, if present.
    public func removeAttribute(_ name: String) {
        let r = record
        guard r.kind == .element, r.payload >= 0 else { return }
        let key = attributeName(name)
        document.attributeLists[Int(r.payload)].removeAll { $0.qualifiedName == key }
    }

    /// The `id` attribute, "" when absent.
    public var id: String { getAttribute("id") ?? "" }

    /// The `class` attribute, "" when absent.
    public var className: String { getAttribute("class") ?? "" }
}
