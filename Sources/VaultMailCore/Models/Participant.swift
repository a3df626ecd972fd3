import Foundation

/// A person in a conversation: a display name (when known) and an address.
/// Threads keep their participants as JSON text (AC-U-13).
public struct Participant: Sendable, Codable, Hashable {
    public var name: String?
    public var email: String

    public init(name: String? = nil, email: String) {
        self.name = name
        self.email = email
    }

    /// What a row shows for this person: the name, else the address, else "Unknown" (E-09).
    public var displayName: String {
        if let name, !name.trimmingCharacters(in: .whitespaces).isEmpty { return name }
        return email.isEmpty ? "Unknown" : email
    }

    /// Parses participants JSON. Nil, empty or malformed text gives an empty list, never an
    /// error: a bad row is shown as "Unknown", not dropped (E-09).
    public static func decode(from json: String?) -> [Participant] {
        guard let json, !json.isEmpty, let data = json.data(using: .utf8) else { return [] }
        return (try? JSONDecoder().decode([Participant].self, from: data)) ?? []
    }

    /// Encodes participants as JSON that `decode(from:)` reads back unchanged.
    public static func encode(_ participants: [Participant]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(participants) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}
