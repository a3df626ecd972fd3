import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// The password given once goes to the Secret Service, nowhere else, and leaves with the account.
@Suite("vaultmail credentials end to end (issue 7, AC-F-03, AC-SEC-02, AC-SEC-03)", .serialized)
struct CredentialsEndToEndTests {
    /// The keyring's items for VaultMail, through the Secret Service API.
    func keyringItems(_ world: EndToEndWorld) async throws -> String {
        let result = try await ProcessCapture.run(
            "/usr/bin/dbus-send", ["--bus=\(world.bus.address)", "--print-reply", "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets",
                                   "org.freedesktop.Secret.Service.SearchItems", "dict:string:string:application,vaultmail"],
            timeout: .seconds(30))
        let output = String(decoding: result.output, as: UTF8.self)
        try #require(result.status == 0, "SearchItems failed: \(output)")
        return output
    }

    /// Every byte under the home, to look for the password.
    func homeBytes(_ world: EndToEndWorld) throws -> Data {
        var all = Data()
        let walker = FileManager.default.enumerator(at: world.home, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            if let data = try? Data(contentsOf: url) { all.append(data) }
        }
        return all
    }

    @Test("--password-stdin keeps the password in the keyring only; the daemon logs in with it; account remove deletes it")
    func keyring() async throws {
        try await EndToEndWorld.with { world in
            let keyring = try await KeyringDaemon.start(on: world.bus)
            defer { keyring.stop() }
            try world.deliver(EndToEndWorld.message("Hello keyring"))
            let added = try await world.vaultmail([
                "account", "add", "work", "--email", EndToEndWorld.address, "--imap", "127.0.0.1:\(world.dovecot.imapsPort)",
                "--smtp", "127.0.0.1:\(world.smtp.tlsPort)", "--ca-file", world.dovecot.caFile, "--user", EndToEndWorld.user,
                "--password-stdin",
            ], input: EndToEndWorld.password + "\n")
            try #require(added.status == 0, "\(added.text)")
            #expect(try await keyringItems(world).contains("/org/freedesktop/secrets/collection/"), "the secret is in the keyring")

            try await world.startDaemon()
            try world.deliver(EndToEndWorld.message("Through the keyring"))
            try await world.waitForNotification(mentioning: "Through the keyring")
            #expect(try await world.stopDaemon().status == 0)
            #expect(try homeBytes(world).range(of: Data(EndToEndWorld.password.utf8)) == nil, "the password is in no file of the home")

            let removed = try await world.vaultmail(["account", "remove", "work"])
            #expect(removed.status == 0, "\(removed.text)")
            #expect(!(try await keyringItems(world).contains("/org/freedesktop/secrets/collection/")), "the secret is gone")
            // With no account left the daemon still runs and serves the web app, waiting for one.
            let waiting = try ChildProcess(EndToEndWorld.binary, ["daemon", "--web-port", "0"], environment: world.environment)
            try await waiting.waitForOutput("no accounts yet", timeout: .seconds(60))
            try await waiting.waitForOutput("web app at http://127.0.0.1:", timeout: .seconds(60))
            #expect(await waiting.terminate(grace: .seconds(10)).status == 0)
        }
    }
}
