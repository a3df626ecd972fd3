/// Reads the header fields of a raw message (or a prefix of one): the bytes before the first
/// empty line, folded lines joined, names lowercased, the first occurrence of each kept.
/// Values are as written (encoded-words are not decoded) with spaces and tabs trimmed: the
/// categorizer reads their structure — list ids, addresses, keywords — not their display text,
/// which the email row has decoded already.
public enum MessageHeaderFields {
    /// The longest value kept for one field.
    public static let maximumValueLength = 2_000

    public static func parse(_ raw: some Collection<UInt8>) -> [String: String] {
        // Byte by byte up to the header's end only: the categorizer reads every new email's
        // first 32 KiB, most of it body (splitting all of it into lines was a seventh of a
        // first sync's profile).
        raw.withContiguousStorageIfAvailable(parse(buffer:)) ?? Array(raw).withUnsafeBufferPointer(parse(buffer:))
    }

    /// Every value of the field `name` (lowercase), in the order written (topmost first):
    /// for fields a message may carry several times, such as `Authentication-Results`.
    public static func values(named name: String, in raw: some Collection<UInt8>) -> [String] {
        var found: [String] = []
        let scan = { (buffer: UnsafeBufferPointer<UInt8>) in
            scanFields(buffer) { field, value in
                if field == name { found.append(value()) }
            }
        }
        if raw.withContiguousStorageIfAvailable(scan) == nil { Array(raw).withUnsafeBufferPointer(scan) }
        return found
    }

    private static func parse(buffer bytes: UnsafeBufferPointer<UInt8>) -> [String: String] {
        var fields: [String: String] = [:]
        scanFields(bytes) { name, value in
            if fields[name] == nil { fields[name] = value() }
        }
        return fields
    }

    /// Calls `visit` with each field's lowercased name and a function giving its value.
    private static func scanFields(_ bytes: UnsafeBufferPointer<UInt8>, visit: (String, () -> String) -> Void) {
        var name: String?
        var value: [UInt8] = []

        func finish() {
            if let name {
                visit(name) {
                    let text = String(decoding: trimmed(value[...]), as: UTF8.self)
                    return value.count <= maximumValueLength ? text : String(text.prefix(maximumValueLength))
                }
            }
            name = nil
            value.removeAll(keepingCapacity: true)
        }

        var position = 0
        var first = true
        while position < bytes.count {
            var end = position
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            let next = end + 1
            if end > position, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = bytes[position..<end]
            position = next
            // An mbox "From " line before the header block.
            if first, line.starts(with: "From ".utf8) {
                first = false
                continue
            }
            if line.allSatisfy(isBlank) {
                // The empty line ends the header block (empty lines before it are skipped).
                if !first { break }
                continue
            }
            first = false
            if isBlank(line[line.startIndex]) {
                if name != nil, value.count < maximumValueLength {
                    value.append(0x20)
                    value.append(contentsOf: line.drop(while: isBlank))
                }
                continue
            }
            finish()
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else { continue }
            let fieldName = trimmed(line[..<colon])
            guard !fieldName.isEmpty, !fieldName.contains(0x20) else { continue }
            name = String(decoding: fieldName, as: UTF8.self).lowercased()
            value.append(contentsOf: line[(colon + 1)...])
        }
        finish()
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// `bytes` without the spaces and tabs at either end.
    private static func trimmed<C: BidirectionalCollection<UInt8>>(_ bytes: C) -> C.SubSequence {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isBlank(bytes[start]) { bytes.formIndex(after: &start) }
        while end > start, isBlank(bytes[bytes.index(before: end)]) { bytes.formIndex(before: &end) }
        return bytes[start..<end]
    }
}
