/// Turns a raw RFC 5322 message into a `ParsedMessage`.
///
/// Never throws and never traps: it reads what it can and reports the rest in
/// `ParsedMessage.problems`, so a malformed message is stored and shown as best it can be,
/// never dropped. Safe to call from many tasks at once.
public protocol MessageParser: Sendable {
    func parse(_ raw: [UInt8]) -> ParsedMessage
}
