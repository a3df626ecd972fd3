import Foundation

/// ASCII armor (RFC 4880 §6.2) as text: its header lines ("Key: value" between the BEGIN line
/// and the blank line before the data), and the first block of a kind in a longer text. The
/// Autocrypt Setup Message (issue 32, Level 1 §4.4) carries its hints there
/// (`Passphrase-Format`, `Passphrase-Begin`, `Autocrypt-Prefer-Encrypt`).
public enum OpenPGPArmor {
    /// `armored` with `headers` ("Name: value") added after its BEGIN line, before any it has.
    /// Unchanged when it holds no BEGIN line.
    public static func addingHeaders(_ headers: [String], to armored: String) -> String {
        guard !headers.isEmpty else { return armored }
        var lines = armored.components(separatedBy: "\n")
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN PGP ") }) else { return armored }
        let lineEnd = lines[begin].hasSuffix("\r") ? "\r" : ""
        lines.insert(contentsOf: headers.map { $0 + lineEnd }, at: begin + 1)
        return lines.joined(separator: "\n")
    }

    /// The first armored block of `kind` ("PGP MESSAGE", "PGP PRIVATE KEY BLOCK") in `text`,
    /// from its BEGIN line to its END line; text before and after is left out. Nil when none.
    public static func firstBlock(of kind: String, in text: String) -> String? {
        guard let begin = text.range(of: "-----BEGIN \(kind)-----"),
              let end = text.range(of: "-----END \(kind)-----", range: begin.upperBound..<text.endIndex) else { return nil }
        return String(text[begin.lowerBound..<end.upperBound]) + "\n"
    }

    /// The header lines of the first armored block in `armored`, keyed by name in lower case.
    public static func headers(of armored: String) -> [String: String] {
        var result: [String: String] = [:]
        let lines = armored.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces.union(.init(charactersIn: "\r"))) }
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN PGP ") }) else { return result }
        for line in lines[(begin + 1)...] {
            guard !line.isEmpty, let colon = line.firstIndex(of: ":") else { break }
            let name = line[..<colon].lowercased()
            if result[name] == nil { result[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces) }
        }
        return result
    }
}
