import Foundation

/// Reads what `vaultmail … --json` printed. Each reader throws a `Failure` that says what was
/// expected and quotes the start of the text, so a test that got an error message or a table
/// instead of JSON says so.
public enum ToolJSON {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The text as a JSON object.
    public static func object(_ text: String) throws -> [String: Any] {
        try cast(parse(text), text, "a JSON object")
    }

    /// The text as a JSON array.
    public static func array(_ text: String) throws -> [Any] {
        try cast(parse(text), text, "a JSON array")
    }

    /// The text as a JSON array of objects.
    public static func objects(_ text: String) throws -> [[String: Any]] {
        try cast(parse(text), text, "a JSON array of objects")
    }

    /// The text decoded as `type`.
    public static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw Failure(description: "the tool's output is not \(type) JSON (\(error)): \(quoted(text))")
        }
    }

    private static func parse(_ text: String) throws -> Any {
        do {
            return try JSONSerialization.jsonObject(with: Data(text.utf8))
        } catch {
            throw Failure(description: "the tool's output is not JSON (\(error.localizedDescription)): \(quoted(text))")
        }
    }

    private static func cast<T>(_ value: Any, _ text: String, _ expected: String) throws -> T {
        guard let typed = value as? T else { throw Failure(description: "the tool's output is not \(expected): \(quoted(text))") }
        return typed
    }

    /// The first 300 characters of `text`, in quotes.
    private static func quoted(_ text: String) -> String {
        let limit = 300
        return "\"\(text.prefix(limit))\(text.count > limit ? "…" : "")\""
    }
}
