import Foundation

extension SMTPConnection: LoginConnection {

    /// AUTH PLAIN when offered, else LOGIN, for `AccountLogin`.
    func authenticate(user: String, password: String) throws {
        try login(user: user, password: password)
    }
}
