import Foundation
import Synchronization
import VaultMailCore

/// Accounts in memory, for tests of use cases that only read them.
public final class InMemoryAccountRepository: AccountRepository {
    private let accounts: Mutex<[Account]>

    public init(_ accounts: [Account] = []) {
        self.accounts = Mutex(accounts)
    }

    public func addAccount(_ account: Account) async throws {
        accounts.withLock { $0.append(account) }
    }

    public func updateAccount(_ account: Account) async throws {
        accounts.withLock { list in
            if let index = list.firstIndex(where: { $0.id == account.id }) { list[index] = account }
        }
    }

    public func removeAccount(id: String) async throws {
        accounts.withLock { $0.removeAll { $0.id == id } }
    }

    public func getAccounts() async throws -> [Account] {
        accounts.withLock { $0 }
    }

    public func getAccount(id: String) async throws -> Account? {
        accounts.withLock { $0.first { $0.id == id } }
    }

    public func getAccount(named name: String) async throws -> Account? {
        accounts.withLock { $0.first { $0.name == name } }
    }
}
