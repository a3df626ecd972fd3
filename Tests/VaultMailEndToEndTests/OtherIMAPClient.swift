import Foundation
import VaultMailCore
import VaultMailTesting

/// Another IMAP client on the same mailbox, as a second mail program or the web mail would
/// be: Python's `imaplib` over IMAPS, verifying the test CA. It appends mail, marks mail read
/// and lists what the server holds.
struct OtherIMAPClient {
    struct Message: Decodable {
        var subject: String
        var flags: [String]
        var inReplyTo: String?
        var uid: Int
    }

    let dovecot: DovecotServer
    let user: String
    let password: String

    /// Appends every file of `directory` (sorted by name) to `mailbox` in one session (flagged
    /// \Draft when the mailbox is a Drafts folder).
    func append(directory: URL, to mailbox: String = "INBOX") async throws {
        _ = try await run(["append", mailbox, directory.path], errors: true)
    }

    /// Appends every file of `directory` (sorted by name) to `mailbox`, each arriving when its
    /// Date header says (its INTERNALDATE), as mail kept from days ago has.
    func appendDated(directory: URL, to mailbox: String = "INBOX") async throws {
        _ = try await run(["append-dated", mailbox, directory.path], errors: true)
    }

    /// Appends `message` to `mailbox` already read (`\Seen`), as mail read in another mail
    /// program before VaultMail saw it (or one's own mail filed as read) arrives.
    func appendRead(_ message: Data, to mailbox: String = "INBOX") async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-seen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try message.write(to: directory.appendingPathComponent("message.eml"))
        _ = try await run(["append-seen", mailbox, directory.path], errors: true)
    }

    /// Marks the messages of `mailbox` whose subject contains `subject` as read.
    func markRead(subject: String, in mailbox: String = "INBOX") async throws {
        _ = try await run(["seen", mailbox, subject], errors: true)
    }

    /// Moves the messages of `mailbox` whose subject contains `subject` to `destination`
    /// (UID MOVE), as archiving in the web mail does.
    func move(subject: String, from mailbox: String = "INBOX", to destination: String) async throws {
        _ = try await run(["move", mailbox, subject, destination], errors: true)
    }

    /// Deletes the messages of `mailbox` whose subject contains `subject` for good
    /// (\Deleted, then UID EXPUNGE).
    func delete(subject: String, in mailbox: String = "INBOX") async throws {
        _ = try await run(["delete", mailbox, subject], errors: true)
    }

    /// What `mailbox` holds now.
    func messages(in mailbox: String) async throws -> [Message] {
        let output = try await run(["list", mailbox], errors: false)
        return try output.split(separator: "\n").map { try JSONDecoder().decode(Message.self, from: Data($0.utf8)) }
    }

    /// Runs the script; `errors` mixes its standard error into the output (not for `list`,
    /// whose output is parsed).
    private func run(_ arguments: [String], errors: Bool) async throws -> String {
        let result = try await ProcessCapture.run(
            "/usr/bin/python3", ["-c", Self.script, dovecot.host, "\(dovecot.imapsPort)", dovecot.caFile, user] + arguments,
            input: Data(password.utf8), includeErrors: errors, timeout: .seconds(120))
        let output = String(decoding: result.output, as: UTF8.self)
        guard result.exitedNormally, result.status == 0 else {
            throw ChildProcess.Failure(description: "the other IMAP client failed (\(arguments.first ?? "")): \(output)")
        }
        return output
    }

    /// The password comes on standard input, never on the command line.
    private static let script = #"""
import email, email.utils, imaplib, json, os, ssl, sys
host, port, ca, user, action, mailbox = sys.argv[1:7]
imap = imaplib.IMAP4_SSL(host, int(port), ssl_context=ssl.create_default_context(cafile=ca))
imap.login(user, sys.stdin.read())
if action == "append":
    for name in sorted(os.listdir(sys.argv[7])):
        with open(os.path.join(sys.argv[7], name), "rb") as f:
            imap.append(mailbox, "(\\Draft)" if mailbox.lower().endswith("drafts") else None, None, f.read())
elif action == "append-seen":
    for name in sorted(os.listdir(sys.argv[7])):
        with open(os.path.join(sys.argv[7], name), "rb") as f:
            imap.append(mailbox, "(\\Seen)", None, f.read())
elif action == "append-dated":
    for name in sorted(os.listdir(sys.argv[7])):
        with open(os.path.join(sys.argv[7], name), "rb") as f:
            raw = f.read()
        when = email.utils.parsedate_to_datetime(email.message_from_bytes(raw)["Date"])
        imap.append(mailbox, None, imaplib.Time2Internaldate(when), raw)
elif action in ("seen", "move", "delete"):
    imap.select(mailbox)
    _, data = imap.uid("SEARCH", "CHARSET", "UTF-8", "SUBJECT", '"%s"' % sys.argv[7].replace('"', ''))
    uids = b",".join(data[0].split())
    if uids and action == "seen":
        imap.uid("STORE", uids, "+FLAGS", "(\\Seen)")
    elif uids and action == "move":
        imap.uid("MOVE", uids, sys.argv[8])
    elif uids:
        imap.uid("STORE", uids, "+FLAGS", "(\\Deleted)")
        imap.uid("EXPUNGE", uids)
elif action == "list":
    imap.select(mailbox, readonly=True)
    _, data = imap.uid("FETCH", "1:*", "(UID FLAGS BODY.PEEK[HEADER.FIELDS (SUBJECT IN-REPLY-TO)])")
    for part in data:
        if not isinstance(part, tuple):
            continue
        meta = part[0].decode()
        flags = meta.split("FLAGS (")[1].split(")")[0].split() if "FLAGS (" in meta else []
        uid = int(meta.split("UID ")[1].split()[0].rstrip(")"))
        headers = email.message_from_bytes(part[1])
        print(json.dumps({"uid": uid, "subject": str(headers.get("Subject", "")), "flags": flags,
                          "inReplyTo": headers.get("In-Reply-To")}))
imap.logout()
"""#
}
