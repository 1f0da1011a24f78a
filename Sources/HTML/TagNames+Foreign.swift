// § 13.2.6.1 Name adjustments for foreign content: SVG tag and attribute case, MathML's
// definitionURL, and the namespaced foreign attributes (xlink:href, xml:lang, xmlns...).

enum Foreign {
    static let svgTagNames: [String: String] = {
        let names = [
            "altGlyph", "altGlyphDef", "altGlyphItem", "animateColor", "animateMotion", "animateTransform",
            "clipPath", "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feConvolveMatrix",
            "feDiffuseLighting", "feDisplacementMap", "feDistantLight", "feDropShadow", "feFlood", "feFuncA",
            "feFuncB", "feFuncG", "feFuncR", "feGaussianBlur", "feImage", "feMerge", "feMergeNode",
            "feMorphology", "feOffset", "fePointLight", "feSpecularLighting", "feSpotLight", "feTile",
            "feTurbulence", "foreignObject", "glyphRef", "linearGradient", "radialGradient", "textPath",
        ]
        return Dictionary(uniqueKeysWithValues: names.map { (asciiLowercased($0), $0) })
    }()

    static let svgAttributeNames: [String: String] = {
        let names = [
            "attributeName", "attributeType", "baseFrequency", "baseProfile", "calcMode", "clipPathUnits",
            "diffuseConstant", "edgeMode", "filterUnits", "glyphRef", "gradientTransform", "gradientUnits",
            "kernelMatrix", "kernelUnitLength", "keyPoints", "keySplines", "keyTimes", "lengthAdjust",
            "limitingConeAngle", "markerHeight", "markerUnits", "markerWidth", "maskContentUnits", "maskUnits",
            "numOctaves", "pathLength", "patternContentUnits", "patternTransform", "patternUnits", "pointsAtX",
            "pointsAtY", "pointsAtZ", "preserveAlpha", "preserveAspectRatio", "primitiveUnits", "refX", "refY",
            "repeatCount", "repeatDur", "requiredExtensions", "requiredFeatures", "specularConstant",
            "specularExponent", "spreadMethod", "startOffset", "stdDeviation", "stitchTiles", "surfaceScale",
            "systemLanguage", "tableValues", "targetX", "targetY", "textLength", "viewBox", "viewTarget",
            "xChannelSelector", "yChannelSelector", "zoomAndPan",
        ]
        return Dictionary(uniqueKeysWithValues: names.map { (asciiLowercased($0), $0) })
    }()

    /// "adjust foreign attributes": qualified name -> (prefix, local name, namespace).
    static let foreignAttributes: [String: (String?, String, Namespace)] = [
        "xlink:actuate": ("xlink", "actuate", .xlink), "xlink:arcrole": ("xlink", "arcrole", .xlink),
        "xlink:href": ("xlink", "href", .xlink), "xlink:role": ("xlink", "role", .xlink),
        "xlink:show": ("xlink", "show", .xlink), "xlink:title": ("xlink", "title", .xlink),
        "xlink:type": ("xlink", "type", .xlink), "xml:lang": ("xml", "lang", .xml),
        "xml:space": ("xml", "space", .xml), "xmlns": (nil, "xmlns", .xmlns),
        "xmlns:xlink": ("xmlns", "xlink", .xmlns),
    ]

    static func adjustForeign(_ attribute: inout Attribute) {
        guard let (prefix, local, ns) = foreignAttributes[attribute.name] else { return }
        attribute.prefix = prefix
        attribute.name = local
        attribute.namespace = ns
    }

    static func adjustSVGAttributes(_ attributes: [Attribute]) -> [Attribute] {
        guard !attributes.isEmpty else { return attributes }
        var result = attributes
        for i in result.indices {
            if let adjusted = svgAttributeNames[result[i].name] { result[i].name = adjusted }
            adjustForeign(&result[i])
        }
        return result
    }

    static func adjustMathMLAttributes(_ attributes: [Attribute]) -> [Attribute] {
        guard !attributes.isEmpty else { return attributes }
        var result = attributes
        for i in result.indices {
            if result[i].name == "definitionurl" { result[i].name = "definitionURL" }
            adjustForeign(&result[i])
        }
        return result
    }
}
