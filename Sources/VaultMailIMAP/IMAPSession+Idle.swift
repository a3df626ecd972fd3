import Foundation
internal import CEtPan

/// IDLE and NOOP, read line by line outside libetpan's parser so every untagged EXISTS,
/// EXPUNGE and FETCH is seen as it arrives (libetpan's own `mailimap_idle` drops responses
/// that come before the continuation, and reports nothing until DONE).
extension IMAPSession {
    /// IDLE until the server reports something, `interrupter` is stopped, or `timeout` passes;
    /// then DONE, collecting whatever the server still reports.
    func idle(timeout: Duration, interrupter: IdleInterrupter) throws(IMAPError) -> IMAPIdleResult {
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
            if !events.isEmpty && !hasBufferedInput {
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
}
