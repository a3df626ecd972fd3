import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// Core's `Preferences` service, without any door: the settings of how mail is shown and
/// handled, read and changed one way, and the one rule for remote images (issue 28).
@MainActor
@Suite("Preferences: view settings and the remote-images rule, the same for every door (issue 28)")
struct PreferencesTests {
    struct FixedContacts: ContactSource {
        var people: [Contact]
        func contacts() async throws -> [Contact] { people }
    }

    let storage = InMemorySettingsStorage()

    func service() -> (Preferences, SettingsStore) {
        let settings = SettingsStore(storage: storage)
        let contacts = ContactDirectory(source: FixedContacts(people: [
            Contact(email: "friend@example.com", name: "Friend", sentCount: 2, lastSent: MailFixtures.referenceDate),
        ]), clock: FixedClock(MailFixtures.referenceDate))
        return (Preferences(settings: settings, contacts: contacts), settings)
    }

    @Test("AC-U-11: the general settings round-trip; a delay outside 0–300 s or a value not given keeps the current one")
    func general() async {
        let (preferences, settings) = service()
        await preferences.change(undoSendDelaySeconds: 30, markReadOnOpen: false, remoteImages: .never, theme: .dark, listDensity: .compact)
        #expect(await preferences.general() == Preferences.General(undoSendDelaySeconds: 30, markReadOnOpen: false, remoteImages: .never,
                                                                   theme: .dark, listDensity: .compact))
        #expect(settings.undoSendDelaySeconds == 30 && settings.theme == .dark)
        await preferences.change(undoSendDelaySeconds: 301, markReadOnOpen: true, remoteImages: nil, theme: nil, listDensity: nil)
        #expect(await preferences.general() == Preferences.General(undoSendDelaySeconds: 30, markReadOnOpen: true, remoteImages: .never,
                                                                   theme: .dark, listDensity: .compact))
        await preferences.change(undoSendDelaySeconds: -1, markReadOnOpen: true, remoteImages: nil, theme: nil, listDensity: nil)
        #expect(settings.undoSendDelaySeconds == 30)
        // Stored: a store opened again reads the same.
        #expect(await Preferences(settings: SettingsStore(storage: storage)).general().theme == .dark)
    }

    @Test("Issue 29: what opens after triage is the older conversation by default; newer or the list when chosen, stored, reset with the rest")
    func afterTriage() async {
        let (preferences, settings) = service()
        #expect(await preferences.afterTriage() == .older)
        await preferences.setAfterTriage(.newer)
        #expect(settings.afterTriage == .newer)
        #expect(await Preferences(settings: SettingsStore(storage: storage)).afterTriage() == .newer, "not stored")
        await preferences.setAfterTriage(.list)
        #expect(await preferences.afterTriage() == .list)
        settings.resetAll()
        #expect(await preferences.afterTriage() == .older)
    }

    @Test("Issue 29: date headings in the list are off by default; on when chosen, stored, reset with the rest")
    func dateHeadings() async {
        let (preferences, settings) = service()
        #expect(await preferences.dateHeadings() == false)
        await preferences.setDateHeadings(true)
        #expect(settings.dateHeadings)
        #expect(await Preferences(settings: SettingsStore(storage: storage)).dateHeadings(), "not stored")
        settings.resetAll()
        #expect(await preferences.dateHeadings() == false)
    }

    @Test("AC-A-06: summarizing on opening is a switch both pages read the same")
    func autoSummarize() async {
        let (preferences, settings) = service()
        #expect(await preferences.autoSummarize())
        await preferences.setAutoSummarize(false)
        #expect(!settings.autoSummarize)
        #expect(await !preferences.autoSummarize())
    }

    @Test("Remote images: never under 'never'; asked or trusted under 'ask'; also people written to under 'known senders'")
    func remoteImages() async {
        let (preferences, _) = service()
        await preferences.change(undoSendDelaySeconds: nil, markReadOnOpen: true, remoteImages: .never, theme: nil, listDensity: nil)
        await preferences.allowImages(from: "Trusted@Example.com")
        #expect(await !preferences.remoteImagesAllowed(from: "trusted@example.com", asked: true))

        await preferences.change(undoSendDelaySeconds: nil, markReadOnOpen: true, remoteImages: .ask, theme: nil, listDensity: nil)
        #expect(await preferences.remoteImagesAllowed(from: "trusted@example.com", asked: false), "trusted, in any case")
        #expect(await preferences.remoteImagesAllowed(from: "stranger@example.com", asked: true))
        #expect(await !preferences.remoteImagesAllowed(from: "stranger@example.com", asked: false))
        #expect(await !preferences.remoteImagesAllowed(from: "friend@example.com", asked: false), "written to, but 'ask' asks")

        await preferences.change(undoSendDelaySeconds: nil, markReadOnOpen: true, remoteImages: .knownSenders, theme: nil, listDensity: nil)
        #expect(await preferences.remoteImagesAllowed(from: "friend@example.com", asked: false))
        #expect(await !preferences.remoteImagesAllowed(from: "stranger@example.com", asked: false))
    }
}
