import Foundation

/// Runs blocking work (a child process to completion, key generation) on a thread of its
/// own, so it never holds one of the few threads of Swift's cooperative pool (two on the CI
/// machine) or the main actor while other tests wait to run.
public enum BlockingWork {
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try body() })
            }
            thread.name = "vaultmail-test-blocking-work"
            thread.start()
        }
    }
}
