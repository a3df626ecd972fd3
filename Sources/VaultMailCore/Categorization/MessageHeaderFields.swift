import Foundation

/// Reads the header fields of a raw message (or a prefix of one): the bytes before the first
/// empty line, folded lines joined, names lowercased, the first occurrence of each kept.
/// Values are as written (encoded-words are not decoded): the categorizer reads their
/// structure — list ids, addresses, keywords — not their display text, which the email row
/// has decoded already.
public enum MessageHeaderFields {
    /// The longest value kept for one field.
    public static let maximumValueLength = 2_000

    public static func parse(_ raw: some Collection<UInt8>) -> [String: String] {
        var fields: [String: String] = [:]
        var name: String?
        var value: [UInt8] = []

        func finish() {
            if let name, fields[name] == nil {
                let text = String(decoding: value, as: UTF8.self)
                    .trimmingCharacters(in: .whitespaces)
                fields[name] = String(text.prefix(maximumValueLength))
            }
            name = nil
            value = []
        }

        var lines = raw.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).makeIterator()
        var first = true
        while let rawLine = lines.next() {
            var line = Array(rawLine)
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            // An mbox "From " line before the header block.
            if first, line.starts(with: Array("From ".utf8)) {
                first = false
                continue
            }
            if line.isEmpty || line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                // The empty line ends the header block (a block that starts with one has none).
                if !first { break }
                continue
            }
            first = false
            if line[0] == 0x20 || line[0] == 0x09 {
                if name != nil, value.count < maximumValueLength {
                    value.append(0x20)
                    value.append(contentsOf: line.drop { $0 == 0x20 || $0 == 0x09 })
                }
                continue
            }
            finish()
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { continue }
            let fieldName = String(decoding: line[..<colon], as: UTF8.self)
                .trimmingCharacters(in: .whitespaces).lowercased()
            guard !fieldName.isEmpty, !fieldName.contains(" ") else { continue }
            name = fieldName
            value = Array(line[(colon + 1)...])
        }
        finish()
        return fields
    }
}
