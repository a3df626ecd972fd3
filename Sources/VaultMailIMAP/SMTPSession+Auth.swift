import Foundation
internal import CEtPan

extension SMTPSession {
    /// AUTH PLAIN (preferred) or LOGIN with a password. The password goes to the server only,
    /// kept out of libetpan's logger; it is never part of an error.
    func login(user: String, password: String, mechanism: SMTPAuthMechanism?) throws(SMTPError) {
        let operation = "log in to"
        setUser(user)
        _ = try session(operation)
        guard !isAuthenticated else { throw makeError(.invalidRequest, operation, reason: "already logged in") }
        guard !user.contains(where: { $0.isNewline || $0 == "\0" }),
              !password.contains(where: { $0.isNewline || $0 == "\0" }) else {
            throw makeError(.invalidRequest, operation, reason: "the user name or password contains a line break")
        }
        let offered = capabilities.authMechanisms
        let chosen = mechanism ?? [SMTPAuthMechanism.plain, .login].first { offered.contains($0.rawValue) }
        guard let chosen, offered.contains(chosen.rawValue) else {
            let what = offered.isEmpty ? "no AUTH mechanism" : "only " + offered.sorted().joined(separator: ", ")
            throw makeError(
                .unsupported, operation,
                reason: "the server offers \(what)\(mechanism.map { ", not \($0.rawValue)" } ?? ", not PLAIN or LOGIN")")
        }
        var reply: Int
        switch chosen {
        case .plain:
            let token = Self.base64([0] + Array(user.utf8) + [0] + Array(password.utf8))
            reply = try command("AUTH PLAIN \(token)", isSecret: true, operation)
            if reply == 334 { reply = try command(token, isSecret: true, operation) }
        case .login:
            reply = try command("AUTH LOGIN", operation)
            if reply == 334 { reply = try command(Self.base64(Array(user.utf8)), isSecret: true, operation) }
            if reply == 334 { reply = try command(Self.base64(Array(password.utf8)), isSecret: true, operation) }
        }
        guard reply == 235 else { throw authenticationError(reply, operation) }
        markAuthenticated(as: user)
    }

    /// SASL XOAUTH2 (Gmail, Outlook) with an access token from the caller, sent as the
    /// initial response of AUTH.
    func authenticateXOAuth2(user: String, accessToken: String) throws(SMTPError) {
        try authenticateWithToken(.xoauth2, user: user, accessToken: accessToken)
    }

    /// SASL OAUTHBEARER (RFC 7628) with an access token from the caller, as the initial
    /// response of AUTH.
    func authenticateOAuthBearer(user: String, accessToken: String) throws(SMTPError) {
        try authenticateWithToken(.oauthBearer, user: user, accessToken: accessToken)
    }

    /// AUTH with a bearer token. On a refusal the server's 334 challenge (base64 JSON saying
    /// why) is decoded into the error, after the answer that ends the exchange (an empty line
    /// for XOAUTH2, ^A for OAUTHBEARER); the token never is.
    private func authenticateWithToken(_ mechanism: OAuthMechanism, user: String, accessToken: String) throws(SMTPError) {
        let operation = "log in (\(mechanism.rawValue)) to"
        setUser(user)
        _ = try session(operation)
        guard !isAuthenticated else { throw makeError(.invalidRequest, operation, reason: "already logged in") }
        guard capabilities.authMechanisms.contains(mechanism.rawValue) else {
            throw makeError(.unsupported, operation, reason: "the server does not offer AUTH \(mechanism.rawValue)")
        }
        guard let token = mechanism.initialResponse(user: user, accessToken: accessToken) else {
            throw makeError(.invalidRequest, operation, reason: "the user name or token contains a control character")
        }
        var reply = try command("AUTH \(mechanism.rawValue) \(token)", isSecret: true, operation)
        if reply == 334 {
            let detail = OAuthInitialResponse.challengeDetail(lastReply().text)
            reply = try command(mechanism.abortAnswer, operation)
            var error = authenticationError(reply, operation)
            if let detail { error.reason = "the server says \(detail)" }
            throw error
        }
        guard reply == 235 else { throw authenticationError(reply, operation) }
        markAuthenticated(as: user)
    }

    /// A refused AUTH, with the server's reply (454 is temporary: `isTransient`).
    private func authenticationError(_ reply: Int, _ operation: String) -> SMTPError {
        let (_, text) = lastReply()
        var error = makeError(.authenticationFailed, operation, server: "\(reply) \(text)", replyCode: reply)
        if reply == 538 || reply == 530 {
            error.reason = "the server requires encryption before AUTH"
        }
        return error
    }

    static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }
}
