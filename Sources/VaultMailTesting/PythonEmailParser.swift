import Foundation

/// A second, independent reader of messages for tests: CPython's `email` package
/// (`BytesParser(policy=policy.default)`, run by `/usr/bin/python3`), reporting what it
/// parsed as JSON. A message both our parser and this one read back unchanged is well formed.
public enum PythonEmailParser {
    public struct Address: Sendable, Hashable, Decodable {
        public var name: String
        public var email: String

        public init(name: String, email: String) {
            self.name = name
            self.email = email
        }
    }

    public struct Attachment: Sendable, Hashable, Decodable {
        public var filename: String?
        public var contentType: String
        public var size: Int
        /// SHA-256 (hex) of the decoded content.
        public var sha256: String
    }

    public struct Message: Sendable, Hashable, Decodable {
        public var subject: String?
        public var from: [Address]
        public var to: [Address]
        public var cc: [Address]
        /// True when the message has a Bcc header (an outgoing message must not).
        public var hasBcc: Bool
        public var messageId: String?
        public var inReplyTo: String?
        /// The References header, unfolded.
        public var references: String?
        /// Seconds since 1970 of the Date header.
        public var date: Double?
        public var mimeVersion: String?
        /// The text/plain body, line ends made LF.
        public var text: String?
        /// The text/html body, line ends made LF.
        public var html: String?
        public var attachments: [Attachment]
        /// The defects Python found, in any part: empty for a well-formed message.
        public var defects: [String]
        public var contentType: String
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private static let script = #"""
        import sys, json, hashlib
        from email import policy
        from email.parser import BytesParser
        raw = open(sys.argv[1], 'rb').read()
        msg = BytesParser(policy=policy.default).parsebytes(raw)
        def addresses(name):
            header = msg[name]
            if header is None:
                return []
            return [{"name": a.display_name, "email": a.addr_spec} for a in header.addresses]
        def text(part):
            return None if part is None else part.get_content().replace('\r\n', '\n')
        def value(name):
            header = msg[name]
            return None if header is None else str(header)
        attachments = []
        for part in msg.iter_attachments():
            data = part.get_payload(decode=True) or b''
            attachments.append({"filename": part.get_filename(), "contentType": part.get_content_type(),
                                "size": len(data), "sha256": hashlib.sha256(data).hexdigest()})
        defects = [type(d).__name__ + ': ' + str(d) for p in msg.walk() for d in p.defects]
        date = msg['date']
        print(json.dumps({
            "subject": value('subject'), "from": addresses('from'), "to": addresses('to'), "cc": addresses('cc'),
            "hasBcc": 'bcc' in msg, "messageId": value('message-id'), "inReplyTo": value('in-reply-to'),
            "references": value('references'), "date": date.datetime.timestamp() if date is not None else None,
            "mimeVersion": value('mime-version'),
            "text": text(msg.get_body(preferencelist=('plain',))), "html": text(msg.get_body(preferencelist=('html',))),
            "attachments": attachments, "defects": defects, "contentType": msg.get_content_type()}))
        """#

    /// Parses `raw` with Python's `email` package.
    public static func parse(_ raw: Data) throws -> Message {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-pyparse-\(UUID().uuidString).eml")
        try raw.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try CommandRunner.run("/usr/bin/python3", ["-c", script, file.path])
        guard let line = output.split(separator: "\n").last else { throw Failure(description: "python printed nothing") }
        do {
            return try JSONDecoder().decode(Message.self, from: Data(line.utf8))
        } catch {
            throw Failure(description: "cannot read python's output (\(error)): \(output)")
        }
    }
}
