import Foundation
import Testing
import VaultMailCore
import VaultMailDesktop
import VaultMailTesting

@Suite("Credentials in the Secret Service (AC-F-03, AC-SEC-02, AC-SEC-03)", .serialized)
struct SecretServiceTests {
    @Test("AC-F-03: a secret is stored, read back, replaced, and gone after deletion")
    func roundTrip() async throws {
        let bus = try await DBusDaemon.start()
        let keyring = try await KeyringDaemon.start(on: bus)
        defer { keyring.stop() }
        let store = SecretServiceCredentialStore(busAddress: bus.address)
        let work = MailFixtures.account(name: "work")
        let home = MailFixtures.account(name: "home")
        #expect(try await store.secret(for: work) == nil)
        try await store.storeSecret("correct horse ✓", for: work)
        try await store.storeSecret("other", for: home)
        #expect(try await store.secret(for: work) == "correct horse ✓")
        try await store.storeSecret("battery staple", for: work)
        #expect(try await store.secret(for: work) == "battery staple")
        try await store.deleteSecret(for: work)
        #expect(try await store.secret(for: work) == nil)
        #expect(try await store.secret(for: home) == "other")
        try await store.deleteSecret(for: work)
    }

    @Test("No keyring on the bus: a clear error that says what to do, and no secret in it")
    func noKeyring() async throws {
        let bus = try await DBusDaemon.start()
        let store = SecretServiceCredentialStore(busAddress: bus.address)
        await #expect(throws: SecretServiceError.noService) {
            try await store.storeSecret("s3cret-value", for: MailFixtures.account())
        }
        #expect(SecretServiceError.noService.description.contains("--password-command"))
        let noBus = SecretServiceCredentialStore(environment: [:])
        await #expect { try await noBus.secret(for: MailFixtures.account()) } throws: { error in
            "\(error)".contains("DBUS_SESSION_BUS_ADDRESS") && !"\(error)".contains("s3cret")
        }
    }
}
