internal import CGumbo

/// A read-only view of one node of a `GumboDocument`'s tree; valid while that document lives.
struct ParsedNode {
    enum Kind { case document, element, text, whitespace, other }

    let pointer: UnsafeMutablePointer<GumboNode>

    var kind: Kind {
        switch pointer.pointee.type {
        case GUMBO_NODE_DOCUMENT: .document
        // A <template>'s node type; its contents are dropped with it anyway.
        case GUMBO_NODE_ELEMENT, GUMBO_NODE_TEMPLATE: .element
        case GUMBO_NODE_TEXT: .text
        case GUMBO_NODE_WHITESPACE: .whitespace
        default: .other  // comments, and CDATA (only ever inside <svg>/<math>, which are dropped)
        }
    }

    /// The children of a document or element node (empty for anything else).
    var children: Children {
        switch kind {
        case .document: Children(vector: pointer.pointee.v.document.children)
        case .element: Children(vector: pointer.pointee.v.element.children)
        default: Children(vector: kGumboEmptyVector)
        }
    }

    /// The parent node (nil for the document).
    var parent: ParsedNode? { pointer.pointee.parent.map(ParsedNode.init) }

    /// An element's tag as gumbo's enum value (`GUMBO_TAG_UNKNOWN` for tags gumbo does not know).
    var tagIndex: Int { Int(pointer.pointee.v.element.tag.rawValue) }

    /// Whether an element is in the HTML namespace (not inside `<svg>` or `<math>`).
    var isHTML: Bool { pointer.pointee.v.element.tag_namespace == GUMBO_NAMESPACE_HTML }

    /// The lowercased name of an element as written, for tags gumbo does not know (`<portal>`, `<o:p>`).
    var writtenTagName: String {
        var piece = pointer.pointee.v.element.original_tag
        guard piece.length > 0 else { return "" }
        gumbo_tag_from_original_text(&piece)  // narrows "<o:p class=x>" to "o:p"
        let bytes = UnsafeRawBufferPointer(start: piece.data, count: piece.length)
        return String(decoding: bytes, as: UTF8.self).lowercased()
    }

    /// The decoded text of a text or whitespace node, as UTF-8 bytes (no terminator).
    var textBytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: pointer.pointee.v.text.text, count: vm_gumbo_text_length(pointer))
    }

    /// An element's attributes as (lowercased name, decoded value), in document order.
    var attributes: [(name: String, value: String)] {
        let vector = pointer.pointee.v.element.attributes
        return (0..<Int(vector.length)).compactMap { index in
            guard let attribute = vector.data[index]?.assumingMemoryBound(to: GumboAttribute.self).pointee,
                  let name = attribute.name, let value = attribute.value else { return nil }
            return (String(cString: name), String(cString: value))
        }
    }

    /// The decoded value of the attribute `name` (lowercase), if present.
    func attribute(_ name: String) -> String? {
        withUnsafePointer(to: pointer.pointee.v.element.attributes) { vector in
            gumbo_get_attribute(vector, name)?.pointee.value.map { String(cString: $0) }
        }
    }

    /// Whether the `class` attribute holds `token` (whitespace-separated, ASCII case-insensitive).
    func hasClass(_ token: String) -> Bool {
        guard let classes = attribute("class") else { return false }
        return classes.split(whereSeparator: \.isWhitespace).contains { $0.lowercased() == token }
    }

    /// A gumbo child vector, indexable without copying.
    struct Children {
        let vector: GumboVector
        var count: Int { Int(vector.length) }
        subscript(index: Int) -> ParsedNode {
            ParsedNode(pointer: vector.data[index]!.assumingMemoryBound(to: GumboNode.self))
        }
    }
}
