import ArgumentParser
import Foundation
import VaultMailApp

struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "An account's OpenPGP key: its state, its public key, and others' public keys.",
        discussion: """
            Each account has its own OpenPGP keyring under <home>/openpgp, never ~/.gnupg.
            The secret key's passphrase is kept in the keyring (Secret Service). See docs/crypto.md.
            `setup-message` and `import-setup` move the key between mail apps (Autocrypt Setup Message).
            """,
        subcommands: [Status.self, Export.self, Import.self, SetupMessage.self, ImportSetup.self])

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

    struct SetupMessage: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "setup-message",
            abstract: "Send the account's secret key to itself in an Autocrypt Setup Message, and print the setup code that opens it (shown this once).",
            discussion: "Another Autocrypt app (Thunderbird, K-9 Mail, another VaultMail) imports the message with the code and uses the same key.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The account's name; may be left out when there is only one.") var account: String?
        @MainActor func run() async throws { emit(try await global.session().sendSetupMessage(account: account)) }
    }

    struct ImportSetup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-setup",
            abstract: "Use the key in an Autocrypt Setup Message as the account's key; the setup code is read from standard input or asked for.",
            discussion: """
                The code is never an argument: a command line is visible to other users of the computer. \
                Type it when asked (36 digits; dashes and spaces are fine), or pipe it in. \
                The account's earlier key stays, so older mail still opens.
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The setup message's email id (or a unique prefix), as `vaultmail show` lists it.") var message: String

        @MainActor
        func run() async throws {
            let code: String
            if isatty(STDIN_FILENO) != 0 {
                // Read from the terminal without echo (getpass: /dev/tty, echo off).
                guard let typed = getpass("Setup code (36 digits): ") else { throw ValidationError("no setup code was typed") }
                code = String(cString: typed)
            } else {
                code = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            }
            emit(try await global.session().importSetupMessage(message, code: code))
        }
    }
}
