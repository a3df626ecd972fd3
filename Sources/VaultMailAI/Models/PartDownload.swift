import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One file fetched over HTTP or HTTPS into its `.part`, a chunk at a time as it arrives
/// (never the whole file in memory). A `.part` already there is continued with `Range:`;
/// a server that answers 200 instead of 206 sends the whole file, so the part starts over.
/// Task cancellation cancels the request and keeps what arrived.
final class PartDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: `handle`, `written`, `failure` and `started` are touched only on `queue`'s
    // thread (the session's delegate queue is serial) or under `lock` (`task`, `continuation`,
    // `cancelled`); the rest is immutable.

    /// Why a file did not arrive.
    enum Failure: Error {
        /// The server answered with this HTTP status.
        case status(Int, URL)
        /// The server sends more than the catalog's size.
        case tooLarge(URL, expected: Int64)
        /// The transfer stopped (network error, timeout).
        case transport(URL, String)
        /// Writing the part failed.
        case file(ModelFileError)
        case cancelled
    }

    private let url: URL
    private let part: URL
    private let expectedSize: Int64
    private let offset: Int64
    private let progress: @Sendable (Int64) -> Void
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var continuation: CheckedContinuation<Void, any Error>?
    private var cancelled = false
    private var handle: FileHandle?
    private var written: Int64 = 0
    private var failure: Failure?

    private init(url: URL, part: URL, expectedSize: Int64, offset: Int64, progress: @escaping @Sendable (Int64) -> Void) {
        self.url = url
        self.part = part
        self.expectedSize = expectedSize
        self.offset = offset
        self.progress = progress
        written = offset
    }

    /// Fetches `url` into `part` until it holds the whole file (or the server's end of it).
    /// `progress` is told the bytes in the part after each chunk.
    static func fetch(_ url: URL, into part: URL, expectedSize: Int64, timeout: TimeInterval,
                      progress: @escaping @Sendable (Int64) -> Void) async throws(Failure) {
        let offset = ModelFolder.size(of: part) ?? 0
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: timeout)
        if offset > 0 { request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range") }
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.urlCache = nil
        let download = PartDownload(url: url, part: part, expectedSize: expectedSize, offset: offset, progress: progress)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: download, delegateQueue: queue)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    download.start(task, continuation)
                }
            } onCancel: {
                download.cancel()
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .transport(url, "\(error)")
        }
    }

    private func start(_ task: URLSessionDataTask, _ continuation: CheckedContinuation<Void, any Error>) {
        let alreadyCancelled = lock.withLock {
            self.task = task
            self.continuation = continuation
            return cancelled
        }
        if alreadyCancelled {
            finish(.failure(.cancelled))
        } else {
            task.resume()
        }
    }

    private func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }

    /// Resumes the waiting caller once.
    private func finish(_ result: Result<Void, Failure>) {
        let continuation = lock.withLock {
            let continuation = self.continuation
            self.continuation = nil
            return continuation
        }
        continuation?.resume(with: result.mapError { $0 as any Error })
    }

    // MARK: URLSessionDataDelegate (on the session's serial queue)

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 200
        let append: Bool
        switch status {
        case 206 where offset > 0 && contentRangeStart(response) == offset:
            append = true
        case 200:
            append = false  // the whole file: start the part over
        default:
            failure = .status(status, url)
            completionHandler(.cancel)
            return
        }
        let length = response.expectedContentLength
        if length > 0, (append ? offset : 0) + length > expectedSize {
            failure = .tooLarge(url, expected: expectedSize)
            completionHandler(.cancel)
            return
        }
        do {
            if !append || !FileManager.default.fileExists(atPath: part.path) {
                guard FileManager.default.createFile(atPath: part.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                    throw ModelFileError.system("create", part.path)
                }
                written = 0
            }
            let handle = try FileHandle(forWritingTo: part)
            try handle.seekToEnd()
            self.handle = handle
            if !append { progress(0) }
            completionHandler(.allow)
        } catch {
            failure = .file(error as? ModelFileError ?? ModelFileError(action: "write", path: part.path, reason: "\(error)"))
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil, let handle else { return }
        guard written + Int64(data.count) <= expectedSize else {
            failure = .tooLarge(url, expected: expectedSize)
            dataTask.cancel()
            return
        }
        do {
            try handle.write(contentsOf: data)
            written += Int64(data.count)
            progress(written)
        } catch {
            failure = .file(ModelFileError(action: "write", path: part.path, reason: "\(error)"))
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        try? handle?.close()
        handle = nil
        let wasCancelled = lock.withLock { cancelled }
        if let failure {
            finish(.failure(failure))
        } else if wasCancelled {
            finish(.failure(.cancelled))
        } else if let error {
            finish(.failure(.transport(url, Self.describe(error))))
        } else {
            finish(.success(()))
        }
    }

    /// The first byte of a 206's `Content-Range: bytes START-END/TOTAL`.
    private func contentRangeStart(_ response: URLResponse) -> Int64? {
        guard let value = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Range") else { return nil }
        let range = value.drop(while: { !$0.isNumber }).prefix(while: \.isNumber)
        return Int64(range)
    }

    /// A network error in words (URLError's own, without the NSError dress).
    private static func describe(_ error: any Error) -> String {
        if let error = error as? URLError {
            switch error.code {
            case .timedOut: return "the server stopped sending (timed out)"
            case .cannotConnectToHost: return "the server refused the connection"
            case .cannotFindHost, .dnsLookupFailed: return "the server's name could not be found"
            case .notConnectedToInternet: return "this machine is not connected to a network"
            case .networkConnectionLost: return "the connection was lost"
            case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot,
                 .serverCertificateNotYetValid, .secureConnectionFailed:
                return "the secure connection failed (\(error.localizedDescription))"
            default: return error.localizedDescription
            }
        }
        return error.localizedDescription
    }
}
