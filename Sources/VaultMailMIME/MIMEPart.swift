internal import CGMime

/// One node of a parsed message's MIME tree, as the body selection needs it.
///
/// `object` belongs to the message it came from, or to the `MIMETreeBuilder` that re-parsed
/// it (transfer none here): a `MIMEPart` is used only while both are alive, inside one
/// `parse` or `content(ofPart:in:)` call.
struct MIMEPart {
    let object: UnsafeMutablePointer<GMimeObject>
    /// IMAP part number ("1", "2.1"); empty for a top-level multipart, which has none.
    let partId: String
    /// Lowercased media type and subtype ("text", "plain").
    let type: String
    let subtype: String
    /// Lowercased Content-Disposition value ("attachment", "inline"), if any.
    let disposition: String?
    /// Declared file name (disposition `filename`, else type `name`), decoded.
    let filename: String?
    let contentId: String?
    let children: [MIMEPart]
    let isMultipart: Bool
    /// For a multipart whose parts could not be found: its raw text, shown as a text part.
    let salvagedText: [UInt8]?

    var mimeType: String { type + "/" + subtype }
    var isInlineMedia: Bool { type == "image" || type == "audio" || type == "video" }

    /// The content with its transfer encoding undone (empty for a multipart or an attached
    /// message, whose content is not one run of bytes).
    func decodedContent() -> [UInt8] {
        if let salvagedText { return salvagedText }
        guard let part = cgmime_as_part(object), let wrapper = g_mime_part_get_content(part) else { return [] } // none
        let stream = GObjectHandle(owning: g_mime_stream_mem_new()) // full
        _ = g_mime_data_wrapper_write_to_stream(wrapper, stream.pointer)
        return MemoryStream.bytes(of: stream)
    }

    /// What downloading this part gives: the content with its transfer encoding undone; for an
    /// attached message the whole message; for a multipart its body as it stands.
    /// `decodedSize()` counts exactly these bytes.
    func downloadContent() -> [UInt8] {
        if let salvagedText { return salvagedText }
        let stream = GObjectHandle(owning: g_mime_stream_mem_new()) // full
        writeDownloadContent(to: stream.pointer)
        return MemoryStream.bytes(of: stream)
    }

    /// The size of `downloadContent()` in bytes, counted without keeping it.
    func decodedSize() -> Int {
        if let salvagedText { return salvagedText.count }
        let stream = GObjectHandle(owning: g_mime_stream_null_new()) // full
        writeDownloadContent(to: stream.pointer)
        return cgmime_null_stream_written(stream.pointer)
    }

    /// Writes `downloadContent()` (except salvaged text) to `stream`.
    private func writeDownloadContent(to stream: UnsafeMutablePointer<GMimeStream>) {
        if let part = cgmime_as_part(object) {
            guard let wrapper = g_mime_part_get_content(part) else { return } // none
            _ = g_mime_data_wrapper_write_to_stream(wrapper, stream)
        } else if let messagePart = cgmime_as_message_part(object),
                  let message = g_mime_message_part_get_message(messagePart) { // none
            // GMime writes the message back out as it read it, with LF line ends (its default
            // format options): not always the original bytes, but the same message.
            _ = g_mime_object_write_to_stream(cgmime_message_as_object(message), nil, stream)
        } else {
            _ = g_mime_object_write_content_to_stream(object, nil, stream)
        }
    }

    /// The part numbered `partId` in this tree (depth first), if any. A top-level multipart
    /// has no number, so an empty `partId` finds nothing.
    func part(numbered partId: String) -> MIMEPart? {
        guard !partId.isEmpty else { return nil }
        if self.partId == partId { return self }
        for child in children {
            if let found = child.part(numbered: partId) { return found }
        }
        return nil
    }

    /// The decoded subject of an attached message (`message/rfc822`), if this is one.
    func embeddedSubject() -> String? {
        guard let messagePart = cgmime_as_message_part(object),
              let message = g_mime_message_part_get_message(messagePart), // none
              let subject = g_mime_message_get_subject(message) else { return nil } // none
        return String(cString: subject)
    }

    /// The declared charset parameter, if any (none for salvaged text: it is raw bytes).
    var charset: String? {
        guard salvagedText == nil else { return nil }
        return g_mime_object_get_content_type_parameter(object, "charset").map { String(cString: $0) } // none
    }
}

/// Builds the `MIMEPart` tree of one message, salvaging multiparts GMime found no parts in.
///
/// Owns the entities it re-parses while salvaging, so it must outlive the tree it returns.
final class MIMETreeBuilder {
    private let options: ParserOptions
    /// Entities re-parsed from a broken multipart's text (transfer full, released with self).
    private var salvaged: [GObjectHandle<GMimeObject>] = []
    private(set) var problems: [String] = []

    init(options: ParserOptions) {
        self.options = options
    }

    /// The tree of `message`, numbered from its top (`parse` and `content(ofPart:in:)` both
    /// start here, so a part number means the same part to both); nil when it has no body.
    func tree(of message: GObjectHandle<GMimeMessage>) -> MIMEPart? {
        guard let root = g_mime_message_get_mime_part(message.pointer) else { return nil } // none
        return build(root, partId: "")
    }

