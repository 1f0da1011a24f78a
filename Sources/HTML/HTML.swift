// HTML: a pure-Swift HTML5 parser (WHATWG § 13.2), an arena DOM and the fragment
// serializer. Swift standard library and Foundation only.
