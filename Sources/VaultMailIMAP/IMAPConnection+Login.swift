import Foundation
import VaultMailCore

extension IMAPConnection: LoginConnection {

    /// LOGIN, for `AccountLogin`.
    func authenticate(user: String, password: Secret) throws {
        try login(user: user, password: password)
    }
}
