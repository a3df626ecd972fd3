import Foundation
internal import CEtPan

/// Commands written and responses read line by line outside libetpan's parser (IDLE, NOOP,
/// AUTHENTICATE OAUTHBEARER), with the literals a line announces read whole.
extension IMAPSession {
    /// Reads responses until the tagged answer to `tag`; returns the events seen on the way.
    func readUntilTagged(_ tag: String, operation: String) throws(IMAPError) -> [IMAPServerEvent] {
        try readUntilTaggedAnswer(tag, operation: operation).events
    }

    /// Reads responses until the tagged OK to `tag`; returns the events seen on the way and the
    /// answer's text (with its response code, `[MODIFIED 3] …`).
    func readUntilTaggedAnswer(_ tag: String, operation: String) throws(IMAPError) -> (events: [IMAPServerEvent], text: String) {
        var events: [IMAPServerEvent] = []
        while true {
            switch try readResponse(operation: operation) {
            case .event(let event): events.append(event)
            case .bye(let text): throw bye(text, operation: operation)
            case .tagged(let answerTag, let status, let text) where answerTag == tag:
                guard status == "OK" else {
                    throw makeError(.commandFailed, operation, server: "\(status) \(text)")
                }
                return (events, text)
            default: continue
            }
        }
    }

    func bye(_ text: String, operation: String) -> IMAPError {
        let error = makeError(
            .connectionLost, operation, server: text.isEmpty ? nil : "BYE \(text)",
            reason: "the server closed the connection")
        dropConnection()
        return error
    }

    /// Sends `<tag> command CRLF` and returns the tag.
    func sendRawCommand(_ command: String, operation: String) throws(IMAPError) -> String {
        let imap = try session(operation)
        try check(mailimap_send_current_tag(imap), operation)
        try writeRaw(command + "\r\n", operation: operation)
        return String(imap.pointee.imap_tag)
    }

    func writeRaw(_ text: String, operation: String) throws(IMAPError) {
        guard let stream = imap?.pointee.imap_stream else {
            throw makeError(.notConnected, operation, reason: "not connected")
        }
        let bytes = Array(text.utf8)
        guard mailstream_write(stream, bytes, bytes.count) == bytes.count, mailstream_flush(stream) == 0 else {
            try failStream(operation)
        }
    }

    /// Turns a failed read or write into the stream error `check` reports (and drops the
    /// connection).
    func failStream(_ operation: String) throws(IMAPError) -> Never {
        try check(Int32(MAILIMAP_ERROR_STREAM), operation)
        preconditionFailure("check(_:) throws for every stream error")
    }

    /// One response line (with any literals it announces), classified.
    func readResponse(operation: String) throws(IMAPError) -> IMAPResponseLine {
        IMAPResponseLine(try readLine(operation: operation))
    }

    func readLine(operation: String) throws(IMAPError) -> [UInt8] {
        var line: [UInt8] = []
        while true {
            guard let imap, imap.pointee.imap_stream != nil else {
                throw makeError(.notConnected, operation, reason: "not connected")
            }
            // Ownership: the line is read into the session's stream buffer; copied out at once.
            guard mailimap_read_line(imap) != nil, let buffer = imap.pointee.imap_stream_buffer,
                buffer.pointee.len > 0, buffer.pointee.str[buffer.pointee.len - 1] == 0x0A
            else {
                // NULL or a line without its LF: the stream failed or the server closed it.
                try failStream(operation)
            }
            let start = line.count
            line.append(contentsOf: UnsafeRawBufferPointer(start: buffer.pointee.str, count: buffer.pointee.len))
            guard let literalSize = Self.literalSize(atEndOf: line[start...]) else { return line }
            try readBytes(literalSize, into: &line, operation: operation)
        }
    }

    /// `{123}` or `{123+}` at the end of a line announces a literal of 123 bytes.
    static func literalSize(atEndOf line: [UInt8]) -> Int? {
        literalSize(atEndOf: line[...])
    }

    static func literalSize(atEndOf line: ArraySlice<UInt8>) -> Int? {
        var end = line.endIndex
        while end > line.startIndex && (line[end - 1] == 0x0A || line[end - 1] == 0x0D) { end -= 1 }
        guard end - line.startIndex > 2, line[end - 1] == UInt8(ascii: "}"),
              let open = line[..<end].lastIndex(of: UInt8(ascii: "{"))
        else {
            return nil
        }
        var digits = line[(open + 1)..<(end - 1)]
        if digits.last == UInt8(ascii: "+") { digits = digits.dropLast() }
        return Int(String(decoding: digits, as: UTF8.self))
    }

    func readBytes(_ count: Int, operation: String) throws(IMAPError) -> [UInt8] {
        var bytes: [UInt8] = []
        try readBytes(count, into: &bytes, operation: operation)
        return bytes
    }

    /// Appends exactly `count` bytes read from the stream to `bytes` (read in place, no copy).
    func readBytes(_ count: Int, into bytes: inout [UInt8], operation: String) throws(IMAPError) {
        guard count > 0 else { return }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        var filled = 0
        while filled < count {
            guard let stream = imap?.pointee.imap_stream else {
                bytes.removeSubrange(start...)
                throw makeError(.notConnected, operation, reason: "not connected")
            }
            let read = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return mailstream_read(stream, base + start + filled, count - filled)
            }
            guard read > 0 else { try failStream(operation) }
            filled += read
        }
    }
}
