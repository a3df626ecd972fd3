import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Issue 28's contract for what the doors show: the inbox's list and the accounts, read
/// through the `vaultmail` tool and through the web app in Chromium, are the same (both read
/// Core's `Mailboxes` and `Accounts`, not a repository of their own).
@Suite("Contract: a list and the accounts read the same through the tool and the web app (issue 28)", .serialized)
struct ReadsContractTests {
    @Test("The inbox: the same conversations in the same order through both doors; the accounts: the same names and addresses")
    func listsAreTheSame() async throws {
        try await EndToEndWorld.with { world in
            try await world.addAccount()
            try await world.startDaemon()
            for (index, subject) in ["Budget review", "Picnic on Friday", "Release notes"].enumerated() {
                try world.deliver(EndToEndWorld.message(subject, body: "About \(subject.lowercased()).",
                                                        written: Date().addingTimeInterval(Double(index * 60 - 600))))
            }
            try await world.eventually("the three conversations stored") { try await world.inboxThreads().count == 3 }
            let tool = try await world.inboxThreads()

            let browser = try await world.signedInBrowser()
            defer { browser.stop() }
            _ = try await browser.waitForCount("#threads .row") { $0 == 3 }
            let web = try await browser.js("return Array.from(document.querySelectorAll('#threads .row')).map(r => r.dataset.id)") as? [String]
            #expect(web == tool.map(\.id), "tool: \(tool.map(\.subject)), web: \(web ?? [])")
            let webSubjects = try await browser.js(
                "return Array.from(document.querySelectorAll('#threads .row')).map(r => r.textContent)") as? [String] ?? []
            #expect(zip(tool.map(\.subject), webSubjects).allSatisfy { $1.contains($0) }, "\(webSubjects)")

            // The accounts: `account list` and Settings → Accounts name the same ones.
            let listed = try await world.vaultmail(["account", "list"])
            #expect(listed.status == 0, "\(listed.text)")
            try await browser.js("location.assign('/settings')")
            try await browser.wait("return document.querySelector('#accounts') !== null")
            let webAccounts = try await browser.js(
                "return Array.from(document.querySelectorAll('#accounts li strong')).map(s => s.parentElement.textContent.trim())") as? [String] ?? []
            let toolAccounts = listed.text.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).prefix(2).joined(separator: " ") }
            #expect(!toolAccounts.isEmpty && webAccounts == toolAccounts, "tool: \(toolAccounts), web: \(webAccounts)")
        }
    }
}
