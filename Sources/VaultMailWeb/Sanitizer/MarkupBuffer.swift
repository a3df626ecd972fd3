/// The sanitizer's output: UTF-8 bytes appended raw (markup we write) or escaped (text and
/// attribute values from the mail), turned into one `String` at the end.
struct MarkupBuffer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    var isEmpty: Bool { bytes.isEmpty }

    /// Appends markup we wrote ourselves.
    mutating func append(_ markup: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: markup.utf8Start, count: markup.utf8CodeUnitCount))
    }

    /// Appends bytes that are already safe in their context (an element name, sanitized CSS).
    mutating func append(raw: some Sequence<UInt8>) { bytes.append(contentsOf: raw) }

    /// Appends text content: `&`, `<` and `>` escaped, NUL dropped.
    mutating func append(text: UnsafeRawBufferPointer) { appendEscaped(text, inAttribute: false) }

    mutating func append(text: String) {
        var text = text
        text.withUTF8 { appendEscaped(UnsafeRawBufferPointer($0), inAttribute: false) }
    }

    /// Appends ` name="value"`: the value double-quoted with `&`, `"`, `<` and `>` escaped.
    mutating func appendAttribute(_ name: String, _ value: String) {
        bytes.append(0x20)
        bytes.append(contentsOf: name.utf8)
        append("=\"")
        var value = value
        value.withUTF8 { appendEscaped(UnsafeRawBufferPointer($0), inAttribute: true) }
        bytes.append(0x22)
    }

    /// Removes leading HTML whitespace, which a parser drops at the start of a document.
    mutating func trimLeadingWhitespace() {
        let count = bytes.prefix { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0C || $0 == 0x0D }.count
        if count > 0 { bytes.removeFirst(count) }
    }

    private mutating func appendEscaped(_ source: UnsafeRawBufferPointer, inAttribute: Bool) {
        var runStart = 0
        for index in 0..<source.count {
            let replacement: StaticString
            switch source[index] {
            case 0x26: replacement = "&amp;"
            case 0x3C: replacement = "&lt;"
            case 0x3E: replacement = "&gt;"
            case 0x22 where inAttribute: replacement = "&quot;"
            case 0x00: replacement = ""
            default: continue
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: source[runStart..<index]))
            append(replacement)
            runStart = index + 1
        }
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: source[runStart...]))
    }
}
