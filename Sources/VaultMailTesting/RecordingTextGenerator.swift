import Foundation
import VaultMailCore

/// A generator that passes requests to another and keeps what went through it: the requests
/// (what the use cases asked) and the last text written (what the model wrote before the use
/// cases' checks). Tests and the benchmark read both.
public final class RecordingTextGenerator: TextGenerator, @unchecked Sendable {
    // @unchecked: `recorded` and `written` are only touched under `lock`.
    private let inner: any TextGenerator
    private let lock = NSLock()
    private var recorded: [GenerationRequest] = []
    private var written = ""

    public init(_ inner: any TextGenerator) {
        self.inner = inner
    }

    public var modelId: String { inner.modelId }

    public func isAvailable() async -> Bool { await inner.isAvailable() }

    public func generate(_ request: GenerationRequest) -> AsyncThrowingStream<String, any Error> {
        lock.withLock {
            recorded.append(request)
            written = ""
        }
        let stream = inner.generate(request)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await piece in stream {
                        self.lock.withLock { self.written += piece }
                        continuation.yield(piece)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The requests so far, oldest first.
    public var requests: [GenerationRequest] { lock.withLock { recorded } }

    /// The requests since `count` were recorded.
    public func requests(since count: Int) -> [GenerationRequest] { lock.withLock { Array(recorded.dropFirst(count)) } }

    /// The text of the last generation, nil before any.
    public var lastWritten: String? { lock.withLock { written.isEmpty ? nil : written } }
}
