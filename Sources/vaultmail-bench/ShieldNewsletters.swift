import Foundation
import VaultMailCore
import VaultMailMIME
import VaultMailWeb

/// `vaultmail-bench shield-newsletters --mbox PATH`: the tracker shield over real newsletters
/// (issue 30), e.g. The Markup's Gmail experiment (448 political and advocacy newsletters of
/// October 2019 sent through the mass-mail services of the day; docs/privacy.md). For each
/// message with an HTML body, sanitized with images allowed as the frame is: the remote images
/// and CSS fetches it had, what the shield removed (by kind: listed, invisible, beacon) and kept,
/// the links cleaned, and the time the shield adds (median of 5, with and without). The data is
/// read from the path given, never kept in the repository.
enum ShieldNewsletters {
    static func run(_ arguments: [String]) async throws {
        guard let index = arguments.firstIndex(of: "--mbox"), index + 1 < arguments.count else {
            throw ShieldBenchmarks.BenchFailure(description: "usage: vaultmail-bench shield-newsletters --mbox PATH")
        }
        let path = arguments[index + 1]
        let shield = TrackerShield.load()
        guard case .on(let version, _, let filters, _) = shield.status else {
            throw ShieldBenchmarks.BenchFailure(description: "the tracker lists are not installed: scripts/install-deps.sh")
        }
        let raw = try CategoryEvaluationBench.mboxMessages(path)
        let parser = GMimeMessageParser()
        let htmls = raw.compactMap { parser.parse($0).textHTML }
        print("# shield-newsletters: \(URL(fileURLWithPath: path).lastPathComponent), \(raw.count) messages, \(htmls.count) with HTML; uBlock Origin \(version) lists, \(filters) filters")

        let sanitizer = HTMLSanitizer()
        let plain = HTMLSanitizer.Options(allowRemoteImages: true)
        let shielded = HTMLSanitizer.Options(allowRemoteImages: true, shield: shield)
        var added: [Double] = [], perMessage: [Int] = [], keptImages: [Int] = [], remoteBefore: [Int] = []
        var byKind: [TrackerFinding.Kind: Int] = [:], messagesByKind: [TrackerFinding.Kind: Int] = [:]
        var pixelMessages = 0, pixelMessagesListed = 0
        for html in htmls {
            let without = await Measure.medianMillis(runs: 5) { _ = sanitizer.sanitize(html, options: plain) }
            let with = await Measure.medianMillis(runs: 5) { _ = sanitizer.sanitize(html, options: shielded) }
            added.append(max(0, with - without))
            let result = sanitizer.sanitize(html, options: shielded)
            let unshielded = sanitizer.sanitize(html, options: plain)
            remoteBefore.append(unshielded.html.matches(of: /<img src="https?:/).count)
            keptImages.append(result.html.matches(of: /<img src="https?:/).count)
            let fetches = result.trackers.filter { $0.kind != .trackingParameters && $0.kind != .clickRedirect }
            perMessage.append(fetches.count)
            for kind in Set(result.trackers.map(\.kind)) { messagesByKind[kind, default: 0] += 1 }
            for finding in result.trackers { byKind[finding.kind, default: 0] += 1 }
            // An open pixel: an invisible image or a beacon-shaped one, or a listed image.
            if !fetches.isEmpty {
                pixelMessages += 1
                if fetches.contains(where: { $0.kind == .listedTracker }) { pixelMessagesListed += 1 }
            }
        }
        let n = htmls.count
        func share(_ count: Int) -> Double { n == 0 ? .nan : Double(count) / Double(n) * 100 }
        Measure.report("shield-newsletters-with-tracking-fetches", share(pixelMessages), "%", n: n)
        Measure.report("shield-newsletters-with-listed-tracker", share(pixelMessagesListed), "%", n: n)
        Measure.report("shield-newsletters-tracking-fetches-per-message", Measure.median(perMessage.map(Double.init)), "median", n: n)
        Measure.report("shield-newsletters-tracking-fetches-mean", Double(perMessage.reduce(0, +)) / Double(max(n, 1)), "mean", n: n)
        for kind in TrackerFinding.Kind.allCases {
            Measure.report("shield-newsletters-\(kind.rawValue)", Double(byKind[kind] ?? 0), "found", n: n)
            Measure.report("shield-newsletters-\(kind.rawValue)-messages", Double(messagesByKind[kind] ?? 0), "messages", n: n)
        }
        Measure.report("shield-newsletters-remote-images-before", Double(remoteBefore.reduce(0, +)), "images", n: n)
        Measure.report("shield-newsletters-remote-images-kept", Double(keptImages.reduce(0, +)), "images", n: n)
        Measure.report("shield-newsletters-added-median", Measure.median(added), "ms", n: n)
        Measure.report("shield-newsletters-added-worst", added.max() ?? .nan, "ms", n: n)
    }
}
