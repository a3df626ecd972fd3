/// Why the demo could not go on: what failed, with what the failing program said.
struct DemoFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
