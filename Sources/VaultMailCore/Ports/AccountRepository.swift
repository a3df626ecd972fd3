/// Configured accounts (AC-F-09). Removing an account removes every row that belongs to it.
public protocol AccountRepository: Sendable {
    func addAccount(_ account: Account) async throws
    func updateAccount(_ account: Account) async throws
    /// Removes the account and all its data: folders, emails, links, threads, attachments,
    /// settings and anything indexed for it (AC-SEC-03).
    func removeAccount(id: String) async throws
    func getAccounts() async throws -> [Account]
    func getAccount(id: String) async throws -> Account?
    func getAccount(named name: String) async throws -> Account?
}
