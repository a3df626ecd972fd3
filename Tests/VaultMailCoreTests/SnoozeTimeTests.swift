import Foundation
import Testing
import VaultMailCore

/// Issue 33, snooze: the times a person gives (presets, ISO 8601, a local date and time), the
/// refusals with what to do, and the keyword that carries a time on the IMAP server (docs/snooze.md).
@Suite("Snooze times: presets, parsing, refusals and the server keyword (issue 33)")
struct SnoozeTimeTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// 2026-01-15 (a Thursday) at `hour:minute` in Berlin.
    static func thursday(_ hour: Int, _ minute: Int = 0) -> Date {
        date(2026, 1, 15, hour, minute)
    }

    static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    @Test("The presets in the user's time zone: this evening 18:00, tomorrow 08:00, next week Monday 08:00, someday without a time")
    func presets() {
        let now = Self.thursday(10)
        #expect(SnoozePreset.thisEvening.time(now: now, timeZone: Self.berlin) == .until(Self.thursday(18)))
        #expect(SnoozePreset.tomorrow.time(now: now, timeZone: Self.berlin) == .until(Self.date(2026, 1, 16, 8)))
        #expect(SnoozePreset.nextWeek.time(now: now, timeZone: Self.berlin) == .until(Self.date(2026, 1, 19, 8)))
        #expect(SnoozePreset.someday.time(now: now, timeZone: Self.berlin) == .someday)
        // On a Monday, next week is the Monday after.
        #expect(SnoozePreset.nextWeek.time(now: Self.date(2026, 1, 19, 9), timeZone: Self.berlin) == .until(Self.date(2026, 1, 26, 8)))
        // On a Sunday, it is the next day.
        #expect(SnoozePreset.nextWeek.time(now: Self.date(2026, 1, 18, 9), timeZone: Self.berlin) == .until(Self.date(2026, 1, 19, 8)))
    }

    @Test("This evening is offered until an hour before 18:00; after that it is refused with what to choose")
    func eveningPassed() throws {
        #expect(SnoozePreset.thisEvening.time(now: Self.thursday(16, 59), timeZone: Self.berlin) != nil)
        #expect(SnoozePreset.thisEvening.time(now: Self.thursday(17, 30), timeZone: Self.berlin) == nil)
        #expect(throws: SnoozeError.eveningPassed) {
            try Snooze.time(from: "this evening", now: Self.thursday(17, 30), timeZone: Self.berlin)
        }
        #expect(SnoozeError.eveningPassed.description.contains("choose tomorrow, next week or a time"))
    }

    @Test("Words, ISO 8601 with an offset and local dates and times are read; the local ones in the user's time zone",
          arguments: [
              ("tomorrow", SnoozeTime.until(SnoozeTimeTests.date(2026, 1, 16, 8))),
              ("Next Week", .until(SnoozeTimeTests.date(2026, 1, 19, 8))),
              ("next-week", .until(SnoozeTimeTests.date(2026, 1, 19, 8))),
              ("this-evening", .until(SnoozeTimeTests.date(2026, 1, 15, 18))),
              ("someday", .someday),
              ("2026-01-20 09:30", .until(SnoozeTimeTests.date(2026, 1, 20, 9, 30))),
              ("2026-01-20T09:30", .until(SnoozeTimeTests.date(2026, 1, 20, 9, 30))),
              ("2026-01-20 09:30:00", .until(SnoozeTimeTests.date(2026, 1, 20, 9, 30))),
              ("2026-01-20T09:30:00+01:00", .until(SnoozeTimeTests.date(2026, 1, 20, 9, 30))),
              ("2026-01-20T08:30:00Z", .until(SnoozeTimeTests.date(2026, 1, 20, 9, 30))),
              ("2026-01-20T03:30-05:00", .until(SnoozeTimeTests.date(2026, 1, 20, 9, 30))),
          ])
    func reads(text: String, expected: SnoozeTime) throws {
        #expect(try Snooze.time(from: text, now: Self.thursday(10), timeZone: Self.berlin) == expected)
    }

    @Test("Unreadable text and impossible dates are refused with the forms that are read")
    func unreadable() {
        for text in ["soon", "2026-02-30 09:00", "20.01.2026 09:00", "", "2026-01-20 25:00"] {
            #expect(throws: SnoozeError.unreadableTime(text)) {
                try Snooze.time(from: text, now: Self.thursday(10), timeZone: Self.berlin)
            }
        }
        let words = SnoozeError.unreadableTime("soon").description
        #expect(words.contains("'soon' is not a time VaultMail reads"))
        #expect(words.contains("2026-12-01 09:00"))
    }

    @Test("A time that has passed is refused, saying when it is now")
    func past() {
        #expect(throws: SnoozeError.inThePast(time: "2026-01-15 09:00", now: "2026-01-15 10:00")) {
            try Snooze.time(from: "2026-01-15 09:00", now: Self.thursday(10), timeZone: Self.berlin)
        }
        #expect(throws: SnoozeError.self) { try Snooze.time(from: "2026-01-15 10:00", now: Self.thursday(10), timeZone: Self.berlin) }
        #expect(SnoozeError.inThePast(time: "2026-01-15 09:00", now: "2026-01-15 10:00").plainWords
            == "2026-01-15 09:00 has already passed (it is 2026-01-15 10:00 now): give a later time.")
    }

    @Test("The server keyword: the time in UTC to the second, read back in any case; someday; none means someday; several mean the earliest")
    func keywords() throws {
        let time = SnoozeTime.until(Self.date(2026, 1, 16, 8))
        #expect(time.keyword == "$SnoozedUntil-20260116T070000Z")
        #expect(SnoozeTime(keyword: "$snoozeduntil-20260116t070000z") == time)
        #expect(SnoozeTime.someday.keyword == "$SnoozedSomeday")
        #expect(SnoozeTime(keyword: "$SNOOZEDSOMEDAY") == .someday)
        for other in ["\\Seen", "$SnoozedUntil-2026", "$SnoozedUntil-20261301T000000Z", "$Snoozedfoo", "$Forwarded"] {
            #expect(SnoozeTime(keyword: other) == nil, "\(other)")
            #expect(!SnoozeTime.isKeyword(other), "\(other)")
        }
        #expect(SnoozeTime(flags: ["\\Seen", "$Forwarded"]) == .someday)
        #expect(SnoozeTime(flags: ["$SnoozedUntil-20260120T070000Z", "$SnoozedUntil-20260116T070000Z"]) == time)
        #expect(SnoozeTime(flags: ["$SnoozedSomeday", "$SnoozedUntil-20260116T070000Z"]) == time)
        #expect(time.isDue(at: Self.date(2026, 1, 16, 8)))
        #expect(!time.isDue(at: Self.date(2026, 1, 16, 7, 59)))
        #expect(!SnoozeTime.someday.isDue(at: .distantFuture))
    }
}
