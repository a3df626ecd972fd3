/// What "Test connection" found, step by step (IMAP connect and certificate, IMAP login, SMTP
/// connect and certificate, SMTP login): each step's outcome in words, the first failure
/// saying what to do.
public struct ConnectionCheck: Sendable, Hashable {
    public struct Step: Sendable, Hashable {
        public var name: String
        public var passed: Bool
        public var detail: String

        public init(name: String, passed: Bool, detail: String) {
            self.name = name
            self.passed = passed
            self.detail = detail
        }
    }

    public var steps: [Step]

    public init(steps: [Step]) {
        self.steps = steps
    }

    public var passed: Bool { !steps.isEmpty && steps.allSatisfy(\.passed) }
    /// The first step that failed.
    public var failure: Step? { steps.first { !$0.passed } }
}
