import Foundation

/// Recipient suggestions as the user types (AC-U-09): people from the user's own mail, the
/// ones written to most often and most lately first, then those who wrote to the user.
///
/// The list is read from the `ContactSource` once and kept in memory, with each person's
/// words folded (case and accents) and ranked once, so a suggestion is a scan of a sorted
/// array that stops at `limit` matches: milliseconds over 10,000 people. It is read again
/// (in the background, the old list answering meanwhile) when `invalidate()` was called or it
/// is older than `maximumAge`.
public actor ContactDirectory {
    struct Entry: Sendable {
        let contact: Contact
        /// Folded words a query may start: name words, the whole address, its local part, its domain labels.
        let keys: [String]
        let score: Double
    }

    private let source: any ContactSource
    private let clock: any WallClock
    private let maximumAge: TimeInterval
    private var entries: [Entry]?
    /// The addresses the user has written to, lowercased.
    private var writtenTo: Set<String> = []
    private var loadedAt: Date?
    private var stale = false
    private var loading: Task<[Entry], Never>?
    private var pendingReload: Task<Void, Never>?

    public init(source: any ContactSource, clock: any WallClock = SystemWallClock(), maximumAge: TimeInterval = 300) {
        self.source = source
        self.clock = clock
        self.maximumAge = maximumAge
    }

    /// Up to `limit` people whose name or address has a word starting with `query` (every
    /// word of the query must start one), best first. Empty for an empty query.
    public func suggestions(for query: String, limit: Int = 8) async -> [Contact] {
        let words = Self.fold(query).split(whereSeparator: { $0 == " " || $0 == "," || $0 == "<" || $0 == ">" }).map(String.init)
        guard !words.isEmpty, limit > 0 else { return [] }
        let entries = await current()
        var found: [Contact] = []
        for entry in entries where words.allSatisfy({ word in entry.keys.contains { $0.hasPrefix(word) } }) {
            found.append(entry.contact)
            if found.count == limit { break }
        }
        return found
    }

    /// True when the user has written to `address`.
    public func wroteTo(_ address: String) async -> Bool {
        _ = await current()
        return writtenTo.contains(address.lowercased())
    }

    /// How many people the directory holds (loading them if needed).
    public func count() async -> Int { await current().count }

    /// The mail changed (a sync, a message sent): the people are read again once the changes
    /// pause for a second (a sync's many commits cause one read); until then suggestions come
    /// from the list before, unless it knew no one.
    public func invalidate() {
        stale = true
        pendingReload?.cancel()
        pendingReload = Task { [weak self] in
            do { try await Task.sleep(for: .seconds(1)) } catch { return }
            _ = await self?.current()
        }
    }

    private func current() async -> [Entry] {
        let now = clock.now
        let old = loadedAt.map { now.timeIntervalSince($0) > maximumAge } ?? true
        if let entries, !(stale || old) { return entries }
        if loading == nil {
            stale = false
            let source = self.source
            loading = Task { Self.rank((try? await source.contacts()) ?? [], now: now) }
        }
        if let entries, !entries.isEmpty { refreshInBackground(); return entries }
        return await finishLoading()
    }

    private func refreshInBackground() {
        Task { _ = await finishLoading() }
    }

    private func finishLoading() async -> [Entry] {
        guard let loading else { return entries ?? [] }
        let fresh = await loading.value
        if self.loading == loading {
            self.loading = nil
            entries = fresh
            writtenTo = Set(fresh.filter { $0.contact.sentCount > 0 }.map { $0.contact.email.lowercased() })
            loadedAt = clock.now
        }
        return entries ?? fresh
    }

    /// Best first: written to often and lately (a message sent this week counts about ten
    /// times one received), ties by address.
    /// Robots and newsletters are left out unless the user wrote to them (`isSuggestible`).
    static func rank(_ contacts: [Contact], now: Date) -> [Entry] {
        contacts.filter(isSuggestible).map { contact in
            let sent = Double(contact.sentCount) * recency(contact.lastSent, now: now)
            let received = Double(contact.receivedCount) * recency(contact.lastReceived, now: now)
            return Entry(contact: contact, keys: keys(contact), score: 10 * sent + received)
        }
        .sorted { $0.score != $1.score ? $0.score > $1.score : $0.contact.email < $1.contact.email }
    }

    /// Someone the user wrote to always; otherwise not a robot's address (no-reply senders,
    /// bounce daemons) and not a sender whose mail is mostly bulk (newsletters, notifications,
    /// list mail: sorted out of Primary by their List-Unsubscribe, Precedence and the like).
    static func isSuggestible(_ contact: Contact) -> Bool {
        if contact.sentCount > 0 { return true }
        if isRobot(contact.email) { return false }
        return contact.receivedCount == 0 || contact.bulkCount * 2 < contact.receivedCount
    }

    static func isRobot(_ address: String) -> Bool {
        let local = fold(address.split(separator: "@").first.map(String.init) ?? "").filter { $0.isLetter }
        return ["noreply", "donotreply", "mailerdaemon", "postmaster", "bounce", "bounces"].contains { local.hasPrefix($0) || local == $0 }
    }

    /// 1 today, ½ a month ago, ⅓ two months ago.
    static func recency(_ date: Date?, now: Date) -> Double {
        guard let date else { return 0 }
        let days = max(0, now.timeIntervalSince(date) / 86_400)
        return 1 / (1 + days / 30)
    }

    static func keys(_ contact: Contact) -> [String] {
        let address = fold(contact.email)
        var keys = [address]
        if let at = address.firstIndex(of: "@") {
            let local = address[..<at]
            keys.append(contentsOf: local.split(whereSeparator: { ".-_+".contains($0) }).map(String.init))
            keys.append(contentsOf: address[address.index(after: at)...].split(separator: ".").map(String.init))
        }
        if let name = contact.name {
            keys.append(contentsOf: fold(name).split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init))
        }
        return keys
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
