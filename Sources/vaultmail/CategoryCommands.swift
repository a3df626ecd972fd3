import ArgumentParser
import VaultMailApp
import VaultMailCore

struct CategorizeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categorize", abstract: "Put a conversation in a category, for good; later mail from its senders follows.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The thread id (or a unique prefix).") var threadId: String
    @Argument(help: "primary, social, promotions, updates or forums.") var category: AICategory

    @MainActor
    func run() async throws {
        emit(try await global.session().categorize(threadId, as: category))
    }
}

struct WhyCategoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "why-category", abstract: "Say an email's category, who decided it and why.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The email id (or a unique prefix; `vaultmail show THREAD-ID` shows them).") var emailId: String
    @Flag(help: "JSON: emailId, category, source, reason (null when not categorized yet).") var json = false

    @MainActor
    func run() async throws {
        emit(try await global.session().whyCategory(emailId, json: json))
    }
}
