import Foundation
import VaultMailCore

extension SMTPConnection: LoginConnection {

    /// AUTH PLAIN when offered, else LOGIN, for `AccountLogin`.
    func authenticate(user: String, password: Secret) throws {
        try login(user: user, password: password)
    }
}
