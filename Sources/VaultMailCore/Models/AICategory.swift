/// The category a message was classified into. `nil` or `.uncategorized` means no
/// classifier has looked at it yet (NOTIF-09: such mail always passes the category filter).
public enum AICategory: String, Sendable, Codable, CaseIterable, Hashable {
    case primary
    case social
    case promotions
    case updates
    case forums
    case uncategorized
}
