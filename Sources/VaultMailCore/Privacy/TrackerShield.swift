import Foundation

/// The tracker shield (issue 30): decides, for each remote resource of a mail and each link,
/// what a tracker is, so that images can be shown without the spies. The one rule; the
/// sanitizer of the web app asks it for every URL it meets and writes what it decides.
///
/// - **An image** fetched from the network is removed when the packaged lists name its host or
///   path (`TrackerRules`), when nobody can see it (`ImageFacts.isInvisible`: 2 px or less, or
///   hidden by CSS) or when its address is shaped like an open beacon (`isBeaconPath`). Any other
///   remote image (a logo, a product photo, a chart: "unknown" to the lists) is kept, and loads
///   when the user lets the message's images in.
/// - **A CSS `url()`** (a background) is removed when the lists name it or it is beacon-shaped
///   (its size is not known).
/// - **A link** loses its tracking parameters (the lists' `$removeparam` names and
///   `builtInParameters`), and a click-tracking redirect that carries its destination in a
///   parameter (`redirectParameters`) is replaced by that destination.
///
/// The lists are EasyPrivacy and uBlock filters – Privacy from Debian's uBlock Origin package:
/// the copy VaultMail's package ships, or the user's own `webext-ublock-origin-*` when it is
/// newer (`load(directories:)`), read when the daemon starts; never fetched from the network.
public struct TrackerShield: Sendable {
    /// Whether the packaged lists were read.
    public enum Status: Sendable, Equatable {
        /// The lists were read: their package's version, the files, how many filters and
        /// parameter names they gave.
        case on(version: String, files: [String], filters: Int, parameters: Int)
        /// The lists could not be read (why, and what to do): only the shield's own rules apply
        /// (invisible images, beacon-shaped addresses, the built-in tracking parameters, redirects).
        case listsMissing(String)
    }

    public let status: Status
    let rules: TrackerRules

    /// Where Debian's `webext-ublock-origin-chromium` installs uBlock Origin.
    public static let chromiumPackageDirectory = "/usr/share/chromium/extensions/ublock-origin"
    /// Where Debian's `webext-ublock-origin-firefox` installs it.
    public static let firefoxPackageDirectory = "/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/uBlock0@raymondhill.net"
    /// The copy VaultMail's own package ships, beside the tool (`bin/../share/vaultmail/tracker-lists`,
    /// laid out as the extension is): copied from Debian's package when VaultMail is built
    /// (scripts/stage.sh), so installing VaultMail pulls in no browser extension.
    public static var shippedDirectory: String? {
        guard let tool = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
        return tool.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/vaultmail/tracker-lists").path
    }
    /// Where the lists are looked for: Debian's uBlock Origin packages (kept up to date by apt,
    /// when the user has one), then the copy shipped with VaultMail.
    public static var listDirectories: [String] {
        [chromiumPackageDirectory, firefoxPackageDirectory] + (shippedDirectory.map { [$0] } ?? [])
    }
    /// The lists read from it: EasyPrivacy and uBlock filters – Privacy.
    public static let listFiles = ["assets/thirdparties/easylist/easyprivacy.txt", "assets/ublock/privacy.min.txt"]

    /// A shield over `rules` (read from lists by `FilterListParser`).
    public init(rules: TrackerRules, status: Status) {
        self.rules = rules
        self.status = status
    }

