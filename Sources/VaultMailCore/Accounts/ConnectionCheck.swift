/// What "Test connection" found, step by step (IMAP connect and certificate, IMAP login, SMTP
/// connect and certificate, SMTP login): each step named in a person's words, a failed one with
/// what happened and what to do (`PlainProblem`: the technical detail, host:port and the
/// server's words, apart).
public struct ConnectionCheck: Sendable, Hashable {
    public struct Step: Sendable, Hashable {
        /// "Connect to the incoming mail server (IMAP)": no host:port.
        public var name: String
        /// Why it failed; nil when it passed.
        public var problem: PlainProblem?

        public init(name: String, problem: PlainProblem? = nil) {
            self.name = name
            self.problem = problem
        }

        public var passed: Bool { problem == nil }
    }

    public var steps: [Step]

    public init(steps: [Step]) {
        self.steps = steps
    }

    public var passed: Bool { !steps.isEmpty && steps.allSatisfy(\.passed) }
    /// The first step that failed.
    public var failure: Step? { steps.first { !$0.passed } }
}
