import ArgumentParser
import Foundation
import Synchronization
import VaultMailApp

struct AICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ai", abstract: "On-device AI: the models, their downloads and which features they turn on.",
        discussion: """
            Models live in <home>/models (or $VAULTMAIL_MODELS_DIR). Nothing of your mail leaves this machine:
            the only network use is downloading a model's files, from the catalog's address or --mirror.
            See docs/ai.md.
            """,
        subcommands: [Status.self, Models.self, Download.self, Remove.self, Install.self])

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "The models installed, the storage they use, and which features are on.")
        @OptionGroup var global: GlobalOptions
        @MainActor func run() async throws { emit(try global.session().aiStatus()) }
    }

    struct Models: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "models", abstract: "The models that can be downloaded: name, purpose, size, licence and state.")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Stable JSON (see docs/ai.md).") var json = false
        @MainActor func run() async throws { emit(try global.session().aiModels(json: json)) }
    }

    struct Download: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "download",
            abstract: "Download a model, check it and install it (resumes an earlier download).",
            discussion: "Progress goes to standard error. Ctrl-C stops it and keeps what arrived; run the same command again to resume.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The model's id (see `vaultmail ai models`).") var id: String
        @Option(help: ArgumentHelp("Fetch <URL>/<id>/<file name> instead of the catalog's addresses.", valueName: "URL")) var mirror: String?

        @MainActor
        func run() async throws {
            let session = try global.session()
            let meter = ProgressLine()
            Interrupt.install()
            let download = Task { @MainActor in
                try await session.aiDownload(id, mirror: mirror) { meter.show($0) }
            }
            let watch = Task {
                while !Task.isCancelled {
                    if Interrupt.caught {
                        download.cancel()
                        return
                    }
                    try? await Task.sleep(for: .milliseconds(50))
                }
            }
            defer { watch.cancel() }
            do {
                let summary = try await download.value
                meter.end()
                emit(summary)
            } catch {
                meter.end()
                throw error
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete a model's files (a partial download too) and free the storage.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The model's id.") var id: String
        @MainActor func run() async throws { emit(try global.session().aiRemove(id)) }
    }

    struct Install: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install",
            abstract: "Install a model from its files, for a machine without internet.",
            discussion: "Give the model's files (matched by name) or the folder holding them; each is checked against its published SHA-256 before it is installed.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The model's id.") var id: String
        @Argument(help: "The model's files, or a folder holding them.") var paths: [String]
        @MainActor func run() async throws { emit(try global.session().aiInstall(id, from: paths)) }
    }
}

/// A percentage on standard error that updates in place on a terminal (a line per 10 % when
/// standard error is a file or a pipe).
final class ProgressLine: Sendable {
    private let terminal = isatty(STDERR_FILENO) == 1
    private let shown = Mutex<Int>(-1)

    func show(_ fraction: Double) {
        let percent = Int((fraction * 100).rounded(.down))
        let line: String? = shown.withLock { last in
            guard percent != last, terminal || percent / 10 != last / 10 || last < 0 else { return nil }
            last = percent
            return terminal ? "\r\u{1B}[KDownloading: \(percent)%" : "Downloading: \(percent)%\n"
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    func end() {
        if terminal && shown.withLock({ $0 >= 0 }) { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
