import Foundation
import VaultMailCore

/// The account fields the onboarding and account pages post, read and checked: what was
/// wrong is said in words, per field, and nothing posted is trusted (ports, plain text only to
/// loopback, names the command line accepts too).
struct AccountForm {
    var name: String
    var email: String
    var displayName: String
    var username: String
    var imapHost: String
    var imapPort: String
    var smtpHost: String
    var smtpPort: String
    var security: ConnectionSecurity
    var caFile: String
    var syncWindowDays: Int
    var password: String
    var passwordCommand: String
    var problems: [PlainProblem] = []

    /// The fields prefilled for `address` from the provider list (`MailProvider`).
    init(address: String, displayName: String) {
        let provider = MailProvider.forAddress(address)
        let domain = address.split(separator: "@").last.map(String.init) ?? ""
        name = provider.isGeneric ? (domain.split(separator: ".").first.map(String.init) ?? "mail") : provider.name.lowercased()
        email = address
        self.displayName = displayName
        username = provider.username(for: address)
        imapHost = provider.imapHost
        imapPort = String(provider.imapPort)
        smtpHost = provider.smtpHost
        smtpPort = String(provider.smtpPort)
        security = provider.security
        caFile = ""
        syncWindowDays = AppConstants.defaultSyncWindowDays
        password = ""
        passwordCommand = ""
    }

    /// The fields as the onboarding's servers form posts them.
    struct Posted: Decodable {
        var name, email, displayName, username: String?
        var imapHost, imapPort, smtpHost, smtpPort, security: String?
        var caFile, syncWindow, password, passwordCommand: String?
    }

    init(_ form: Posted) {
        func text(_ value: String?) -> String { (value ?? "").trimmingCharacters(in: .whitespaces) }
        name = text(form.name)
        email = text(form.email)
        displayName = text(form.displayName)
        username = text(form.username)
        imapHost = text(form.imapHost)
        imapPort = text(form.imapPort)
        smtpHost = text(form.smtpHost)
        smtpPort = text(form.smtpPort)
        security = ConnectionSecurity(rawValue: text(form.security)) ?? .tls
        caFile = text(form.caFile)
        syncWindowDays = Int(text(form.syncWindow)) ?? AppConstants.defaultSyncWindowDays
        password = form.password ?? ""
        passwordCommand = text(form.passwordCommand)
    }

    /// The account described, or nil with `problems` saying why not.
    mutating func account(id: String? = nil) -> Account? {
        problems = []
        do {
            _ = try Accounts.validName(name)
        } catch {
            problems.append(PlainProblem(error))
        }
        do {
            try EmailAddress.validate(email, field: "Email address")
        } catch {
            problems.append(PlainProblem(error))
        }
        let imap = Int(imapPort), smtp = Int(smtpPort)
        if imapHost.isEmpty || imap.map({ !(1...65535).contains($0) }) ?? true { problems.append(PlainProblem(words: "Give the IMAP server's host name and port (usually 993).")) }
        if smtpHost.isEmpty || smtp.map({ !(1...65535).contains($0) }) ?? true { problems.append(PlainProblem(words: "Give the SMTP server's host name and port (usually 465 or 587).")) }
        if security == .plain, !ConnectionSecurity.isLoopback(imapHost) || !ConnectionSecurity.isLoopback(smtpHost) {
            problems.append(PlainProblem(words: "Unencrypted connections are only allowed to this computer (127.0.0.1): choose TLS or STARTTLS."))
        }
        if !(1...AppConstants.allMailSyncWindowDays).contains(syncWindowDays) { problems.append(PlainProblem(words: "Choose how much mail to keep here.")) }
        guard problems.isEmpty, let imap, let smtp else { return nil }
        return Account(
            id: id ?? UUID().uuidString.lowercased(), name: name, email: email, displayName: displayName.isEmpty ? nil : displayName,
            imapHost: imapHost, imapPort: imap, smtpHost: smtpHost, smtpPort: smtp, security: security,
            username: username.isEmpty ? email : username, caFile: caFile.isEmpty ? nil : caFile, syncWindowDays: syncWindowDays)
    }

    /// The secret given, or nil with a problem added.
    mutating func secret() -> AccountSecret? {
        if !passwordCommand.isEmpty { return .passwordCommand(passwordCommand) }
        if !password.isEmpty { return .password(Secret(password)) }
        problems.append(PlainProblem(words: "Type the password (or an app password), or give a command that prints it."))
        return nil
    }
}

/// The fields of "Sign in with Google / Microsoft": no password, the provider signs the user in.
struct OAuthFields {
    /// The fields as the sign-in form posts them.
    struct Posted: Decodable {
        var name: String?
        var email: String?
        var clientId: String?
        var provider: String?
    }

    var name = ""
    var email = ""
    var clientID = ""
    /// What went wrong with the last sign-in, in words with the detail apart (issue 29).
    var problems: [PlainProblem] = []
}
