import Foundation

/// What the notification server shows for this application, kept in a file so a daemon that
/// restarts can still act on the notifications an earlier one posted (a click opens its
/// conversation: AC-N-20, E-12). Server ids mean something only to the server that gave them,
/// so the record names that server's unique bus name and is used only while it still runs.
struct RememberedNotifications: Codable {
    /// The unique bus name of the server that gave the ids (never reused on a bus).
    var server: String
    var groups: NotificationGroups

    /// The groups remembered in `file` from `server`; nil when there are none, or they came
    /// from another server (it restarted: its ids are someone else's now).
    static func load(from file: URL, server: String) -> NotificationGroups? {
        guard let data = try? Data(contentsOf: file),
              let remembered = try? JSONDecoder().decode(RememberedNotifications.self, from: data),
              remembered.server == server else { return nil }
        return remembered.groups
    }

    /// Writes the record (readable by the user only, like the store beside it), or removes
    /// the file when nothing is shown.
    func save(to file: URL) throws {
        guard !groups.isEmpty else {
            try? FileManager.default.removeItem(at: file)
            return
        }
        let data = try JSONEncoder().encode(self)
        let partial = file.appendingPathExtension("partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: partial.path])
        }
        guard rename(partial.path, file.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
    }
}
