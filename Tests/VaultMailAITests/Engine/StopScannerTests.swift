import Testing
@testable import VaultMailAI

@Suite("Generated text: stop strings and UTF-8 pieces")
struct StopScannerTests {
    @Test("a stop string split over pieces is never emitted, and what precedes it is")
    func splitStop() {
        var scanner = StopScanner(stops: ["<|im_end|>", "\n"])
        #expect(scanner.feed("Sure, 3pm works<|im") == ("Sure, 3pm works", false))
        #expect(scanner.feed("_end|> more") == ("", true))
    }

    @Test("a held-back tail that turns out not to be a stop string is emitted")
    func falseAlarm() {
        var scanner = StopScanner(stops: ["<|im_end|>"])
        #expect(scanner.feed("a <|i") == ("a ", false))
        #expect(scanner.feed("tem") == ("<|item", false))
        #expect(scanner.feed(" <") == (" ", false))
        #expect(scanner.finish() == "<")
    }

    @Test("without stop strings everything passes")
    func noStops() {
        var scanner = StopScanner(stops: [])
        #expect(scanner.feed("hello\n") == ("hello\n", false))
    }

    @Test("a character cut between pieces is kept until it is whole")
    func utf8() {
        var accumulator = UTF8Accumulator()
        let bytes = Array("Grüße €".utf8)
        let euro = bytes.count - 3
        #expect(accumulator.append(Array(bytes[..<3])) == "Gr")
        #expect(accumulator.append(Array(bytes[3..<(euro + 1)])) == "üße ")
        #expect(accumulator.append(Array(bytes[(euro + 1)...])) == "€")
        #expect(accumulator.flush() == "")
    }
}
