import Foundation
import VaultMailCore
import VaultMailIMAP
import VaultMailTesting

/// `vaultmail-bench send`: SMTP submission over loopback against the tests' aiosmtpd server
/// (`scripts/test-smtp-server.py`, found from the repository), implicit TLS with certificate
/// verification and AUTH PLAIN, one connection per message as the outbox sends.
enum SendBenchmarks {
    static func run() async throws {
        let server = try await SMTPTestServer.start(password: "bench-password")
        defer { server.stop() }
        let account = Account(
            id: "acct-bench", name: "bench", email: "ada@example.com", imapHost: "127.0.0.1", smtpHost: server.host,
            smtpPort: server.tlsPort, security: .tls, username: server.user, caFile: server.caFile)
        let transport = SMTPMailTransport(credentials: FixedCredentialProvider(everyAccount: "bench-password"))
        let envelope = MailEnvelope(sender: account.email, recipients: ["grace@example.com"])
        let builder = RFC5322MessageBuilder()
        print("# send: SMTP over implicit TLS to aiosmtpd on 127.0.0.1, connect + EHLO + AUTH + MAIL/RCPT/DATA + QUIT per message")

        let small = try builder.build(message(body: String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 40)))
        let smallRuns = 50
        let smallTime = try await Measure.medianMillis(runs: smallRuns) {
            try await transport.send(small, envelope: envelope, account: account) {}
        }
        Measure.report("send-small", smallTime, "ms", n: smallRuns)

        let megabyte = Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
        let withAttachment = message(body: "The file is attached.", attachment: megabyte)
        let buildRuns = 10
        let buildTime = try await Measure.medianMillis(runs: buildRuns) { _ = try builder.build(withAttachment) }
        Measure.report("build-1mb-attachment", buildTime, "ms", n: buildRuns)
        let big = try builder.build(withAttachment)
        let bigRuns = 10
        let bigTime = try await Measure.medianMillis(runs: bigRuns) {
            try await transport.send(big, envelope: envelope, account: account) {}
        }
        Measure.report("send-1mb-attachment", bigTime, "ms", n: bigRuns)

        let received = try await server.waitForMessages(count: smallRuns + bigRuns + 2)
        guard received.first?.raw == Data(small), received.last?.raw == Data(big) else {
            throw SMTPTestServer.Failure(description: "the server did not receive the messages byte for byte")
        }
    }

    private static func message(body: String, attachment: Data? = nil) -> OutgoingMessage {
        OutgoingMessage(
            messageId: "<bench@example.com>", date: Date(timeIntervalSince1970: 1_768_478_400),
            from: Participant(name: "Ada Lovelace", email: "ada@example.com"),
            to: [Participant(name: "Grace Hopper", email: "grace@example.com")], subject: "Benchmark message",
            textBody: body,
            attachments: attachment.map { [DraftAttachment(filename: "data.bin", mimeType: "application/octet-stream", data: $0)] } ?? [])
    }
}
