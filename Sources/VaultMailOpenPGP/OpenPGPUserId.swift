import Foundation

/// The user id of an account's key: `Name <address>`, or `<address>` without a name.
enum OpenPGPUserId {
    static func make(name: String, address: String) -> String {
        let clean = name.filter { $0 != "<" && $0 != ">" && !$0.isNewline }.trimmingCharacters(in: .whitespaces)
        return clean.isEmpty ? "<\(address)>" : "\(clean) <\(address)>"
    }
}
