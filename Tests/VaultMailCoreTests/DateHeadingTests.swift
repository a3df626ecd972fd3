import Foundation
import Testing
import VaultMailCore

/// The list's optional date headings (issue 29): `RelativeDate.heading(for:)`.
@Suite("Date headings of the list (issue 29)")
struct DateHeadingTests {
    let utc = TimeZone(identifier: "UTC")!
    /// Thursday 15 January 2026, 12:00 UTC.
    let now = Date(timeIntervalSince1970: 1_768_478_400)

    func day(_ offset: Double, hour: Double = 12) -> Date {
        now.addingTimeInterval(offset * 86_400 + (hour - 12) * 3_600)
    }

    @Test("Issue 29: Today, Yesterday, This week (from the locale's first weekday), Last week, Earlier this month, then the month, with its year in another year")
    func groups() {
        let fixed = RelativeDate(now: now, timeZone: utc)  // weeks from Sunday 11 January
        #expect(fixed.heading(for: day(0, hour: 0.5)) == "Today")
        #expect(fixed.heading(for: day(0, hour: 23)) == "Today", "later today (a clock ahead) is today")
        #expect(fixed.heading(for: day(-1, hour: 0.5)) == "Yesterday")
        #expect(fixed.heading(for: day(-3)) == "This week")
        #expect(fixed.heading(for: day(-4, hour: 0.5)) == "This week", "Sunday 11 starts the week")
        #expect(fixed.heading(for: day(-5, hour: 23)) == "Last week")
        #expect(fixed.heading(for: day(-11, hour: 0.5)) == "Last week", "Sunday 4")
        #expect(fixed.heading(for: day(-12)) == "Earlier this month", "Saturday 3")
        #expect(fixed.heading(for: day(-14, hour: 0.5)) == "Earlier this month", "1 January")
        #expect(fixed.heading(for: day(-15)) == "December 2025")
        let june = RelativeDate(now: now.addingTimeInterval(150 * 86_400), timeZone: utc)  // Sunday 14 June 2026
        #expect(june.heading(for: now.addingTimeInterval(110 * 86_400)) == "May")
        #expect(june.heading(for: now) == "January")
    }

    @Test("Issue 29: in German, the week starts on Monday and the words are German")
    func german() {
        let german = RelativeDate(now: now, timeZone: utc, locale: Locale(identifier: "de-DE"))
        #expect(german.heading(for: day(0)) == "Heute")
        #expect(german.heading(for: day(-1)) == "Gestern")
        #expect(german.heading(for: day(-3)) == "Diese Woche", "Monday 12")
        #expect(german.heading(for: day(-4)) == "Letzte Woche", "Sunday 11 is last week's")
        #expect(german.heading(for: day(-15)) == "Dezember 2025")
        let english = RelativeDate(now: now, timeZone: utc, locale: Locale(identifier: "en-GB"))
        #expect(english.heading(for: day(-4)) == "Last week" && english.heading(for: day(-12)) == "Earlier this month")
    }

    @Test("Issue 29: down a list newest first, each heading comes once (groups follow one another), whatever the day and locale",
          arguments: ["en_US_POSIX", "de-DE", "fr-FR", "ja-JP"])
    func eachOnce(locale: String) {
        for start in 0..<7 {
            let today = now.addingTimeInterval(Double(start) * 86_400)
            let dates = RelativeDate(now: today, timeZone: utc, locale: Locale(identifier: locale))
            var seen: [String] = []
            for hour in stride(from: 0.0, through: 24 * 80, by: 5) {
                let heading = dates.heading(for: today.addingTimeInterval(-hour * 3_600))
                if heading != seen.last {
                    #expect(!seen.contains(heading), "\(heading) again after \(seen) (\(locale), day \(start))")
                    seen.append(heading)
                }
            }
            #expect(seen.count >= 5, "\(seen)")
        }
    }
}
