import Foundation
import Testing
import VaultMailTesting

/// The fault-injection soak's short form (issue 34): two seeds of ten faults each against
/// real Dovecot, the SMTP server and a private bus, with the daemon running and the tool acting
/// and sending (`FaultSoak`; the long form is `vaultmail-bench soak --seed N --faults K`).
/// Afterwards nothing is lost, doubled or left half-done, and the report names what broke.
@Suite("Fault-injection soak, short form (issue 34)", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["VAULTMAIL_PROOF_TESTS"] == "1",
                    "not yet reliable on a loaded 2-core machine, so not in `make test` yet: `make proof` runs it (docs/robustness.md)"))
struct FaultSoakTests {
    @Test("Issue 34: through ten seeded faults, every server message is in the store once with its flags, every action reported done is on the server, every accepted send arrived once, nothing is announced twice, the store is intact",
          .timeLimit(.minutes(8)), arguments: [UInt64(11), 12])
    func soak(seed: UInt64) async throws {
        let report = try await FaultSoak(tool: EndToEndWorld.binary, seed: seed, faults: 10).run()
        #expect(report.faults.values.reduce(0, +) == 10)
        #expect(report.holds, "\(report)")
    }
}
