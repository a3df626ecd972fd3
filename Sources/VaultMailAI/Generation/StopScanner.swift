/// Cuts generated text at the first stop string, holding back a tail that may be the start of
/// one, so no part of a stop string is ever emitted.
struct StopScanner {
    let stops: [String]
    private var pending = ""

    init(stops: [String]) {
        self.stops = stops.filter { !$0.isEmpty }
    }

    /// The text that can be emitted now, and whether a stop string was reached.
    mutating func feed(_ text: String) -> (ready: String, stopped: Bool) {
        pending += text
        if let cut = stops.compactMap({ pending.range(of: $0)?.lowerBound }).min() {
            let ready = String(pending[..<cut])
            pending = ""
            return (ready, true)
        }
        let held = heldBack()
        let ready = String(pending.dropLast(held))
        pending = String(pending.suffix(held))
        return (ready, false)
    }

    /// What was held back, at the end of the generation.
    mutating func finish() -> String {
        defer { pending = "" }
        return pending
    }

    /// The length of the longest end of `pending` that begins a stop string.
    private func heldBack() -> Int {
        var longest = 0
        for stop in stops {
            for length in stride(from: min(stop.count - 1, pending.count), to: longest, by: -1)
            where pending.hasSuffix(stop.prefix(length)) {
                longest = length
                break
            }
        }
        return longest
    }
}

/// Token pieces are bytes that may split a UTF-8 character: this keeps the incomplete end
/// until the next piece completes it.
struct UTF8Accumulator {
    private var bytes: [UInt8] = []

    mutating func append(_ piece: [UInt8]) -> String {
        bytes += piece
        let complete = Self.completePrefixLength(bytes)
        let text = String(decoding: bytes[..<complete], as: UTF8.self)
        bytes.removeFirst(complete)
        return text
    }

    mutating func flush() -> String {
        defer { bytes = [] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// How many leading bytes form whole characters (a cut character at the end is left out).
    static func completePrefixLength(_ bytes: [UInt8]) -> Int {
        var index = bytes.count
        var back = 0
        while index > 0, back < 4 {
            index -= 1
            back += 1
            let byte = bytes[index]
            if byte & 0xC0 != 0x80 {
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                return length > back ? index : bytes.count
            }
        }
        return bytes.count
    }
}
