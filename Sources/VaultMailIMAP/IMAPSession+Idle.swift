import Foundation
internal import CEtPan

/// IDLE and NOOP, read line by line outside libetpan's parser so every untagged EXISTS,
/// EXPUNGE and FETCH is seen as it arrives (libetpan's own `mailimap_idle` drops responses
/// that come before the continuation, and reports nothing until DONE).
extension IMAPSession {
    /// IDLE until the server reports something (`returnOnEvents`), `interrupter` is stopped, or
    /// `timeout` passes; then DONE, collecting whatever the server still reports.
    func idle(timeout: Duration, returnOnEvents: Bool, interrupter: IdleInterrupter) throws(IMAPError) -> IMAPIdleResult {
        let (_, mailbox) = try selectedSession("idle on")
        let operation = "idle on \"\(mailbox)\" on"
        guard capabilities.idle else {
            throw makeError(.unsupported, operation, reason: "the server has no IDLE; poll with NOOP instead")
        }
        guard interrupter.begin() else { return IMAPIdleResult(events: [], ending: .stopped) }
        var stoppedByRequest = false
        defer { interrupter.end(stoppedByRequest: stoppedByRequest) }

        let tag = try sendRawCommand("IDLE", operation: operation)
        var events: [IMAPServerEvent] = []
        // Until the continuation: untagged data is kept, a tagged answer means IDLE was refused.
        waitForContinuation: while true {
            switch try readResponse(operation: operation) {
            case .continuation: break waitForContinuation
            case .event(let event): events.append(event)
            case .other: continue
            case .bye(let text): throw bye(text, operation: operation)
            case .tagged(let answerTag, let status, let text):
                guard answerTag == tag else { continue }
                throw makeError(
                    .commandFailed, operation, mailbox: mailbox, server: "\(status) \(text)",
                    reason: "the server refused IDLE")
            }
        }

        interrupter.markEstablished()
        let deadline = ContinuousClock.now + timeout
        var ending = IMAPIdleResult.Ending.timeout
        waiting: while true {
            if returnOnEvents && !events.isEmpty && !hasBufferedInput {
                ending = .events
                break
            }
            if !hasBufferedInput {
                switch waitForInput(until: deadline, interrupter: interrupter) {
                case .input: break
                case .stopped:
                    stoppedByRequest = true
                    ending = .stopped
                    break waiting
                case .timeout:
                    ending = .timeout
                    break waiting
                }
            }
            begin()
            switch try readResponse(operation: operation) {
            case .event(let event): events.append(event)
            case .bye(let text): throw bye(text, operation: operation)
            case .tagged(let answerTag, let status, let text) where answerTag == tag:
                // The server ended IDLE itself (e.g. it shuts down with NO or BAD).
                if status == "OK" { return IMAPIdleResult(events: events, ending: .events) }
                throw makeError(.commandFailed, operation, mailbox: mailbox, server: "\(status) \(text)")
            default: continue
            }
        }

        begin()
        try writeRaw("DONE\r\n", operation: operation)
        events += try readUntilTagged(tag, operation: operation)
        return IMAPIdleResult(events: events, ending: ending)
    }

    /// NOOP, returning what the server reported on the way.
    func noop() throws(IMAPError) -> [IMAPServerEvent] {
        let operation = "check for news (NOOP) on"
        _ = try session(operation)
        let tag = try sendRawCommand("NOOP", operation: operation)
        return try readUntilTagged(tag, operation: operation)
    }

    private enum WaitOutcome {
        case input, stopped, timeout
    }

    /// Polls the socket and the interrupter's pipe until one is readable or `deadline` passes.
    private func waitForInput(until deadline: ContinuousClock.Instant, interrupter: IdleInterrupter) -> WaitOutcome {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            if remaining <= .zero { return .timeout }
            var descriptors = [
                pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: interrupter.readDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, Int32(clamping: min(remaining.milliseconds, 60_000)))
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { return .input }  // let the read report the broken socket
            if descriptors[1].revents != 0 { return .stopped }
            if descriptors[0].revents != 0 { return .input }
        }
    }

    /// Reads responses until the tagged answer to `tag`; returns the events seen on the way.
    private func readUntilTagged(_ tag: String, operation: String) throws(IMAPError) -> [IMAPServerEvent] {
        var events: [IMAPServerEvent] = []
        while true {
            switch try readResponse(operation: operation) {
            case .event(let event): events.append(event)
            case .bye(let text): throw bye(text, operation: operation)
            case .tagged(let answerTag, let status, let text) where answerTag == tag:
                guard status == "OK" else {
                    throw makeError(.commandFailed, operation, server: "\(status) \(text)")
                }
                return events
            default: continue
            }
        }
    }

    private func bye(_ text: String, operation: String) -> IMAPError {
        let error = makeError(
            .connectionLost, operation, server: text.isEmpty ? nil : "BYE \(text)",
            reason: "the server closed the connection")
        dropConnection()
        return error
    }

    /// Sends `<tag> command CRLF` and returns the tag.
    private func sendRawCommand(_ command: String, operation: String) throws(IMAPError) -> String {
        let imap = try session(operation)
        try check(mailimap_send_current_tag(imap), operation)
        try writeRaw(command + "\r\n", operation: operation)
        return String(imap.pointee.imap_tag)
    }

    private func writeRaw(_ text: String, operation: String) throws(IMAPError) {
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
    private func failStream(_ operation: String) throws(IMAPError) -> Never {
        try check(Int32(MAILIMAP_ERROR_STREAM), operation)
        preconditionFailure("check(_:) throws for every stream error")
    }

    /// One response line (with any literals it announces), classified.
    private func readResponse(operation: String) throws(IMAPError) -> IMAPResponseLine {
        IMAPResponseLine(try readLine(operation: operation))
    }

    private func readLine(operation: String) throws(IMAPError) -> [UInt8] {
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
            let part = Array(UnsafeRawBufferPointer(start: buffer.pointee.str, count: buffer.pointee.len))
            line += part
            guard let literalSize = Self.literalSize(atEndOf: part) else { return line }
            line += try readBytes(literalSize, operation: operation)
        }
    }

    /// `{123}` or `{123+}` at the end of a line announces a literal of 123 bytes.
    private static func literalSize(atEndOf line: [UInt8]) -> Int? {
        var end = line.count
        while end > 0 && (line[end - 1] == 0x0A || line[end - 1] == 0x0D) { end -= 1 }
        guard end > 2, line[end - 1] == UInt8(ascii: "}"), let open = line[..<end].lastIndex(of: UInt8(ascii: "{")) else {
            return nil
        }
        var digits = line[(open + 1)..<(end - 1)]
        if digits.last == UInt8(ascii: "+") { digits = digits.dropLast() }
        return Int(String(decoding: digits, as: UTF8.self))
    }

    private func readBytes(_ count: Int, operation: String) throws(IMAPError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            guard let stream = imap?.pointee.imap_stream else {
                throw makeError(.notConnected, operation, reason: "not connected")
            }
            let read = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return mailstream_read(stream, base + filled, count - filled)
            }
            guard read > 0 else { try failStream(operation) }
            filled += read
        }
        return bytes
    }
}
