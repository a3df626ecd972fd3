import VaultMailCore

extension MailScreen {
    /// The events of an email's calendar invitations, by attachment id (their cards); an
    /// invitation that cannot be read or holds no event gets no card, only its chip.
    func calendarEvents(emailId: String, attachments: [Attachment]) async -> [String: CalendarEvent] {
        var events: [String: CalendarEvent] = [:]
        for attachment in attachments where AttachmentKind.isCalendar(attachment) && attachment.sizeBytes <= CalendarEvent.maximumBytes {
            guard let content = try? await mail.attachments.content(emailId: emailId, attachmentId: attachment.id),
                  let event = CalendarEvent.read(content.data) else { continue }
            events[attachment.id] = event
        }
        return events
    }
}
