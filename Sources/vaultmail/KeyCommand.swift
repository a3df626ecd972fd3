import ArgumentParser
import Foundation
import VaultMailApp

struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "An account's OpenPGP key: its state, its public key, and others' public keys.",
        discussion: """
            Each account has its own OpenPGP keyring under <home>/openpgp, never ~/.gnupg.
            The secret key's passphrase is kept in the keyring (Secret Service). See docs/crypto.md.
            """,
        subcommands: [Status.self, Export.self, Import.self])

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "The account's key and its fingerprint (or that it has none yet), and the correspondents' keys learnt from their mail (Autocrypt).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The account's name.") var account: String
        @MainActor func run() async throws { emit(try await global.session().keyStatus(account: account)) }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Print the account's public key, ASCII-armored (the key is made when the account has none).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The account's name.") var account: String
        @MainActor func run() async throws { emit(try await global.session().exportKey(account: account)) }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import", abstract: "Add others' public keys to the account's keyring, so their signatures are checked.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The account's name.") var account: String
        @Argument(help: "A file holding public keys; standard input when absent.") var file: String?

        @MainActor
        func run() async throws {
            let data: Data
            if let file {
                guard let read = FileManager.default.contents(atPath: file) else {
                    throw ValidationError("cannot read \(file); give a readable file of public keys")
                }
                data = read
            } else {
                data = FileHandle.standardInput.readDataToEndOfFile()
            }
            emit(try await global.session().importKeys(Array(data), account: account))
        }
    }
}
