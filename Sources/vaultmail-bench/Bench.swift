import Foundation

/// `vaultmail-bench <suite>…`: prints `<figure> <median> <unit> n=<corpus size>` per line.
@main
struct Bench {
    static let suites: [String: @Sendable () async throws -> Void] = [
        "store": StoreBenchmarks.run,
        "notifications": { try await NotificationBenchmarks.run() },
        "desktop": { try await DesktopBenchmarks.run() },
        "sync": { try await SyncBenchmarks.run() },
        "freshness": { try await FreshnessBenchmarks.run() },
        "send": SendBenchmarks.run,
        "e2e": { try await E2EBenchmarks.run() },
        "web": { try await WebBenchmarks.run() },
        "web-shield": { try await ShieldBenchmarks.run() },
        "search": { try await SearchBenchmarks.run() },
        "ai": { try await AIBenchmarks.run() },
        "generation": { try await GenerationBenchmarks.run() },
        "cpu": { try await ProcessorBenchmarks.run() },
        "writing": { try await WritingProcessBenchmarks.run() },
    ]

    static func main() async {
        let requested = Array(CommandLine.arguments.dropFirst())
        if requested.isEmpty || requested.contains("--help") || requested.contains("-h") {
            print("usage: vaultmail-bench <suite>...   suites: \(suites.keys.sorted().joined(separator: ", "))")
            print("output: one line per figure: <figure> <median> <unit> n=<corpus size>")
            exit(requested.isEmpty ? 2 : 0)
        }
        // The child process of the `cpu` suite: `cpu-probe TEXTS EMBEDDINGS FIRST_TOKENS`.
        if requested.first == "cpu-probe" {
            do {
                try await ProcessorBenchmarks.probe()
                exit(0)
            } catch {
                FileHandle.standardError.write(Data("vaultmail-bench: cpu-probe failed: \(error)\n".utf8))
                exit(1)
            }
        }
        if requested.first == "eval-search" { await SearchEvaluation.main(Array(requested.dropFirst())) }
        if requested.first == "search-agree" { await SearchAgreement.main(Array(requested.dropFirst())) }
        if requested.first == "eval-categories" { await evaluation(CategoryEvaluationBench.run, Array(requested.dropFirst())) }
        // Evaluations on third-party data read from paths given after the subcommand (issue 35).
        if requested.first == "eval-summaries" { await evaluation(SummaryEvaluation.run, requested) }
        if requested.first == "shield-newsletters" { await evaluation(ShieldNewsletters.run, requested) }
        // The fault-injection soak (issue 34): `soak --seed N --faults K`.
        if requested.first == "soak" { await evaluation(SoakBench.run, requested) }
        // "--lists PATH" is an option of the ai and writing suites, not a suite.
        for (position, name) in requested.enumerated() where !name.hasPrefix("--") && (position == 0 || requested[position - 1] != "--lists") {
            guard let suite = suites[name] else {
                FileHandle.standardError.write(Data("vaultmail-bench: unknown suite '\(name)'; known: \(suites.keys.sorted().joined(separator: ", "))\n".utf8))
                exit(2)
            }
            do {
                try await suite()
            } catch {
                FileHandle.standardError.write(Data("vaultmail-bench: suite '\(name)' failed: \(error)\n".utf8))
                exit(1)
            }
        }
    }
}

extension Bench {
    /// Runs an evaluation subcommand and exits: 0 when it finished, 1 with its error.
    static func evaluation(_ run: @Sendable ([String]) async throws -> Void, _ arguments: [String]) async -> Never {
        do {
            try await run(arguments)
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("vaultmail-bench: \(CommandLine.arguments.dropFirst().first ?? "") failed: \(error)\n".utf8))
            exit(1)
        }
    }
}

/// Timing helpers: medians of repeated runs on a monotonic clock.
enum Measure {
    /// Median duration in milliseconds of `runs` calls of `body`, after one warm-up call.
    static func medianMillis(runs: Int, _ body: () async throws -> Void) async rethrows -> Double {
        try await body()
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        let clock = ContinuousClock()
        for _ in 0..<runs {
            samples.append(try await clock.measure { try await body() }.millis)
        }
        return median(samples)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let mid = sorted.count / 2
        return sorted.count % 2 == 0 ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[mid]
    }

    static func report(_ figure: String, _ value: Double, _ unit: String, n: Int) {
        let formatted = value >= 100 ? String(format: "%.0f", value) : String(format: "%.4g", value)
        print("\(figure) \(formatted) \(unit) n=\(n)")
        fflush(nil)
    }
}
