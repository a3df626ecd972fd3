import Foundation
import VaultMailTesting

/// `vaultmail-bench soak [--seed N] [--faults K]` (issue 34): the fault-injection soak's long
/// form. Prints each step, then the seed, the faults by kind and every invariant; exits 1 when
/// one does not hold.
enum SoakBench {
    static func run(_ arguments: [String]) async throws {
        var seed: UInt64 = 1
        var faults = 100
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            let value = index + 1 < arguments.endIndex ? arguments[index + 1] : nil
            switch argument {
            case "soak": index += 1; continue
            case "--seed":
                guard let value, let number = UInt64(value) else { throw VaultMailTool.Failure(description: "--seed needs a whole number, e.g. --seed 7") }
                seed = number
            case "--faults":
                guard let value, let number = Int(value), number > 0 else { throw VaultMailTool.Failure(description: "--faults needs a positive whole number, e.g. --faults 100") }
                faults = number
            default:
                throw VaultMailTool.Failure(description: "unknown option '\(argument)'; usage: vaultmail-bench soak [--seed N] [--faults K]")
            }
            index += 2
        }
        let tool = try await VaultMailTool.locate()
        let report = try await FaultSoak(tool: tool.binary, seed: seed, faults: faults, log: { print("# \($0)"); fflush(nil) }).run()
        print(report)
        if !report.holds { throw VaultMailTool.Failure(description: "an invariant does not hold (seed \(seed))") }
    }
}
