import Foundation
import Testing
@testable import VaultMailIMAP

@Suite("IMAP protocol pieces")
struct ProtocolPieceTests {
    @Test(
        "AC-F-05: mailbox names round-trip through modified UTF-7 (RFC 3501 §5.1.3)",
        arguments: [
            ("Entwürfe", "Entw&APw-rfe"), ("R&D", "R&-D"), ("~peter/mail/台北/日本語", "~peter/mail/&U,BTFw-/&ZeVnLIqe-"),
            ("INBOX", "INBOX"), ("Grüße & Küsse", "Gr&APwA3w-e &- K&APw-sse"), ("📬", "&2D3c7A-"),
        ])
    func modifiedUTF7(decoded: String, encoded: String) {
        #expect(ModifiedUTF7.encode(decoded) == encoded)
        #expect(ModifiedUTF7.decode(encoded) == decoded)
    }

    @Test("AC-F-05: a malformed modified UTF-7 name is kept literally, not dropped")
    func malformedUTF7() {
        #expect(ModifiedUTF7.decode("A&*bad-B") == "A&*bad-B")
        #expect(ModifiedUTF7.decode("Open&ended") == "Open&ended")
    }

    @Test("AC-F-06: UID sets print as IMAP sequence sets, merge, contain and split into batches")
    func uidSets() {
        let set = UIDSet([5, 1, 2, 3, 9, 10, 3])
        #expect(set.description == "1:3,5,9:10")
        #expect(set.contains(2) && !set.contains(4))
        #expect(UIDSet.from(7).description == "7:*")
        #expect(UIDSet.from(7).contains(1_000_000))
        #expect(UIDSet(1...4).closedUIDs == [1, 2, 3, 4])
        #expect(UIDSet([UInt32]()).isEmpty)
        let batches = UIDSet(Array(1...10) + [20, 21]).chunked(maxCount: 4)
        #expect(batches.map(\.description) == ["1:4", "5:8", "9:10,20:21"])
        #expect(batches.flatMap(\.closedUIDs) == Array(1...10) + [20, 21])
        #expect(UIDSet(UInt32.max - 1...UInt32.max).chunked(maxCount: 1).count == 2)
    }

    @Test(
        "AC-F-05: untagged responses during IDLE become events",
        arguments: [
            ("* 23 EXISTS\r\n", IMAPResponseLine.event(.exists(count: 23))),
            ("* 4 EXPUNGE\r\n", .event(.expunged(sequenceNumber: 4))),
            (
                "* 3 FETCH (UID 7 MODSEQ (12) FLAGS (\\Seen $Label \\Recent))\r\n",
                .event(.flagsChanged(sequenceNumber: 3, uid: 7, flags: [.seen, "$Label"], modSeq: 12))
            ),
            ("* 3 FETCH (FLAGS ())\r\n", .event(.flagsChanged(sequenceNumber: 3, uid: nil, flags: [], modSeq: nil))),
            ("* VANISHED (EARLIER) 1:3,7\r\n", .event(.vanished(uids: [1, 2, 3, 7]))),
            ("* 1 RECENT\r\n", .other),
            ("* OK Still here\r\n", .other),
            ("* 3 FETCH (UID 9)\r\n", .other),
            ("+ idling\r\n", .continuation),
            ("* BYE Server shutting down.\r\n", .bye(text: "Server shutting down.")),
            ("12 OK Idle completed (0.001 + 1.2 secs).\r\n", .tagged(tag: "12", status: "OK", text: "Idle completed (0.001 + 1.2 secs).")),
        ])
    func responseLines(line: String, expected: IMAPResponseLine) {
        #expect(IMAPResponseLine(Array(line.utf8)) == expected)
    }

    @Test("AC-SEC-02: error descriptions name server, user and mailbox, and say what to do")
    func errorDescriptions() {
        let error = IMAPError(
            kind: .authenticationFailed, operation: "log in to", host: "127.0.0.1", port: 1143, user: "ada",
            serverResponse: "[AUTHENTICATIONFAILED] Authentication failed.")
        #expect(
            error.description
                == "cannot log in to 127.0.0.1:1143 as ada: [AUTHENTICATIONFAILED] Authentication failed. "
                + "Check the user name and password (or renew the access token).")
        let lost = IMAPError(
            kind: .connectionLost, operation: "idle on \"INBOX\" on", host: "::1", port: 993, mailbox: "INBOX",
            reason: "the connection was closed")
        #expect(
            lost.description
                == "cannot idle on \"INBOX\" on [::1]:993: the connection was closed. The connection is closed; connect again.")
    }

    @Test("Every failure of the shared secure connection is a kind of IMAP and of SMTP error, by the same name")
    func streamFailureKinds() {
        for failure in ConnectionFailure.allCases {
            #expect(IMAPError.Kind(failure).rawValue == failure.rawValue, "\(failure)")
            #expect(SMTPError.Kind(failure).rawValue == failure.rawValue, "\(failure)")
            #expect(IMAPError.Kind(failure).connectionFailure == failure)
            #expect(SMTPError.Kind(failure).connectionFailure == failure)
        }
        #expect(IMAPError.Kind.commandFailed.connectionFailure == nil)
        #expect(SMTPError.Kind.rejected.connectionFailure == nil)
    }

    @Test("AC-SEC-02: each kind's advice, shared by IMAP and SMTP where they have the kind, names each protocol's ports")
    func hints() {
        let imap: [IMAPError.Kind: String?] = [
            .invalidRequest: nil,
            .plaintextRefused: "Use TLS (usually port 993) or STARTTLS (usually port 143).",
            .connectionFailed: "Check the host name, the port and the network.",
            .timedOut: "The server did not answer in time; try again later or raise the timeout.",
            .tlsFailed: "Check that the port speaks the chosen security (TLS on 993, STARTTLS on 143).",
            .certificateRejected: "Nothing was sent to the server. If you trust it, name its CA certificate in the account's CA file.",
            .authenticationFailed: "Check the user name and password (or renew the access token).",
            .commandFailed: nil,
            .connectionLost: "The connection is closed; connect again.",
            .protocolError: "Try again (connect again if the connection was closed); if it keeps happening, report the server's software.",
            .notConnected: "Connect (and log in) first.",
            .unsupported: nil,
        ]
        let smtp: [SMTPError.Kind: String?] = [
            .invalidRequest: nil,
            .plaintextRefused: "Use TLS (usually port 465) or STARTTLS (usually port 587).",
            .connectionFailed: "Check the host name, the port and the network.",
            .timedOut: "The server did not answer in time; try again later.",
            .tlsFailed: "Check that the port speaks the chosen security (TLS on 465, STARTTLS on 587).",
            .certificateRejected: "Nothing was sent to the server. If you trust it, name its CA certificate in the account's CA file.",
            .authenticationFailed: "Check the user name and password (or renew the access token).",
            .temporaryFailure: "The server cannot accept it right now; it will be tried again.",
            .rejected: nil,
            .connectionLost: "The connection is closed; connect again.",
            .protocolError: "Try again (connect again if the connection was closed); if it keeps happening, report the server's software.",
            .notConnected: "Connect (and log in) first.",
            .unsupported: nil,
        ]
        for (kind, hint) in imap {
            #expect(IMAPError(kind: kind, operation: "reach", host: "h", port: 1).hint == hint, "\(kind)")
        }
        for (kind, hint) in smtp {
            #expect(SMTPError(kind: kind, operation: "reach", host: "h", port: 1).hint == hint, "\(kind)")
        }
    }
}
