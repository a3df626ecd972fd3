import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

@MainActor
@Suite("Settings: summarize conversations when opened (issue 16, AC-A-06)")
struct AutoSummarizeSettingTests {
    @Test("autoSummarize is on by default, persists when turned off, reloads and resets")
    func autoSummarize() {
        let storage = InMemorySettingsStorage()
        let settings = SettingsStore(storage: storage)
        #expect(settings.autoSummarize)
        settings.autoSummarize = false
        #expect(SettingsStore(storage: storage).autoSummarize == false, "written through to storage")
        let other = SettingsStore(storage: storage)
        settings.autoSummarize = true
        other.reload()
        #expect(other.autoSummarize)
        other.autoSummarize = false
        other.resetAll()
        #expect(other.autoSummarize && SettingsStore(storage: storage).autoSummarize)
        #expect(SummarizeThreadUseCase.automaticMinimumMessages == 3)
    }
}
