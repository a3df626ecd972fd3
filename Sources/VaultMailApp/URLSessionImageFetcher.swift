import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import VaultMailCore

/// `RemoteImageFetcher` over URLSession (libcurl): an ephemeral session that sends and keeps no
/// cookies, has no cache of its own (`RemoteImageCache` is the cache), sends no `Referer`, a
/// `User-Agent` every VaultMail shares and the same `Accept`, follows no redirect (its delegate
/// declines each, so `RemoteImages` sees the 3xx and decides), and stops reading a body at
/// `maxBytes` (a huge "image" is cut off, not held in memory). libcurl honours the daemon's
/// `http_proxy`/`https_proxy` environment.
public struct URLSessionImageFetcher: RemoteImageFetcher {
    /// The same for every VaultMail: it tells a server nothing about this machine's browser.
    public static let userAgent = "Mozilla/5.0"
    private let session: URLSession
    private let transfers: Transfers
    private let timeout: TimeInterval

    public init(timeout: TimeInterval = 20) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        transfers = Transfers()
        session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
        self.timeout = timeout
    }

    public func fetch(_ url: URL, maxBytes: Int) async throws -> RemoteImageResponse {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue(Self.userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8", forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request)
        let outcome = await withCheckedContinuation { continuation in
            transfers.begin(task.taskIdentifier, maxBytes: maxBytes, continuation: continuation)
            task.resume()
        }
        let host = url.host ?? ""
        switch outcome {
        case .tooLarge:
            throw RemoteImageError.tooLarge(limit: maxBytes)
        case .failed(let code):
            throw RemoteImageError.unreachable(host: host, reason: Self.words(code))
        case .done(let response, let body):
            let type = (response.value(forHTTPHeaderField: "Content-Type") ?? "")
                .split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            return RemoteImageResponse(status: response.statusCode, location: response.value(forHTTPHeaderField: "Location"),
                                       contentType: type, body: body)
        }
    }

    /// Why a fetch failed, in a few words (never the URL).
    static func words(_ code: URLError.Code?) -> String {
        switch code {
        case .timedOut: "it did not answer in time"
        case .cannotFindHost, .dnsLookupFailed: "its name is not known"
        case .cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet: "no connection"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
             .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            "its certificate is not trusted"
        default: "the transfer failed"
        }
    }
}

/// How one transfer ended.
private enum TransferOutcome: Sendable {
    case done(HTTPURLResponse, Data)
    case tooLarge
    case failed(URLError.Code?)
}

/// The session's delegate: collects each task's body up to its limit and declines redirects.
private final class Transfers: NSObject, URLSessionDataDelegate, Sendable {
    private struct Transfer {
        var maxBytes: Int
        var body = Data()
        var tooLarge = false
        var continuation: CheckedContinuation<TransferOutcome, Never>
    }

    private let transfers = Mutex<[Int: Transfer]>([:])

    func begin(_ id: Int, maxBytes: Int, continuation: CheckedContinuation<TransferOutcome, Never>) {
        transfers.withLock { $0[id] = Transfer(maxBytes: maxBytes, continuation: continuation) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let tooLarge = transfers.withLock { transfers -> Bool in
            guard let limit = transfers[dataTask.taskIdentifier]?.maxBytes, response.expectedContentLength > Int64(limit) else { return false }
            transfers[dataTask.taskIdentifier]?.tooLarge = true
            return true
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let stop = transfers.withLock { transfers -> Bool in
            guard var transfer = transfers[dataTask.taskIdentifier] else { return false }
            transfer.body.append(data)
            if transfer.body.count > transfer.maxBytes {
                transfer.tooLarge = true
                transfer.body = Data()
            }
            transfers[dataTask.taskIdentifier] = transfer
            return transfer.tooLarge
        }
        if stop { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if transfer.tooLarge {
            transfer.continuation.resume(returning: .tooLarge)
        } else if let response = task.response as? HTTPURLResponse, error == nil {
            transfer.continuation.resume(returning: .done(response, transfer.body))
        } else {
            transfer.continuation.resume(returning: .failed((error as? URLError)?.code))
        }
    }
}
