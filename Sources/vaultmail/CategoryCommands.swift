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

struct UnsubscribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsubscribe",
        abstract: "Leave the mailing list or newsletter of an email: the one-click request (RFC 8058) or the email its List-Unsubscribe header names.",
        discussion: "Never opens a link. Exit 1 when the sender offers no one-click https or mailto: way, or the request was not accepted.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The email or thread id (or a unique prefix).") var id: String
    @Flag(help: "Say what would be sent, and to whom, without sending it.") var dryRun = false
    @Flag(help: "JSON: emailId, sender, method, summary, succeeded, message.") var json = false

    @MainActor
    func run() async throws {
        emit(try await global.session().unsubscribe(id, dryRun: dryRun, json: json))
    }
}

struct SubscriptionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscriptions", abstract: "List the senders of bulk mail of the last 90 days, most messages first.")
    @OptionGroup var global: GlobalOptions
    @Flag(help: "JSON: one object per sender with last30Days, last90Days, lastRead, method, unsubscribedAt.") var json = false

    @MainActor
    func run() async throws {
        emit(try await global.session().subscriptions(json: json))
    }
}
