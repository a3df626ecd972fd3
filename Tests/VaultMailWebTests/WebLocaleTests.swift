import Foundation
import Testing
import VaultMailCore
import VaultMailTesting
@testable import VaultMailWeb

/// Dates and times in the browser's language (issue 29): the list's and the message header's
/// dates follow `Accept-Language`, which follows the language the user set in the browser.
@Suite("Dates in the browser's language (issue 29)", .serialized, .timeLimit(.minutes(4)))
@MainActor
struct WebLocaleTests {
    @Test("Accept-Language: the first language with the highest weight; nothing usable, no locale")
    func acceptLanguage() {
        #expect(BrowserLocale.locale(acceptLanguage: "de-DE,de;q=0.9,en;q=0.8")?.identifier == "de-DE")
        #expect(BrowserLocale.locale(acceptLanguage: "en;q=0.5, fr-CA;q=0.8")?.identifier == "fr-CA")
        #expect(BrowserLocale.locale(acceptLanguage: "ja")?.identifier == "ja")
        for unusable in [nil, "", "*", "de;q=0", "x", "de_DE", "../../etc", "de-DE-\(String(repeating: "a", count: 40))"] {
            #expect(BrowserLocale.locale(acceptLanguage: unusable) == nil, "\(unusable ?? "nil")")
        }
    }

    @Test("Each form is the locale's: German time, yesterday, weekday, day and month, short date; the fixed US forms without one")
    func forms() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let now = Date(timeIntervalSince1970: 1_768_478_400)  // Thu 2026-01-15 12:00 UTC
        let german = RelativeDate(now: now, timeZone: utc, locale: Locale(identifier: "de-DE"))
        #expect(german.string(for: now.addingTimeInterval(-3 * 3600)) == "09:00")
        #expect(german.string(for: now.addingTimeInterval(-86_400)) == "Gestern")
        #expect(german.string(for: now.addingTimeInterval(-2 * 86_400)).hasPrefix("Di"))
        #expect(german.string(for: now.addingTimeInterval(-10 * 86_400)) == "5. Jan.")
        #expect(german.string(for: now.addingTimeInterval(-400 * 86_400)) == "11.12.24")
        #expect(german.full(now).hasPrefix("Do") && german.full(now).contains("15. Jan. 2026") && german.full(now).contains("12:00"), "\(german.full(now))")
        let english = RelativeDate(now: now, timeZone: utc, locale: Locale(identifier: "en-GB"))
        #expect(english.string(for: now.addingTimeInterval(-3 * 3600)) == "09:00", "en-GB writes 24-hour time")
        let fixed = RelativeDate(now: now, timeZone: utc)
        #expect(fixed.string(for: now.addingTimeInterval(-3 * 3600)) == "9:00 AM")
        #expect(fixed.string(for: now.addingTimeInterval(-86_400)) == "Yesterday")
        #expect(fixed.full(now) == "Thu, Jan 15, 2026 at 12:00 PM")
    }

    @Test("In Chromium set to German, the list and the message header write dates the German way")
    func browser() async throws {
        try await WebFixture.with { web in
            let email = try #require(try await web.store([MailFixtures.email(accountId: web.account.id, number: 1, subject: "Termin")]).first)
            let browser = try await BrowserSession.start(driver: WebWritingBrowserTests.driver, language: "de-DE")
            defer { browser.stop() }
            let secret = try #require(try WebSecret.load(at: web.web.configuration.secretURL))
            let signIn = try SignInPage.write(configuration: WebConfiguration(port: web.port, home: web.home), secret: secret, thread: email.threadId)
            try await browser.get(signIn.absoluteString)
            try await browser.wait("return location.pathname === '/mail' && document.querySelector('#conversation') !== null", timeout: 60)
            #expect(try await browser.js("return navigator.language", []) as? String == "de-DE")

            let german = RelativeDate(now: Date(), timeZone: .current, locale: Locale(identifier: "de-DE"))
            let row = try await browser.js("return document.querySelector('.row time').textContent", []) as? String
            #expect(row == german.string(for: email.dateReceived), "the list's date: \(row ?? "none")")
            let page = try await browser.js("return document.querySelector('#conversation').textContent", []) as? String ?? ""
            #expect(page.contains(german.full(email.dateSent ?? email.dateReceived)), "the header's date is not German: \(page.prefix(600))")
        }
    }
}
