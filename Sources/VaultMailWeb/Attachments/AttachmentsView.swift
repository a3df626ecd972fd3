import Foundation
import VaultMailCore

/// A message's attachments (issue 29): a chip for each, with its name, what it is in words and
/// its size ("PDF document · 48 KB"), a thumbnail for an image; an event card for a calendar
/// invitation; "Download all" as one ZIP when there are several. Every name is the sender's
/// text, so it goes through the template's escaping like any other.
struct AttachmentsView {
    var emailId: String
    /// The attachments to list (`listed(_:referenced:)`).
    var attachments: [Attachment]
    /// The events of the calendar invitations among them, by attachment id.
    var events: [String: CalendarEvent] = [:]

    /// The attachments a message lists: all but the images its HTML shows inline (by `cid:`).
    static func listed(_ attachments: [Attachment], referenced contentIds: [String]) -> [Attachment] {
        let referenced = Set(contentIds)
        return attachments.filter { attachment in !(attachment.contentId.map { referenced.contains($0) } ?? false) }
    }

    static func downloadURL(emailId: String, attachmentId: String) -> String {
        "/message/\(WebForm.escape(emailId))/attachment/\(WebForm.escape(attachmentId))"
    }

    static func previewURL(emailId: String, attachmentId: String) -> String {
        downloadURL(emailId: emailId, attachmentId: attachmentId) + "/preview"
    }

    static func archiveURL(emailId: String) -> String {
        "/message/\(WebForm.escape(emailId))/attachments.zip"
    }

    private struct Item {
        var href: String
        var filename: String
        var kind: String
        var badge: String
        var size: String
        var thumb: String?
    }

    private struct Time {
        var iso: String
        var mode: String
        var text: String
    }

    private struct Event {
        var title: String
        var start: Time
        var end: Time?
        var location: String?
        var organizer: String?
        var cancelled: Bool
        var icon: Markup
    }

    func render() -> Markup {
        guard !attachments.isEmpty else { return .empty }
        struct Model {
            var icon: Markup
            var heading: String
            var zipURL: String?
            var zipIcon: Markup
            var count: Int
            var events: [Event]
            var items: [Item]
        }
        let items = attachments.map { attachment -> Item in
            let kind = AttachmentKind.of(attachment)
            return Item(href: Self.downloadURL(emailId: emailId, attachmentId: attachment.id), filename: attachment.filename,
                        kind: kind.name, badge: kind.badge.isEmpty ? "IMG" : kind.badge, size: ByteSize.string(attachment.sizeBytes),
                        thumb: AttachmentKind.isPreviewable(attachment) ? Self.previewURL(emailId: emailId, attachmentId: attachment.id) : nil)
        }
        let cards = attachments.compactMap { events[$0.id].map(Self.event) }
        return Self.template.render(Model(
            icon: Icon.paperclip.svg(), heading: "\(attachments.count) attachment\(attachments.count == 1 ? "" : "s")",
            zipURL: attachments.count > 1 ? Self.archiveURL(emailId: emailId) : nil, zipIcon: Icon.download.svg(),
            count: attachments.count, events: cards, items: items))
    }

    private static let template = Template("""
        <section class="attachments" aria-label="Attachments"><div class="att-head"><h3>{{{icon}}}{{heading}}</h3>\
        {{#zipURL}}<a class="tool att-all" href="{{zipURL}}" download>{{{zipIcon}}}<span>Download all</span><span class="visually-hidden"> {{count}} attachments as one ZIP file</span></a>{{/zipURL}}</div>\
        {{#events}}<div class="event-card{{#cancelled}} cancelled{{/cancelled}}">{{{icon}}}<div class="event-text">\
        <h4 class="event-title">{{title}}{{#cancelled}} <span class="pill">Cancelled</span>{{/cancelled}}</h4>\
        <p class="event-when">{{#start}}<time datetime="{{iso}}" data-local="{{mode}}">{{text}}</time>{{/start}}\
        {{#end}} – <time datetime="{{iso}}" data-local="{{mode}}">{{text}}</time>{{/end}}</p>\
        {{#location}}<p class="event-fact"><span class="event-label">Where</span> {{location}}</p>{{/location}}\
        {{#organizer}}<p class="event-fact"><span class="event-label">Organizer</span> {{organizer}}</p>{{/organizer}}\
        </div></div>{{/events}}\
        <ul class="att-list">{{#items}}<li><a class="att-chip" href="{{href}}" download="{{filename}}">\
        {{#thumb}}<img class="att-thumb" src="{{thumb}}" alt="" width="96" height="72" loading="lazy">{{/thumb}}\
        {{^thumb}}<span class="att-badge" aria-hidden="true">{{badge}}</span>{{/thumb}}\
        <span class="att-text"><span class="att-name">{{filename}}</span><span class="att-meta">{{kind}} · {{size}}</span></span>\
        <span class="visually-hidden">, download</span></a></li>{{/items}}</ul></section>
        """)

    /// An event as its card shows it: times the page's script writes in the reader's locale
    /// (`data-local`), with the server's words until then (and without the script).
    private static func event(_ event: CalendarEvent) -> Event {
        let utc = TimeZone(identifier: "UTC") ?? .current
        let wall = event.allDay || event.floating
        let zone = wall ? utc : TimeZone.current
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func time(_ date: Date, timeOnly: Bool) -> Time {
            var style = Date.FormatStyle(date: timeOnly ? .omitted : .complete, time: event.allDay ? .omitted : .shortened)
            style.timeZone = zone
            let mode = event.allDay ? "date" : (timeOnly ? "time" : "datetime") + (event.floating ? "-floating" : "")
            return Time(iso: date.formatted(.iso8601), mode: mode, text: date.formatted(style))
        }
        var end: Time?
        if var last = event.end {
            // An all-day event ends on the day after its last (RFC 5545 §3.6.1).
            if event.allDay { last = last.addingTimeInterval(-86_400) }
            if last > event.start {
                end = time(last, timeOnly: !event.allDay && calendar.isDate(last, inSameDayAs: event.start))
            }
        }
        return Event(title: event.title, start: time(event.start, timeOnly: false), end: end, location: event.location,
                     organizer: event.organizer, cancelled: event.cancelled, icon: Icon.calendar.svg())
    }
}
