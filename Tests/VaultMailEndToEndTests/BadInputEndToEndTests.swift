import Foundation
import Testing
import VaultMailTesting

/// Bad input through the built tool: a clear message and exit code 2 (usage) or 1 (runtime),
/// never a stack trace, never a secret.
@Suite("vaultmail bad input end to end (issue 7)", .serialized)
struct BadInputEndToEndTests {
    static let crashMarkers = ["Fatal error", "Stack dump", "Backtrace", "Current stack trace", "#0 0x", "Illegal instruction", "Segmentation fault"]

    func expectClean(_ output: EndToEndWorld.Output, status: Int32, mentions expected: [String], _ what: String) {
        #expect(output.status == status, "\(what): exit \(output.status): \(output.text)")
        for text in expected {
            #expect(output.text.localizedCaseInsensitiveContains(text), "\(what) should mention '\(text)': \(output.text)")
        }
        #expect(!Self.crashMarkers.contains { output.text.contains($0) }, "\(what) crashed: \(output.text)")
        #expect(!output.text.contains(EndToEndWorld.password) && !output.text.contains("hunter2-wrong"), "\(what) leaked a secret")
        #expect(output.text.split(separator: "\n").count <= 6, "\(what): a short message, not a dump: \(output.text)")
    }

    @Test("Unknown account, unknown thread, malformed quiet hours, unreachable server, wrong password")
    func matrix() async throws {
        try await EndToEndWorld.with { world in
            try world.deliver(EndToEndWorld.message("Something to sync"))
            try await world.addAccount()
            #expect(try await world.vaultmail(["sync"]).status == 0)

            expectClean(try await world.vaultmail(["sync", "nosuch"]), status: 1, mentions: ["nosuch", "known accounts: work"], "unknown account")
            expectClean(try await world.vaultmail(["threads", "--account", "nosuch"]), status: 1, mentions: ["nosuch"], "unknown account (threads)")
            expectClean(try await world.vaultmail(["show", "0123456789abcdef"]), status: 1, mentions: ["0123456789abcdef", "threads"], "unknown thread")
            expectClean(try await world.vaultmail(["archive", "ffffffffffff"]), status: 1, mentions: ["ffffffffffff"], "unknown thread (archive)")
            expectClean(try await world.vaultmail(["notify", "quiet-hours", "25:00-07:00"]), status: 2, mentions: ["HH:MM"], "malformed quiet hours")
            expectClean(try await world.vaultmail(["notify", "quiet-hours", "tonight"]), status: 2, mentions: ["HH:MM"], "malformed quiet hours")
            expectClean(try await world.vaultmail(["notify", "why", "nope"]), status: 1, mentions: ["nope"], "unknown email")

            let closedPort = try Self.closedPort()
            try await world.addAccount(name: "gone", imapPort: closedPort)
            expectClean(try await world.vaultmail(["sync", "gone"]), status: 1, mentions: ["127.0.0.1:\(closedPort)"], "unreachable server")

            try await world.addAccount(name: "typo", passwordCommand: "echo hunter2-wrong")
            expectClean(try await world.vaultmail(["sync", "typo"]), status: 1, mentions: ["log in"], "wrong password")

            expectClean(try await world.vaultmail(["acount", "list"]), status: 2, mentions: ["acount"], "misspelled command")
            expectClean(try await world.vaultmail(["send", "--account", "work", "--to", "not-an-address"], input: "hi"), status: 2,
                        mentions: ["not-an-address"], "bad recipient")
        }
    }

    /// A loopback port nothing listens on (bound, then released).
    static func closedPort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        try #require(bound, "cannot bind a loopback port")
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
