import ArgumentParser
import VaultMailApp

struct RemindCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remind", abstract: "Be reminded if nobody answers your latest message in a conversation.",
        discussion: "The time counts from your message; the running daemon reminds once, with a notification, unless someone wrote in the conversation since.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The thread id (or a unique prefix).") var threadId: String
    @Option(name: .customLong("in"), help: ArgumentHelp("How long to wait for an answer: 3d, 1w, 12h, 30m.", valueName: "time")) var delay: String?
    @Flag(help: "Take the reminder off.") var cancel = false

    @MainActor
    func run() async throws { emit(try await global.session().remind(threadId, after: delay, cancel: cancel)) }
}

struct RemindersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reminders", abstract: "List follow-up reminders, the soonest first.")
    @OptionGroup var global: GlobalOptions

    @MainActor
    func run() async throws { emit(try await global.session().reminders()) }
}
