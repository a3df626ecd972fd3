import Foundation

extension IMAPConnection: LoginConnection {

    /// LOGIN, for `AccountLogin`.
    func authenticate(user: String, password: String) throws {
        try login(user: user, password: password)
    }
}
