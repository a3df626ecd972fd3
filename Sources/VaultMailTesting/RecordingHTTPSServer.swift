import Foundation

/// A local HTTPS (or plain HTTP) server that records every request exactly as it arrived
/// (method, target, headers in order, body), for the one-click unsubscribe tests (issue 33) and
/// the image proxy's (issue 30): a Python script (`scripts/test-http-recorder.py`, standard
/// library only) on 127.0.0.1 presenting the server certificate of `TestCertificates` (trust
/// `caFile`), or plain HTTP serving `files`, also as an HTTP proxy (a request for
/// `http://any.host/path` is answered by its path). A path answers as `statuses` says (e.g.
/// `"/moved": (302, "https://127.0.0.1:1/next")`), else with its file, else 200 over TLS and 404
/// over plain HTTP.
public final class RecordingHTTPSServer: Sendable {
    /// One request as it arrived.
    public struct Request: Sendable, Hashable {
        public var method: String
        /// The request target: path and query as sent.
        public var target: String
        public var version: String
        /// Header fields in the order sent, names as written.
        public var headers: [[String]]
        public var body: Data

        /// The value of the first field named `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            headers.first { $0.first?.lowercased() == name.lowercased() }?.last
        }

        /// The field names, lowercased, in order.
        public var headerNames: [String] { headers.compactMap { $0.first?.lowercased() } }
    }

    public static let scriptPath: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/test-http-recorder.py").path

    public let port: Int
    /// The TLS certificates (nil for plain HTTP).
    public let certificates: TestCertificates?
    public var caFile: String { certificates?.caFile ?? "" }
    private let process: ChildProcess
    private let directory: URL

    /// `https://127.0.0.1:PORT` + `path`.
    public func url(_ path: String) -> URL { URL(string: "https://127.0.0.1:\(port)\(path)")! }

    /// Starts an HTTPS server with fresh certificates (or `certificates`).
    public convenience init(statuses: [String: (Int, String?)] = [:], certificates: TestCertificates? = nil) async throws {
        try await self.init(tls: true, statuses: statuses, files: [:], certificates: certificates)
    }

    /// Starts a plain HTTP server serving `files` (by path: bytes and content type), on `host`.
    public convenience init(plainFiles files: [String: (Data, String)], statuses: [String: (Int, String?)] = [:],
                            host: String = "127.0.0.1") async throws {
        try await self.init(tls: false, statuses: statuses, files: files, certificates: nil, host: host)
    }

    private init(tls: Bool, statuses: [String: (Int, String?)], files: [String: (Data, String)], certificates: TestCertificates?,
                 host: String = "127.0.0.1") async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-https-\(UUID().uuidString)")
        let dir = directory
        var arguments = [Self.scriptPath, "--host", host]
        if tls {
            let certs: TestCertificates
            if let certificates { certs = certificates } else {
                certs = try await BlockingWork.run { try TestCertificates.make(in: dir.appendingPathComponent("tls")) }
            }
            self.certificates = certs
            arguments += ["--cert", certs.serverCertificate, "--key", certs.serverKey]
        } else {
            self.certificates = nil
            arguments.append("--plain")
        }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("files"), withIntermediateDirectories: true)
        for (index, (path, (data, type))) in files.sorted(by: { $0.key < $1.key }).enumerated() {
            let file = dir.appendingPathComponent("files/\(index)")
            try data.write(to: file)
            arguments += ["--file", "\(path)=\(file.path):\(type)"]
        }
        for (path, (status, location)) in statuses.sorted(by: { $0.key < $1.key }) {
            arguments += ["--status", "\(path)=\(status)" + (location.map { ":" + $0 } ?? "")]
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        process = try ChildProcess("/usr/bin/python3", arguments, environment: environment)
        do {
            let (line, _) = try await process.waitForLine(timeout: .seconds(60)) { $0.contains("\"ready\"") }
            let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard let port = event?["port"] as? Int else { throw ChildProcess.Failure(description: "no port in \(line)") }
            self.port = port
        } catch {
            process.stop()
            try? FileManager.default.removeItem(at: dir)
            throw error
        }
    }

    deinit {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    public func stop() { process.stop() }

    /// Every request so far, in order.
    public var requests: [Request] {
        process.lines.compactMap { line -> Request? in
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  event["event"] as? String == "request" else { return nil }
            return Request(
                method: event["method"] as? String ?? "", target: event["target"] as? String ?? "",
                version: event["version"] as? String ?? "", headers: event["headers"] as? [[String]] ?? [],
                body: Data(base64Encoded: event["body"] as? String ?? "") ?? Data())
        }
    }

    /// How many TLS handshakes failed (a client that did not trust the certificate).
    public var failedHandshakes: Int { process.lines.filter { $0.contains("\"tls-failed\"") }.count }

    /// Waits until `count` requests have arrived and returns them.
    public func waitForRequests(count: Int, timeout: Duration = .seconds(30)) async throws -> [Request] {
        try await waitUntil("\(count) request(s) to the recording HTTPS server", timeout: timeout) { requests.count >= count }
        return requests
    }
}
