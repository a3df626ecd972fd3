import ArgumentParser
import VaultMailCore

/// The `vaultmail` command line. Parsing only: the work lives in the library targets.
@main
struct VaultMailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vaultmail",
        abstract: "A local-first, privacy-first email engine: IMAP sync into a local store, threads, SMTP sending and desktop notifications.",
        discussion: """
            No mail, token or metadata leaves this machine except to your own mail servers.
            Data lives in --home (default $XDG_DATA_HOME/vaultmail, or $VAULTMAIL_HOME).
            """,
        version: VaultMailVersion.current
    )

    @Option(name: .long, help: ArgumentHelp("The data directory.", valueName: "dir"))
    var home: String?

    func run() async throws {
        print(Self.helpMessage())
    }
}
