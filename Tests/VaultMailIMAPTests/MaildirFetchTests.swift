import Foundation
import Testing
import VaultMailCore
@testable import VaultMailIMAP
import VaultMailTesting

/// Issue 17 (every message kept, the sync never hangs): SpamAssassin ham files placed straight
/// into Dovecot's Maildir as `vaultmail-bench` places them, and a server that closes the
/// connection inside a message.
extension DovecotTests {
    @Suite("Messages placed in a Maildir")
    struct MaildirFetchTests {
        /// The six ham files with CRLF line ends that stalled the search benchmark's sync.
        static let crlfHam = [
            "004", "cjk/gb2312.1", "crlf-endings", "no_body", "spf5-received-spf-crlf", "spf6-received-spf-crlf2",
        ]
        static let hamFolder = "mime/spamassassin-t/t/data/nice"

        /// Writes `messages` into `home/Maildir/cur` named as the benchmark names them: `W=` is
        /// the size plus one byte per LF, which overstates the size of a file with CRLF ends.
        static func placeInMaildir(_ messages: [[UInt8]], home: URL) throws {
            let manager = FileManager.default
            let maildir = home.appendingPathComponent("Maildir")
            for sub in ["cur", "new", "tmp"] {
                try manager.createDirectory(at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
            }
            let base = Int(Date().timeIntervalSince1970) - messages.count
            for (index, message) in messages.enumerated() {
                let lineFeeds = message.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                let name = "\(base + index).M\(index)P\(getpid()).bench,S=\(message.count),W=\(message.count + lineFeeds):2,S"
                try Data(message).write(to: maildir.appendingPathComponent("cur/\(name)"))
            }
            let owner = try manager.attributesOfItem(atPath: home.path)
            let uid = (owner[.ownerAccountID] as? NSNumber)?.uint32Value ?? getuid()
            let gid = (owner[.groupOwnerAccountID] as? NSNumber)?.uint32Value ?? getgid()
            chown(maildir.path, uid, gid)
            for relative in manager.enumerator(atPath: maildir.path)?.allObjects as? [String] ?? [] {
                chown(maildir.appendingPathComponent(relative).path, uid, gid)
            }
        }

        /// The message as IMAP hands it out: every bare LF as CRLF.
        static func crlf(_ bytes: [UInt8]) -> Data {
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + bytes.count / 40)
            for (index, byte) in bytes.enumerated() {
                if byte == 0x0A && (index == 0 || bytes[index - 1] != 0x0D) { out.append(0x0D) }
                out.append(byte)
            }
            return Data(out)
        }

        @Test("Issue 17: six CRLF ham files placed in the Maildir with a wrong W= size are fetched whole, without a hang or a disconnect",
              .timeLimit(.minutes(2)))
        func crlfHamFromMaildir() async throws {
            let files = try Self.crlfHam.map { try TestMaterial.bytes(Self.hamFolder, $0) }
            let fixture = try await DovecotFixture.start()
            try Self.placeInMaildir(files, home: fixture.server.directory.appendingPathComponent("home/\(DovecotFixture.user)"))
            let mark = fixture.server.logMark()
            let imap = try await fixture.loggedIn()
            let status = try await imap.select("INBOX")
            #expect(status.exists == UInt32(files.count))

            let messages = try await finishing(within: .seconds(60)) { try await imap.fetchMessages(.all, items: .all) }
            #expect(messages.count == files.count)
            for (index, message) in messages.enumerated() where index < files.count {
                #expect(message.rawMessage == Self.crlf(files[index]), "\(Self.crlfHam[index]) arrives byte for byte")
                #expect(message.flags == [.seen])
                #expect(message.size != nil && message.internalDate != nil)
            }
            // Still connected: the next command works on the same connection.
            #expect(try await imap.searchUIDs().count == files.count)
            #expect(!fixture.server.log(since: mark).contains("FETCH failed"))
            await imap.logout()
        }

        @Test("Issue 17: a server that closes the connection inside a message literal ends the fetch with connectionLost, not a spin",
              .timeLimit(.minutes(5)))
        func closedInsideLiteral() async throws {
            let server = try ScriptedIMAPServer(bodyResponse: "* 1 FETCH (UID 1 BODY[HEADER] {5000}\r\nSubject: cut short\r\n\r\nonly this")
            let imap = try await IMAPConnection.connect(to: IMAPEndpoint(
                host: "127.0.0.1", port: server.port, security: .plain, connectTimeout: .seconds(10),
                readTimeout: .seconds(30)))
            try await imap.login(user: "ada", password: "secret")
            _ = try await imap.select("INBOX")
            let started = ContinuousClock.now
            let outcome = try await finishing(within: .seconds(20)) { () async -> Result<[IMAPMessage], IMAPError> in
                do { return .success(try await imap.fetchMessages(.all, items: .fullMessage)) } catch let error as IMAPError {
                    return .failure(error)
                } catch {
                    return .failure(IMAPError(kind: .protocolError, operation: "\(error)", host: "", port: 0))
                }
            }
            guard case .failure(let error) = outcome else {
                Issue.record("a message cut short was returned as whole: \(outcome)")
                return
            }
            #expect(error.kind == .connectionLost)
            #expect(ContinuousClock.now - started < .seconds(20))
            #expect(await !imap.isConnected)
        }

        @Test("FETCH responses read outside libetpan: literals, quoted strings, NIL and skipped items")
        func fetchResponseParsing() throws {
            let line = Array("* 12 FETCH (FLAGS (\\Seen $Label) UID 7 BODY[HEADER] {12}\r\nSubject: x\r\n X-GM-LABELS (\"a b\" {3}\r\nc)d) BODY[TEXT] \"quoted \\\"body\\\"\")\r\n".utf8)
            let parsed = try #require(IMAPSession.FetchedBodySections(line))
            #expect(parsed.sequenceNumber == 12)
            #expect(parsed.uid == 7)
            #expect(parsed.sections["HEADER"] == Data("Subject: x\r\n".utf8))
            #expect(parsed.sections["TEXT"] == Data("quoted \"body\"".utf8))

            let empty = try #require(IMAPSession.FetchedBodySections(Array("* 3 FETCH (UID 9 BODY[TEXT] NIL BODY[]<0> {0}\r\n)\r\n".utf8)))
            #expect(empty.uid == 9 && empty.sections == ["TEXT": Data(), "": Data()])

            #expect(IMAPSession.FetchedBodySections(Array("* 3 EXISTS\r\n".utf8)) == nil)
            #expect(IMAPSession.FetchedBodySections(Array("* 1 FETCH (UID 1 BODY[] {50}\r\nshort)\r\n".utf8)) == nil,
                    "a literal longer than what was read is malformed")
        }

        /// Runs `work` in a task of its own and waits at most `limit` for it: a call stuck in C
        /// cannot be cancelled, so a regression fails the test instead of hanging the run.
        func finishing<T: Sendable>(
            within limit: Duration, _ work: @escaping @Sendable () async throws -> T
        ) async throws -> T {
            let outcome = LockedBox<Result<T, any Error>?>(nil)
            Task {
                do { outcome.set(.success(try await work())) } catch { outcome.set(.failure(error)) }
            }
            try await waitUntil("the fetch to finish", timeout: limit, every: .milliseconds(20)) { outcome.value != nil }
            return try #require(outcome.value).get()
        }
    }
}
