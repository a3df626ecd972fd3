import Foundation
import VaultMailCore

/// `CredentialStore` over the freedesktop Secret Service (`org.freedesktop.secrets`:
/// GNOME Keyring, KeePassXC, KWallet's bridge), through our D-Bus layer. Secrets travel in a
/// "plain" session over the local bus only; items carry the attributes
/// `application=vaultmail` and `account-id`, so they are found again and removed with
/// their account. Under `application=vaultmail-openpgp` (`openPGPApplication`) it keeps each
/// account's OpenPGP key passphrase instead (`OpenPGPPassphraseStore`, issue 32).
public actor SecretServiceCredentialStore: CredentialStore, OpenPGPPassphraseStore {
    static let service = "org.freedesktop.secrets"
    static let servicePath = "/org/freedesktop/secrets"
    static let serviceInterface = "org.freedesktop.Secret.Service"

    /// The `application` attribute of this store's items.
    private let application: String
    /// The `application` of the OpenPGP key passphrases, apart from the accounts' secrets.
    public static let openPGPApplication = "vaultmail-openpgp"
    private let busAddress: String?
    private let environment: [String: String]
    private var connection: DBusConnection?
    private var session: String?

    public init(busAddress: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
                application: String = "vaultmail") {
        self.application = application
        self.busAddress = busAddress
        self.environment = environment
    }

    public func storeSecret(_ secret: Secret, for account: Account) async throws {
        try await store(secret, accountId: account.id, label: "VaultMail: \(account.name) (\(account.email))")
    }

    public func secret(for account: Account) async throws -> Secret? {
        try await secret(accountId: account.id)
    }

    public func deleteSecret(for account: Account) async throws {
        try await delete(accountId: account.id)
    }

    public func passphrase(accountId: String) async throws -> Secret? {
        try await secret(accountId: accountId)
    }

    public func storePassphrase(_ passphrase: Secret, accountId: String, label: String) async throws {
        try await store(passphrase, accountId: accountId, label: label)
    }

    public func deletePassphrase(accountId: String) async throws {
        try await delete(accountId: accountId)
    }

    private func store(_ secret: Secret, accountId: String, label: String) async throws {
        let (connection, session) = try await open()
        let collection = try await call(connection, path: Self.servicePath, interface: Self.serviceInterface, member: "ReadAlias",
                                        [.string("default")]).first?.stringValue ?? "/"
        guard collection != "/" else {
            throw SecretServiceError.noDefaultKeyring
        }
        let properties = DBusValue.vardict([
            ("org.freedesktop.Secret.Item.Label", .string(label)),
            ("org.freedesktop.Secret.Item.Attributes", attributes(accountId)),
        ])
        let reply = try await call(connection, path: collection, interface: "org.freedesktop.Secret.Collection", member: "CreateItem",
                                   [properties, Self.secretValue(secret, session: session), .bool(true)])
        guard reply.count == 2, reply[1].stringValue == "/" else { throw SecretServiceError.locked }
    }

    private func secret(accountId: String) async throws -> Secret? {
        let (connection, session) = try await open()
        let items = try await search(connection, accountId)
        guard let item = items.unlocked.first else {
            if !items.locked.isEmpty { throw SecretServiceError.locked }
            return nil
        }
        let reply = try await call(connection, path: Self.servicePath, interface: Self.serviceInterface, member: "GetSecrets",
                                   [.array(element: "o", [.objectPath(item)]), .objectPath(session)])
        guard case .array(_, let entries)? = reply.first,
              case .dictEntry(_, .structure(let fields))? = entries.first, fields.count == 4,
              case .array(_, let bytes) = fields[2] else {
            throw SecretServiceError.unreadable
        }
        let raw = bytes.compactMap { if case .byte(let b) = $0 { b } else { nil } }
        return Secret(String(decoding: raw, as: UTF8.self))
    }

    private func delete(accountId: String) async throws {
        let (connection, _) = try await open()
        let items = try await search(connection, accountId)
        guard items.locked.isEmpty else { throw SecretServiceError.locked }
        for item in items.unlocked {
            _ = try await call(connection, path: item, interface: "org.freedesktop.Secret.Item", member: "Delete", [])
        }
    }

    // MARK: - Protocol

    private func open() async throws -> (DBusConnection, String) {
        if let connection, let session, await connection.isConnected { return (connection, session) }
        do {
            let address = try busAddress ?? DBusConnection.sessionBusAddress(environment: environment)
            let connection = try await DBusConnection.connect(address: address)
            guard try await connection.nameHasOwner(Self.service) else { throw SecretServiceError.noService }
            let reply = try await call(connection, path: Self.servicePath, interface: Self.serviceInterface, member: "OpenSession",
                                       [.string("plain"), .variant(.string(""))])
            guard reply.count == 2, let path = reply[1].stringValue else { throw SecretServiceError.unreadable }
            self.connection = connection
            session = path
            return (connection, path)
        } catch let error as SecretServiceError {
            throw error
        } catch {
            throw SecretServiceError.unavailable("\(error)")
        }
    }

    private func search(_ connection: DBusConnection, _ accountId: String) async throws -> (unlocked: [String], locked: [String]) {
        let reply = try await call(connection, path: Self.servicePath, interface: Self.serviceInterface, member: "SearchItems",
                                   [attributes(accountId)])
        let paths = reply.map { ($0.arrayValue ?? []).compactMap(\.stringValue) }
        return (paths.first ?? [], paths.dropFirst().first ?? [])
    }

    private func call(_ connection: DBusConnection, path: String, interface: String, member: String,
                      _ arguments: [DBusValue]) async throws -> [DBusValue] {
        do {
            return try await connection.call(destination: Self.service, path: path, interface: interface, member: member,
                                             arguments: arguments, timeout: .seconds(5))
        } catch DBusError.remote(let name, _, _) where name.hasSuffix("IsLocked") {
            throw SecretServiceError.locked
        } catch let error as DBusError {
            throw SecretServiceError.unavailable(error.description)
        }
    }

    private func attributes(_ accountId: String) -> DBusValue {
        .array(element: "{ss}", [
            .dictEntry(.string("application"), .string(application)),
            .dictEntry(.string("account-id"), .string(accountId)),
        ])
    }

    /// The Secret Service's `(oayays)` secret: session, parameters, value, content type.
    static func secretValue(_ secret: Secret, session: String) -> DBusValue {
        .structure([.objectPath(session), .array(element: "y", []), .array(element: "y", Array(secret.revealed.utf8).map(DBusValue.byte)),
                    .string("text/plain; charset=utf8")])
    }
}

/// Why the keyring could not be used. Never carries a secret.
public enum SecretServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    case noService
    case noDefaultKeyring
    case locked
    case unreadable
    case unavailable(String)

    public var description: String {
        switch self {
        case .noService:
            "no Secret Service keyring is running (nothing owns org.freedesktop.secrets); start gnome-keyring or KeePassXC, or use --password-command"
        case .noDefaultKeyring:
            "the Secret Service has no default keyring; create one in your keyring manager, or use --password-command"
        case .locked:
            "the keyring is locked; unlock it (log in to the desktop, or open your keyring manager) and try again"
        case .unreadable:
            "the keyring answered in a form VaultMail does not understand; try another Secret Service (gnome-keyring, KeePassXC), or use --password-command"
        case .unavailable(let reason):
            "the Secret Service could not be reached: \(reason); unlock or restart your keyring, or use --password-command"
        }
    }
}
