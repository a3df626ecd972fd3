import Foundation

/// Pairwise agreement of a threading with a reference one (issue 17's measure): of the pairs
/// of messages we put in one conversation, how many the reference also joins (precision), and
/// of the pairs the reference joins, how many we join (recall). Only messages of the reference
/// count; one of them we do not have is a conversation of its own.
struct PairwiseThreadScore: CustomStringConvertible {
    var messages = 0
    /// Pairs joined by both, by us, by the reference.
    var bothPairs = 0
    var ourPairs = 0
    var referencePairs = 0

    /// 1 when we join no pair.
    var precision: Double { ourPairs == 0 ? 1 : Double(bothPairs) / Double(ourPairs) }
    /// 1 when the reference joins no pair.
    var recall: Double { referencePairs == 0 ? 1 : Double(bothPairs) / Double(referencePairs) }

    /// `ours` and `reference`: a conversation key per message id.
    init(ours: [String: String], reference: [String: String]) {
        func pairs(_ n: Int) -> Int { n * (n - 1) / 2 }
        var ourSizes: [String: Int] = [:]
        var referenceSizes: [String: Int] = [:]
        var cells: [String: Int] = [:]
        for (message, theirs) in reference {
            let mine = ours[message] ?? "\u{1F}alone\u{1F}" + message
            ourSizes[mine, default: 0] += 1
            referenceSizes[theirs, default: 0] += 1
            cells[mine + "\u{1F}" + theirs, default: 0] += 1
        }
        messages = reference.count
        bothPairs = cells.values.map(pairs).reduce(0, +)
        ourPairs = ourSizes.values.map(pairs).reduce(0, +)
        referencePairs = referenceSizes.values.map(pairs).reduce(0, +)
    }

    var description: String {
        String(
            format: "%d messages: precision %.2f%% (%d/%d pairs), recall %.2f%% (%d/%d pairs)",
            messages, precision * 100, bothPairs, ourPairs, recall * 100, bothPairs, referencePairs)
    }
}
