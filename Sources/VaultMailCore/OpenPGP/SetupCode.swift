import Foundation

/// The Setup Code of an Autocrypt Setup Message (Level 1 §4.4, issue 32): 36 digits from the
/// system's cryptographic random source, written in nine blocks of four joined by dashes
/// (`1742-0185-…`); the dashes are part of the passphrase. Shown to the person once, when the
/// message is made; never stored, logged or sent. `description` hides it.
public struct SetupCode: Sendable, Hashable, CustomStringConvertible {
    /// The code as the passphrase: nine blocks of four digits joined by dashes.
    public let secret: Secret

    /// A new code from the system's cryptographic random source (each digit uniform: bytes
    /// of 250 and above are drawn again).
    public static func generate() -> SetupCode {
        var generator = SystemRandomNumberGenerator()
        var digits: [Character] = []
        while digits.count < 36 {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            if byte < 250 { digits.append(Character(String(byte % 10))) }
        }
        return SetupCode(digits: String(digits))
    }

    /// The code someone typed, for a message whose `Passphrase-Format` is `format`: with
    /// `numeric9x4` (or none named, as every Level 1 app writes) its 36 digits, whatever
    /// spaces, dashes or line breaks were typed between them; any other format as typed.
    public static func typed(_ text: String, format: String?) throws(SetupCodeError) -> SetupCode {
        if let format, format.lowercased() != "numeric9x4" {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw .empty }
            return SetupCode(raw: trimmed)
        }
        let digits = text.filter(\.isASCIIDigit)
        let others = text.filter { !$0.isASCIIDigit && !$0.isWhitespace && $0 != "-" }
        guard others.isEmpty else { throw .notDigits }
        guard digits.count == 36 else { throw digits.isEmpty ? .empty : .wrongLength(digits.count) }
        return SetupCode(digits: String(digits))
    }

    private init(digits: String) {
        let characters = Array(digits)
        let blocks = stride(from: 0, to: 36, by: 4).map { String(characters[$0..<$0 + 4]) }
        secret = Secret(blocks.joined(separator: "-"))
    }

    private init(raw: String) {
        secret = Secret(raw)
    }

    /// The first two digits, which the message names in clear (`Passphrase-Begin`, Level 1's
    /// recommendation: the person sees they have the right code before typing the rest).
    public var begin: String { String(secret.revealed.prefix(2)) }

    /// The code in three lines of three blocks, as Level 1's example shows it to the person.
    public var shown: String {
        let blocks = secret.revealed.split(separator: "-").map(String.init)
        guard blocks.count == 9 else { return secret.revealed }
        return stride(from: 0, to: 9, by: 3).map { blocks[$0..<$0 + 3].joined(separator: "-") }.joined(separator: "-\n")
    }

    public var description: String { "SetupCode(hidden)" }
}

/// Why a typed setup code was not taken.
public enum SetupCodeError: Error, Sendable, Equatable, CustomStringConvertible, PlainWordsError {
    case empty
    case notDigits
    case wrongLength(Int)

    public var description: String {
        switch self {
        case .empty: "no setup code was given; type the 36 digits the other app showed when it made the setup message"
        case .notDigits: "a setup code is 36 digits (dashes and spaces between them are fine); it held other characters"
        case .wrongLength(let count): "a setup code is 36 digits; \(count) were given"
        }
    }

    public var plainWords: String {
        switch self {
        case .empty: "Type the setup code: the 36 digits the other app showed."
        case .notDigits: "A setup code is only digits (dashes and spaces are fine)."
        case .wrongLength(let count): "A setup code has 36 digits; that had \(count)."
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
