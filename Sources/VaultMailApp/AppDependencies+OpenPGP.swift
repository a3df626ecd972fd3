import Foundation
import VaultMailCore
import VaultMailDesktop
import VaultMailMIME
import VaultMailOpenPGP
import VaultMailStore

extension AppDependencies {
    /// The OpenPGP engine of `home` (issue 32): GnuPG through GPGME, one GnuPG home per account
    /// under `<home>/openpgp`, each key's passphrase in the Secret Service (docs/crypto.md).
    public static func openPGPEngine(home: VaultMailHome) -> any OpenPGPEngine {
        GPGMEOpenPGPEngine(directory: home.directory.appendingPathComponent("openpgp"),
                           passphrases: SecretServiceCredentialStore(application: SecretServiceCredentialStore.openPGPApplication))
    }

    /// Reading OpenPGP mail over `engine`, from the messages' sources in `database`.
    public static func openPGPReading(engine: any OpenPGPEngine, database: AppDatabase) -> OpenPGPReading {
        OpenPGPReading(engine: engine, sources: GRDBEmailRepository(database: database), parser: GMimeMessageParser(),
                       structure: GMimeMessageParser(), peers: GRDBAutocryptPeerRepository(database: database))
    }

    /// The Autocrypt Setup Message of the accounts (issue 32): sent through `compose` and the
    /// outbox in `database`, read from the messages stored there.
    public static func autocryptSetup(engine: any OpenPGPEngine, database: AppDatabase, compose: ComposeEmailService,
                                      clock: any WallClock = SystemWallClock()) -> AutocryptSetup {
        let emails = GRDBEmailRepository(database: database)
        return AutocryptSetup(engine: engine, accounts: GRDBAccountRepository(database: database), emails: emails, sources: emails,
                              reader: GMimeMessageParser(), compose: compose, outbox: GRDBOutboxRepository(database: database), clock: clock)
    }
}
