import Foundation

/// A one-connection IMAP server on 127.0.0.1 that answers LOGIN, SELECT and a UID FETCH of
/// attributes with canned lines, and a UID FETCH of message bodies with `bodyResponse`, after
/// which it closes the connection. For a server that dies inside a message literal.
final class ScriptedIMAPServer: Sendable {
    private let server: ScriptedLineServer
    var port: Int { server.port }

    init(bodyResponse: String) throws {
        server = try ScriptedLineServer(greeting: "* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] scripted server ready\r\n") { line in
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard words.count >= 2 else { return .reply("") }
            let tag = words[0]
            let command = words[1].uppercased() + " " + (words.count > 2 ? words[2].uppercased() : "")
            if command.hasPrefix("SELECT") || command.hasPrefix("EXAMINE") {
                return .reply(
                    "* FLAGS (\\Seen)\r\n* 1 EXISTS\r\n* 0 RECENT\r\n* OK [UIDVALIDITY 7] ok\r\n* OK [UIDNEXT 2] ok\r\n"
                        + "\(tag) OK [READ-WRITE] selected\r\n")
            } else if command.hasPrefix("UID FETCH") && command.contains("BODY.PEEK[") {
                return .replyAndClose(bodyResponse)  // closes the connection inside the literal
            } else if command.hasPrefix("UID FETCH") {
                return .reply(
                    "* 1 FETCH (UID 1 FLAGS (\\Seen) RFC822.SIZE 5000 INTERNALDATE \"15-Jan-2026 12:00:00 +0000\")\r\n"
                        + "\(tag) OK fetched\r\n")
            } else if command.hasPrefix("LOGOUT") {
                return .replyAndClose("* BYE bye\r\n\(tag) OK bye\r\n")
            } else if command.hasPrefix("CAPABILITY") {
                return .reply("* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n\(tag) OK done\r\n")
            } else {
                return .reply("\(tag) OK done\r\n")
            }
        }
    }
}