    /// Reads the lists from the newest of `directories` that holds both (by the extension's
    /// version, the first of equals); when none does, a shield with its own rules only, whose
    /// status says what is wrong and what to do.
    public static func load(directories: [String] = listDirectories) -> TrackerShield {
        let complete = directories.filter { directory in
            listFiles.allSatisfy { FileManager.default.isReadableFile(atPath: directory + "/" + $0) }
        }
        let versioned = complete.map { (directory: $0, version: packageVersion($0)) }
        guard let newest = versioned.max(by: { isOlder($0.version, than: $1.version) }) else {
            return TrackerShield(rules: TrackerRules(), status: .listsMissing(
                "The tracker lists cannot be read (EasyPrivacy and uBlock's privacy list were looked for in "
                    + directories.joined(separator: ", ") + "): known trackers are not recognised, "
                    + "only invisible images, open beacons and common tracking parameters are removed. "
                    + "Reinstall VaultMail's package, or install Debian's webext-ublock-origin-firefox or "
                    + "webext-ublock-origin-chromium, and restart the daemon."))
        }
        var rules = TrackerRules()
        var files: [String] = []
        for file in listFiles {
            let path = newest.directory + "/" + file
            FilterListParser.parse(String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self), into: &rules)
            files.append(path)
        }
        return TrackerShield(rules: rules, status: .on(version: newest.version, files: files,
                                                        filters: rules.filterCount, parameters: rules.parameters.count))
    }

    /// Whether version `a` (dotted numbers, as uBlock's manifest writes them) is older than `b`;
    /// "unknown" is older than any.
    static func isOlder(_ a: String, than b: String) -> Bool {
        let numbers = { (version: String) in version.split(separator: ".").map { Int($0) ?? -1 } }
        return numbers(a).lexicographicallyPrecedes(numbers(b))
    }

    /// The version of the packaged extension (its `manifest.json`), which is the lists' version.
    private static func packageVersion(_ directory: String) -> String {
        guard let data = FileManager.default.contents(atPath: directory + "/manifest.json"),
              let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let version = manifest["version"] as? String else { return "unknown" }
        return version
    }

    // MARK: - Images and CSS

    /// The tracker an image fetched from `url` would be, or nil to keep it. `url` is the image's
    /// source as written (only http(s) and protocol-relative URLs are remote; anything else is nil).
    public func image(_ url: String, facts: ImageFacts) -> TrackerFinding? {
        guard let remote = RemoteURL(url) else { return nil }
        if rules.blocks(remote) { return TrackerFinding(host: remote.host, kind: .listedTracker) }
        if facts.isInvisible { return TrackerFinding(host: remote.host, kind: .invisibleImage) }
        if Self.isBeaconPath(remote.path) { return TrackerFinding(host: remote.host, kind: .openBeacon) }
        return nil
    }

    /// The tracker a CSS `url()` fetch would be, or nil to keep it.
    public func styleResource(_ url: String) -> TrackerFinding? {
        guard let remote = RemoteURL(url) else { return nil }
        if rules.blocks(remote) { return TrackerFinding(host: remote.host, kind: .listedTracker) }
        if Self.isBeaconPath(remote.path) { return TrackerFinding(host: remote.host, kind: .openBeacon) }
        return nil
    }

    /// Names an open beacon's address uses as any part of its path (`/track/open/…`, `/wf/open`,
    /// `/e/openpixel/…`), extension aside.
    static let beaconSegments: Set<String> = ["open", "opens", "openpixel", "open-pixel", "trackopen", "track-open", "tracking-pixel",
                                              "trackingpixel", "emailopen", "email-open", "mailopen"]
    /// Names an open beacon's address uses as its last part (`/o.gif`, `/pixel.png`, `/beacon`,
    /// `/1x1.gif`); not elsewhere (`/pixel/phone.jpg` is a photo of a phone).
    static let beaconFiles: Set<String> = ["o", "px", "pixel", "beacon", "1x1", "t", "trk", "track", "tracking", "imp", "impression",
                                           "view", "read", "blank"]
    private static let beaconExtensions: Set<String> = ["", "gif", "png", "jpg", "jpeg", "webp", "bmp", "php", "aspx", "asp", "cgi", "jsp"]

    /// Whether a (lowercased) path is shaped like an open beacon. `blank`, `t` and `view` count
    /// only with an image or script extension (`/t.gif`, `/view.php`), never as a bare word.
    static func isBeaconPath(_ path: Substring) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        for (index, segment) in segments.enumerated() {
            let base: Substring, ext: Substring
            if let dot = segment.lastIndex(of: ".") {
                base = segment[..<dot]
                ext = segment[segment.index(after: dot)...]
            } else {
                base = segment
                ext = ""
            }
            guard beaconExtensions.contains(String(ext)) else { continue }
            if beaconSegments.contains(String(base)) { return true }
            if index == segments.count - 1, beaconFiles.contains(String(base)), !ext.isEmpty || !["blank", "t", "view", "read"].contains(base) {
                return true
            }
        }
        return false
    }
}
