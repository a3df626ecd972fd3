internal import CICal
import Foundation
import Synchronization

/// The event of a calendar invitation (a `text/calendar` attachment, RFC 5545), as its card in
/// the conversation shows it, read with libical (Debian's libical): folded lines, escapes,
/// `TZID` with the calendar's own `VTIMEZONE` (or the system's zone of that name), UTC, floating
/// times and all-day dates.
struct CalendarEvent: Equatable, Sendable {
    /// SUMMARY; "Untitled event" when it has none.
    var title: String
    /// DTSTART as an instant. For an all-day or floating event, its wall-clock date and time
    /// read as UTC (shown in UTC, so the day does not move with the reader's zone).
    var start: Date
    /// DTEND (or DTSTART + DURATION), in the same terms; nil when the event gives neither.
    var end: Date?
    /// DTSTART is a DATE (no time of day).
    var allDay: Bool
    /// DTSTART is a local time of no particular zone (no `Z`, no `TZID`).
    var floating: Bool
    var location: String?
    var organizer: String?
    /// METHOD:CANCEL or STATUS:CANCELLED.
    var cancelled: Bool

    /// The calendar's largest size read (an invitation is a few KB).
    static let maximumBytes = 1 << 20

    /// libical keeps zones it loaded in a process-wide cache: one reader at a time.
    private static let lock = Mutex(())

    /// The first VEVENT of `bytes` (UTF-8), or nil when there is none or it has no DTSTART.
    static func read(_ bytes: [UInt8]) -> CalendarEvent? {
        guard bytes.count <= maximumBytes, !bytes.contains(0) else { return nil }
        let source = String(decoding: bytes, as: UTF8.self)
        return lock.withLock { _ -> CalendarEvent? in
            // Owned here: freed with everything in it (the strings read below are copied first).
            guard let calendar = icalparser_parse_string(source) else { return nil }
            defer { icalcomponent_free(calendar) }
            let event = icalcomponent_isa(calendar) == ICAL_VEVENT_COMPONENT
                ? calendar : icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT)
            guard let event else { return nil }
            let startTime = icalcomponent_get_dtstart(event)
            guard icaltime_is_null_time(startTime) == 0, icaltime_is_valid_time(startTime) != 0 else { return nil }
            let endTime = icalcomponent_get_dtend(event)
            let floating = startTime.zone == nil && icaltime_is_utc(startTime) == 0
            let organizer = icalcomponent_get_first_property(event, ICAL_ORGANIZER_PROPERTY).flatMap(Self.organizer)
            let status = icalcomponent_get_status(event)
            let method = icalcomponent_isa(calendar) == ICAL_VCALENDAR_COMPONENT ? icalcomponent_get_method(calendar) : ICAL_METHOD_NONE
            return CalendarEvent(
                title: text(icalcomponent_get_summary(event)) ?? "Untitled event",
                start: instant(startTime), end: icaltime_is_null_time(endTime) == 0 ? instant(endTime) : nil,
                allDay: startTime.is_date != 0, floating: floating,
                location: text(icalcomponent_get_location(event)), organizer: organizer,
                cancelled: status == ICAL_STATUS_CANCELLED || method == ICAL_METHOD_CANCEL)
        }
    }

    /// A time as an instant: in its zone when it has one, else its fields read as UTC.
    private static func instant(_ time: icaltimetype) -> Date {
        let zone = time.zone ?? icaltimezone_get_utc_timezone()
        return Date(timeIntervalSince1970: TimeInterval(icaltime_as_timet_with_zone(time, zone)))
    }

    /// ORGANIZER as "Name <address>", "Name" or the address (without `mailto:`).
    private static func organizer(_ property: OpaquePointer) -> String? {
        let name = icalproperty_get_first_parameter(property, ICAL_CN_PARAMETER).flatMap { text(icalparameter_get_cn($0)) }
        var address = text(icalproperty_get_organizer(property))
        if let value = address, value.lowercased().hasPrefix("mailto:") { address = String(value.dropFirst(7)) }
        switch (name, address) {
        case let (name?, address?): return name == address ? name : "\(name) <\(address)>"
        case let (name?, nil): return name
        case let (nil, address?): return address
        case (nil, nil): return nil
        }
    }

    private static func text(_ value: UnsafePointer<CChar>?) -> String? {
        guard let value else { return nil }
        let string = String(cString: value).trimmingCharacters(in: .whitespacesAndNewlines)
        return string.isEmpty ? nil : string
    }
}
