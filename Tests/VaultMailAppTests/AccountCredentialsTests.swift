import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailTesting

@MainActor
@Suite("Account credentials (AC-F-03, AC-SEC-02, AC-SEC-03)")
struct AccountCredentialsTests {
    func session(_ store: InMemoryCredentialStore) throws -> (CommandSession, URL) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-cred-\(UUID().uuidString.prefix(8))")
        return (try CommandSession(home: VaultMailHome(explicit: home.path), credentials: store), home)
    }

    @Test("A credential command's first output line is the secret; a failing one is reported without its output")
    func command() async throws {
        let credentials = AccountCredentials(store: InMemoryCredentialStore())
        var account = MailFixtures.account()
        account.credentialCommand = "printf 'hunter2\\nsecond line\\n'"
        #expect(try await credentials.secret(for: account) == "hunter2")
        account.credentialCommand = "echo leaked-secret; exit 3"
        await #expect { try await credentials.secret(for: account) } throws: { error in
            "\(error)".contains("status 3") && !"\(error)".contains("leaked-secret")
        }
        account.credentialCommand = "true"
        await #expect { try await credentials.secret(for: account) } throws: { "\($0)".contains("printed nothing") }
    }

    @Test("A hung credential command is stopped at the timeout")
    func commandTimeout() async throws {
        var account = MailFixtures.account()
        account.credentialCommand = "sleep 600"
        let clock = ContinuousClock()
        let elapsed = await clock.measure {
            await #expect { try await AccountCredentials(store: InMemoryCredentialStore(), timeout: .milliseconds(300)).secret(for: account) }
                throws: { "\($0)".contains("did not finish within") }
        }
        // Stopped, not waited for: the command alone would take ten minutes. The margin is wide
        // because a loaded 2-core machine can stall the test for seconds.
        #expect(elapsed < .seconds(300), "stopped after \(elapsed)")
    }

    @Test("AC-SEC-02: --password-stdin keeps the password in the keyring, not the database; removal deletes it")
    func keyring() async throws {
        let store = InMemoryCredentialStore()
        let (session, home) = try session(store)
        defer { try? FileManager.default.removeItem(at: home) }
        _ = try await session.addAccount(.init(name: "work", email: "ada@example.com", imap: "imap.example.com",
                                               smtp: "smtp.example.com", credential: .password("pa55-w0rd-in-keyring")))
        let account = try await session.account(named: "work")
        #expect(account.credentialCommand == nil)
        #expect(try await AccountCredentials(store: store).secret(for: account) == "pa55-w0rd-in-keyring")
        let raw = try Data(contentsOf: URL(fileURLWithPath: session.home.databasePath))
        #expect(raw.range(of: Data("pa55-w0rd-in-keyring".utf8)) == nil)
        _ = try await session.removeAccount(named: "work")
        #expect(await store.secrets.isEmpty)
    }

    @Test("A keyring that refuses the password adds no account")
    func keyringFailure() async throws {
        let store = InMemoryCredentialStore()
        await store.setFailing(true)
        let (session, home) = try session(store)
        defer { try? FileManager.default.removeItem(at: home) }
        await #expect { try await session.addAccount(.init(name: "work", email: "ada@example.com", imap: "imap.example.com",
                                                           smtp: "smtp.example.com", credential: .password("pw")))
        } throws: { "\($0)".contains("locked") }
        #expect(try await session.dependencies.accounts.getAccounts().isEmpty)
    }
}
