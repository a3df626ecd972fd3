/// The application service for how mail is shown and handled on screen (ARCHITECTURE.md, "The
/// application layer"): the undo-send delay, mark-read-on-open, remote images, the theme and
/// the list density, what opens after triage, date headings in the list, summaries when a conversation opens. A door reads and changes them here,
/// never in `SettingsStore` itself (issue 28).
///
/// - The undo-send delay is 0 to `undoDelayRange.upperBound` seconds; a value outside it
///   keeps the current one.
/// - Remote images load never under `.never`; else when the user asked for the message or
///   trusts its sender, and under `.knownSenders` also for people the user has written to.
public struct Preferences: Sendable {
    /// What the general settings hold.
    public struct General: Sendable, Equatable {
        public var undoSendDelaySeconds: Int
        public var markReadOnOpen: Bool
        public var remoteImages: RemoteImagePolicy
        public var theme: Theme
        public var listDensity: ListDensity

        public init(undoSendDelaySeconds: Int, markReadOnOpen: Bool, remoteImages: RemoteImagePolicy, theme: Theme,
                    listDensity: ListDensity) {
            self.undoSendDelaySeconds = undoSendDelaySeconds
            self.markReadOnOpen = markReadOnOpen
            self.remoteImages = remoteImages
            self.theme = theme
            self.listDensity = listDensity
        }
    }

    /// The undo-send delays that can be chosen, in seconds.
    public static let undoDelayRange = 0...300

    private let settings: SettingsStore
    private let contacts: ContactDirectory?

    /// - Parameter contacts: the people the user has written to (remote images of
    ///   `.knownSenders`); without it, only trusted senders count.
    public init(settings: SettingsStore, contacts: ContactDirectory? = nil) {
        self.settings = settings
        self.contacts = contacts
    }

    // MARK: General

    public func general() async -> General {
        await MainActor.run {
            General(undoSendDelaySeconds: settings.undoSendDelaySeconds, markReadOnOpen: settings.markReadOnOpen,
                    remoteImages: settings.remoteImages, theme: settings.theme, listDensity: settings.listDensity)
        }
    }

    /// Changes the general settings: `nil` (a field not given, or not one of the choices) keeps
    /// the current value, as does an undo delay outside `undoDelayRange`.
    public func change(undoSendDelaySeconds: Int?, markReadOnOpen: Bool, remoteImages: RemoteImagePolicy?, theme: Theme?,
                       listDensity: ListDensity?) async {
        await MainActor.run {
            if let delay = undoSendDelaySeconds, Self.undoDelayRange.contains(delay) { settings.undoSendDelaySeconds = delay }
            settings.markReadOnOpen = markReadOnOpen
            if let remoteImages { settings.remoteImages = remoteImages }
            if let theme { settings.theme = theme }
            if let listDensity { settings.listDensity = listDensity }
        }
    }

    // MARK: After triage

    /// What opens after the open conversation is archived, deleted or moved: the next older
    /// one (the default, as Gmail's "older"), the next newer one, or the list (issue 29).
    public func afterTriage() async -> AfterTriage {
        await MainActor.run { settings.afterTriage }
    }

    public func setAfterTriage(_ choice: AfterTriage) async {
        await MainActor.run { settings.afterTriage = choice }
    }

    // MARK: Date headings

    /// Whether the list is grouped under date headings ("Today", "Yesterday", "This week",
    /// "Last week", "Earlier this month", month names: `RelativeDate.heading(for:)`); off by
    /// default (issue 29).
    public func dateHeadings() async -> Bool {
        await MainActor.run { settings.dateHeadings }
    }

    public func setDateHeadings(_ on: Bool) async {
        await MainActor.run { settings.dateHeadings = on }
    }

    // MARK: Summaries

    /// Conversations of `SummarizeThreadUseCase.automaticMinimumMessages` or more messages are
    /// summarized when opened (AC-A-06).
    public func autoSummarize() async -> Bool {
        await MainActor.run { settings.autoSummarize }
    }

    public func setAutoSummarize(_ on: Bool) async {
        await MainActor.run { settings.autoSummarize = on }
    }

    // MARK: Remote images

    /// Whether the remote images of a message from `sender` may load; `asked`: the user asked
    /// for this message's.
    public func remoteImagesAllowed(from sender: String, asked: Bool) async -> Bool {
        let (policy, trusted) = await MainActor.run { (settings.remoteImages, settings.allowsImages(from: sender)) }
        switch policy {
        case .never: return false
        case .ask: return asked || trusted
        case .knownSenders:
            if asked || trusted { return true }
            return await contacts?.wroteTo(sender) ?? false
        }
    }

    /// Shows the remote images of `sender`'s mail from now on ("always for this sender").
    public func allowImages(from sender: String) async {
        await MainActor.run { settings.allowImages(from: sender) }
    }
}
