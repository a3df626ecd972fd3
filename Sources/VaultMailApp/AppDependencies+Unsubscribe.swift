import Foundation
import VaultMailCore
import VaultMailIMAP

extension AppDependencies {
    /// The client of one-click unsubscribe requests (RFC 8058): the system's trusted CAs, plus
    /// those in the PEM file `$VAULTMAIL_UNSUBSCRIBE_CA_FILE` when it is set (a company proxy's
    /// CA; the tests' local HTTPS server).
    public static func oneClickClient(environment: [String: String] = ProcessInfo.processInfo.environment) -> any OneClickUnsubscribeClient {
        TLSOneClickUnsubscribeClient(caFile: environment["VAULTMAIL_UNSUBSCRIBE_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 })
    }
}