    /// The tree under `object`. `depth` stops runaway nesting; GMime has its own limit too.
    func build(_ object: UnsafeMutablePointer<GMimeObject>, partId: String, depth: Int = 0) -> MIMEPart {
        let contentType = g_mime_object_get_content_type(object) // none
        let type = contentType.flatMap { g_mime_content_type_get_media_type($0) }.map { String(cString: $0).lowercased() }
        let subtype = contentType.flatMap { g_mime_content_type_get_media_subtype($0) }.map { String(cString: $0).lowercased() }
        let disposition = g_mime_object_get_disposition(object).map { String(cString: $0).lowercased() } // none
        let filename: String?
        if let part = cgmime_as_part(object) {
            // Disposition filename, else Content-Type name; RFC 2231 and RFC 2047 decoded. (none)
            filename = g_mime_part_get_filename(part).map { String(cString: $0) }
        } else {
            filename = (g_mime_object_get_content_disposition_parameter(object, "filename")
                ?? g_mime_object_get_content_type_parameter(object, "name")).map { String(cString: $0) }
        }
        let contentId = g_mime_object_get_content_id(object).map { String(cString: $0) } // none
        var children: [MIMEPart] = []
        var salvagedText: [UInt8]?
        let multipart = cgmime_as_multipart(object)
        if let multipart, depth < 64 {
            let count = max(g_mime_multipart_get_count(multipart), 0)
            for index in 0..<count {
                guard let child = g_mime_multipart_get_part(multipart, index) else { continue } // none
                children.append(build(child, partId: Self.childId(partId, index), depth: depth + 1))
            }
            if children.isEmpty {
                let text = Array((g_mime_multipart_get_prologue(multipart).map { String(cString: $0) } ?? "").utf8) // none
                if let recovered = salvage(text, subtype: subtype ?? "mixed", partId: partId, depth: depth) {
                    return recovered
                }
                if !text.allSatisfy({ $0 == 0x0A || $0 == 0x0D || $0 == 0x20 || $0 == 0x09 }) {
                    problems.append("a multipart had no parts GMime could find; its text is shown as it is")
                    salvagedText = text
                }
            }
        }
        let cleanName = filename.map { $0.trimming(" \t\r\n") }.flatMap { $0.isEmpty ? nil : $0 }
        let isMultipart = multipart != nil && salvagedText == nil
        return MIMEPart(
            object: object,
            partId: partId.isEmpty && !isMultipart ? "1" : partId,
            type: salvagedText != nil ? "text" : type.flatMap { $0.isEmpty ? nil : $0 } ?? (multipart == nil ? "application" : "multipart"),
            subtype: salvagedText != nil ? "plain" : subtype.flatMap { $0.isEmpty ? nil : $0 } ?? (multipart == nil ? "octet-stream" : "mixed"),
            disposition: disposition,
            filename: cleanName,
            contentId: contentId.flatMap { $0.isEmpty ? nil : $0 },
            children: children,
            isMultipart: isMultipart,
            salvagedText: salvagedText
        )
    }

    private static func childId(_ parent: String, _ index: Int32) -> String {
        parent.isEmpty ? "\(index + 1)" : "\(parent).\(index + 1)"
    }

    /// A multipart whose boundary is missing or wrong still shows its parts when its text has
    /// delimiter lines ("--something"): the first such line names the boundary, and the text
    /// is parsed again with it. Nil when no parts come out.
    private func salvage(_ text: [UInt8], subtype: String, partId: String, depth: Int) -> MIMEPart? {
        guard depth < 8, let boundary = Self.firstDelimiter(in: text) else { return nil }
        var entity = Array("Content-Type: multipart/\(subtype); boundary=\"\(boundary)\"\r\n\r\n".utf8)
        entity.append(contentsOf: text)
        // GMime gives the text with LF line ends but keeps the CR of the line break before the
        // parent's delimiter. Left there, it makes GMime take the last part's line ends for
        // CRLF and cut one byte too many from its end (a base64 "=": two bytes lost).
        while entity.last == 0x0D { entity.removeLast() }
        let parsed = entity.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                cgmime_parse_part(chars.baseAddress, chars.count, options.pointer) // full or NULL
            }
        }
        guard let parsed else { return nil }
        let handle = GObjectHandle(owning: parsed)
        guard let multipart = cgmime_as_multipart(handle.pointer), g_mime_multipart_get_count(multipart) > 0 else { return nil }
        salvaged.append(handle)
        problems.append("a multipart's boundary did not match its delimiter lines; its parts were found by \"--\(boundary)\"")
        return build(handle.pointer, partId: partId, depth: depth + 1)
    }

    /// The boundary named by the first line that starts with "--" (without a closing "--").
    static func firstDelimiter(in text: [UInt8]) -> String? {
        for line in text.split(separator: 0x0A, omittingEmptySubsequences: true) {
            var line = line
            while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line = line.dropLast() }
            guard line.count > 2, line.count < 200, line.starts(with: [0x2D, 0x2D]) else { continue }
            var name = line.dropFirst(2)
            if name.count > 2, name.suffix(2).elementsEqual([0x2D, 0x2D]) { name = name.dropLast(2) }
            guard name.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") }) else { continue }
            return String(decoding: name, as: UTF8.self)
        }
        return nil
    }
}
