// ReadAttributes: the attributes the classifier and the survey read, found in one pass over an
// element's attribute list, read in place.
import HTML

/// The attributes the classifier reads, from one pass over an element's list: what
/// `getAttribute` answers for each (the first unprefixed attribute of that name). It reads the
/// list in place (`Document.withAttributes(at:)`, `Array.withUnsafeBufferPointer`) and only
/// notes positions: a reading is a plain value, so making and passing it costs no reference
/// counts, and only the values asked for are copied out. It must not outlive the list's buffer.
struct ReadAttributes {
    private let list: UnsafeBufferPointer<Attribute>
    private var classAt: Int32 = -1, idAt: Int32 = -1, roleAt: Int32 = -1, ariaHiddenAt: Int32 = -1
    private var styleAt: Int32 = -1, itempropAt: Int32 = -1, controlsAt: Int32 = -1, ariaModalAt: Int32 = -1
    private(set) var hidden = false
    /// Whether `aria-labelledby` is there (the panel survey's).
    private(set) var labelled = false

    var className: String { value(classAt) ?? "" }
    var id: String { value(idAt) ?? "" }
    var role: String? { value(roleAt) }
    var ariaHidden: String? { value(ariaHiddenAt) }
    var style: String? { value(styleAt) }
    /// `itemprop`, as given.
    var itemprop: String? { value(itempropAt) }
    /// `aria-controls`, as given (the panel survey's).
    var controls: String? { value(controlsAt) }
    /// Whether the element has an `id`, a `role`, an `aria-controls` (no string copied).
    var hasID: Bool { idAt >= 0 }
    var hasRole: Bool { roleAt >= 0 }
    var hasControls: Bool { controlsAt >= 0 }
    /// `aria-modal`, as given (the survey's).
    var ariaModal: String? { value(ariaModalAt) }

    @inline(__always)
    private func value(_ at: Int32) -> String? { at >= 0 ? list[Int(at)].value : nil }

    init() { list = UnsafeBufferPointer(start: nil, count: 0) }

    init(_ attributes: UnsafeBufferPointer<Attribute>) {
        list = attributes
        for i in attributes.indices where attributes[i].prefix == nil {
            let at = Int32(i)
            switch attributes[i].name.utf8.count {
            case 2 where attributes[i].name == "id": if idAt < 0 { idAt = at }
            case 4 where attributes[i].name == "role": if roleAt < 0 { roleAt = at }
            case 5 where attributes[i].name == "class": if classAt < 0 { classAt = at }
            case 5 where attributes[i].name == "style": if styleAt < 0 { styleAt = at }
            case 6 where attributes[i].name == "hidden": hidden = true
            case 8 where attributes[i].name == "itemprop": if itempropAt < 0 { itempropAt = at }
            case 10 where attributes[i].name == "aria-modal": if ariaModalAt < 0 { ariaModalAt = at }
            case 11 where attributes[i].name == "aria-hidden": if ariaHiddenAt < 0 { ariaHiddenAt = at }
            case 13 where attributes[i].name == "aria-controls": if controlsAt < 0 { controlsAt = at }
            case 15 where attributes[i].name == "aria-labelledby": labelled = true
            default: break
            }
        }
    }
}
