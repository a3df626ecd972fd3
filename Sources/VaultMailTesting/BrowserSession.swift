import Foundation

/// A real headless Chromium, driven through WebDriver by `browser_driver.py` (Debian's
/// chromium, chromium-driver and python3-selenium): one JSON command per line, one answer per
/// line. The browser reaches loopback only. Stopped, with its browser, by `stop()` or deinit.
public final class BrowserSession: @unchecked Sendable {
    // @unchecked: `answered` is only touched by the one test task that drives the session.
    private let process: ChildProcess
    private var answered = 0

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts the browser with a viewport (the page's innerWidth × innerHeight) of `width` × `height`.
    /// `language`: the browser's language (its interface and `Accept-Language`), a BCP 47 tag.
    /// `loopbackHosts`: host names that resolve to 127.0.0.1 (a test's server standing in for
    /// remote ones, `http://cdn.shop.test:PORT/…`); every other name still resolves nowhere.
    /// `inside`: a command prefix the driver (and so the browser) runs under, e.g. `ip netns exec NAME`.
    public static func start(driver: String, width: Int = 1280, height: Int = 800, language: String = "en-US",
                             loopbackHosts: [String] = [], inside prefix: [String] = []) async throws -> BrowserSession {
        // A driver that is gone makes a write fail with EPIPE instead of killing the test run.
        signal(SIGPIPE, SIG_IGN)
        let command = prefix + ["/usr/bin/python3", driver, "\(width)", "\(height)", language, loopbackHosts.joined(separator: ",")]
        let session = try BrowserSession(process: ChildProcess(command[0], Array(command.dropFirst())))
        _ = try await session.nextAnswer(timeout: .seconds(120))
        return session
    }

    private init(process: ChildProcess) {
        self.process = process
    }

    deinit { process.stop() }

    /// Quits the browser; calling it again does nothing.
    public func stop() {
        guard process.isRunning else { return }
        try? process.send("{\"cmd\":\"quit\"}")
        process.stop()
    }

    /// Sends a command and returns its answer's value; a command the browser failed throws.
    @discardableResult
    public func call(_ command: [String: Any], timeout: Duration = .seconds(120)) async throws -> Any? {
        let line = String(decoding: try JSONSerialization.data(withJSONObject: command), as: UTF8.self)
        try process.send(line)
        return try await nextAnswer(timeout: timeout)
    }

    private func nextAnswer(timeout: Duration) async throws -> Any? {
        let (line, index) = try await process.waitForLine(from: answered, timeout: timeout) { $0.hasPrefix("{") }
        answered = index + 1
        guard let answer = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw Failure(description: "the browser driver answered \(line)")
        }
        guard answer["ok"] as? Bool == true else {
            throw Failure(description: "the browser failed: \(answer["error"] ?? "?")\n\(answer["trace"] ?? "")")
        }
        return answer["value"] is NSNull ? nil : answer["value"]
    }

    public func get(_ url: String) async throws { try await call(["cmd": "get", "url": url]) }

    public var url: String { get async throws { try await call(["cmd": "url"]) as? String ?? "" } }

    /// Runs `script` (a function body: `return …`) in the page.
    @discardableResult
    public func js(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
        try await call(["cmd": "js", "script": script, "args": arguments])
    }

    public func string(_ script: String) async throws -> String { try await js(script) as? String ?? "" }

    public func number(_ script: String) async throws -> Double { (try await js(script) as? NSNumber)?.doubleValue ?? .nan }

    /// Polls `script` in the page until it returns something true; returns the milliseconds it took.
    @discardableResult
    public func wait(_ script: String, timeout: Double = 30) async throws -> Double {
        let answer = try await call(["cmd": "wait", "script": script, "timeout": timeout], timeout: .seconds(timeout + 60))
        return ((answer as? [String: Any])?["ms"] as? NSNumber)?.doubleValue ?? .nan
    }

    public func click(_ css: String, shift: Bool = false) async throws { try await call(["cmd": "click", "css": css, "shift": shift]) }

