import Foundation

/// Hands each event to every open page. The daemon publishes new mail and connection trouble;
/// the store's change feed publishes every committed change.
public actor WebEventHub {
    private var subscribers: [UUID: AsyncStream<WebEvent>.Continuation] = [:]
    /// Account name → what is wrong with its connection, in a person's words; empty when
    /// every server answers.
    private var problems: [String: String] = [:]
    /// Account name → the technical detail behind `problems` (shown on demand).
    private var details: [String: String] = [:]
    /// Set on shutdown: streams end, and new ones end at once.
    private var finished = false

    public init() {}

    public func publish(_ event: WebEvent) {
        for continuation in subscribers.values { continuation.yield(event) }
    }

    /// The daemon's word on an account's connection: `problem` (a person's words, issue 29) nil
    /// when it works again; `detail` the technical detail behind it.
    public func setConnectionProblem(_ problem: String?, detail: String? = nil, account: String) {
        guard problems[account] != problem || details[account] != (problem == nil ? nil : detail) else { return }
        problems[account] = problem
        details[account] = problem == nil ? nil : detail
        publish(.connection(problem: connectionProblem, detail: connectionDetail))
    }

    /// The technical detail behind `connectionProblem`, one account a line; nil when none.
    public var connectionDetail: String? {
        guard !details.isEmpty else { return nil }
        return details.keys.sorted().map { "\($0): \(details[$0]!)" }.joined(separator: "\n")
    }

    /// What is wrong with the account `name`'s connection now, if anything.
    public func connectionProblem(account name: String) -> String? { problems[name] }

    /// What the offline indicator says now; nil when every account's server answers.
    public var connectionProblem: String? {
        guard !problems.isEmpty else { return nil }
        return problems.keys.sorted().map { "\($0): \(problems[$0]!)" }.joined(separator: "; ")
    }

    /// Events from now on, until the caller stops listening.
    public func subscribe() -> AsyncStream<WebEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: WebEvent.self, bufferingPolicy: .bufferingNewest(64))
        guard !finished else {
            continuation.finish()
            return stream
        }
        let id = UUID()
        subscribers[id] = continuation
        continuation.onTermination = { _ in Task { await self.unsubscribe(id) } }
        return stream
    }

    /// Ends every stream (the app is shutting down).
    public func finishAll() {
        finished = true
        for continuation in subscribers.values { continuation.finish() }
        subscribers = [:]
    }

    private func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }
}