    /// Types keys into the focused element: characters, "ENTER", "ESCAPE", "TAB", "SHIFT+I".
    public func keys(_ keys: [String]) async throws { try await call(["cmd": "keys", "keys": keys]) }

    /// axe-core's violations on the page: id, impact, help and the first nodes.
    public func axe(script: String) async throws -> [[String: Any]] {
        let value = try await call(["cmd": "axe", "script": script])
        if let error = (value as? [String: Any])?["error"] { throw Failure(description: "axe failed: \(error)") }
        return value as? [[String: Any]] ?? []
    }

    public func screenshot(_ path: String, width: Int = 1280, height: Int = 800, dark: Bool = false) async throws {
        try await call(["cmd": "screenshot", "path": path, "width": width, "height": height, "dark": dark])
    }

    public func setSize(width: Int, height: Int) async throws { try await call(["cmd": "size", "width": width, "height": height]) }

    /// How many elements `css` selects (works with the page's JavaScript off).
    public func count(_ css: String) async throws -> Int { (try await call(["cmd": "count", "css": css]) as? NSNumber)?.intValue ?? -1 }

    /// Waits until `css` selects a count that satisfies `condition` (after a click that posts a
    /// form and loads the answer: works with the page's JavaScript off); returns the count.
    @discardableResult
    public func waitForCount(_ css: String, timeout: Duration = .seconds(30), _ condition: (Int) -> Bool = { $0 > 0 }) async throws -> Int {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            let found = try await count(css)
            if condition(found) { return found }
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "'\(css)' selected \(found) elements after \(timeout), not what was awaited")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// An attribute of the first element `css` selects (works with the page's JavaScript off).
    public func attribute(_ css: String, _ name: String) async throws -> String? {
        try await call(["cmd": "attribute", "css": css, "name": name]) as? String
    }

    /// The browser console's messages since the last call (CSP violations, script errors).
    public func console() async throws -> [String] { try await call(["cmd": "console"]) as? [String] ?? [] }

    public func cookies() async throws -> [[String: Any]] { try await call(["cmd": "cookies"]) as? [[String: Any]] ?? [] }

    /// Runs `script` inside the frame `css` selects (WebDriver is not bound by its sandbox).
    public func frameJS(_ css: String, _ script: String) async throws -> Any? {
        try await call(["cmd": "frame_js", "css": css, "script": script])
    }

    /// Turns the page's JavaScript off or on (for the progressive-enhancement check).
    public func setJavaScript(_ enabled: Bool) async throws { try await call(["cmd": "javascript", "enabled": enabled]) }
}

/// A local HTTP server that records every request it gets (`python3 -m http.server`), for
/// proving a page fetched nothing from it.
public final class RecordingHTTPServer: @unchecked Sendable {
    // @unchecked: immutable after init; ChildProcess is thread-safe.
    private let process: ChildProcess
    public let port: Int

    /// `files`: what it serves, by path ("images/logo.png"); anything else is answered 404 (and recorded).
    public static func start(files: [String: Data] = [:]) async throws -> RecordingHTTPServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-recorder-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (path, data) in files {
            let file = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
        let process = try ChildProcess("/usr/bin/python3", ["-u", "-m", "http.server", "--bind", "127.0.0.1", "0"], currentDirectory: directory)
        let (line, _) = try await process.waitForLine(timeout: .seconds(30)) { $0.contains(" port ") }
        guard let port = line.firstMatch(of: /port (\d+)/).flatMap({ Int($0.1) }) else {
            throw BrowserSession.Failure(description: "the recording server said '\(line)'")
        }
        return RecordingHTTPServer(process: process, port: port)
    }

    private init(process: ChildProcess, port: Int) {
        self.process = process
        self.port = port
    }

    deinit { process.stop() }

    public func stop() { process.stop() }

    /// The request lines it has logged ("GET /pixel.gif HTTP/1.1").
    public var requests: [String] {
        process.errorOutput.split(separator: "\n").filter { $0.contains("\"GET") || $0.contains("\"POST") || $0.contains("\"HEAD") }.map(String.init)
    }
}
