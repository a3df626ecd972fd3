import Foundation
internal import CEtPan

/// Logging in with an OAuth2 access token: XOAUTH2 (Gmail, Outlook) through libetpan, and
/// OAUTHBEARER (RFC 7628), which libetpan lacks, as our own AUTHENTICATE exchange. The token
/// is never part of an error; a refusal carries the server's own reason.
extension IMAPSession {
    /// XOAUTH2 when offered, else OAUTHBEARER.
    func authenticateOAuth(user: String, accessToken: String) throws(IMAPError) {
        switch OAuthMechanism.preferred(among: capabilities.authMechanisms) {
        case .oauthBearer: try authenticateOAuthBearer(user: user, accessToken: accessToken)
        case .xoauth2, nil: try authenticateXOAuth2(user: user, accessToken: accessToken)
        }
    }

    /// SASL XOAUTH2 with the token in the AUTHENTICATE command itself (SASL-IR).
    func authenticateXOAuth2(user: String, accessToken: String) throws(IMAPError) {
        let operation = "log in (XOAUTH2) to"
        setUser(user)
        let imap = try session(operation)
        guard capabilities.authMechanisms.contains("XOAUTH2") else {
            throw makeError(.unsupported, operation, reason: "the server does not offer AUTH=XOAUTH2")
        }
        guard capabilities.contains("SASL-IR") else {
            throw makeError(.unsupported, operation, reason: "the server does not offer SASL-IR, which XOAUTH2 needs here")
        }
        let code = user.withCString { userPointer in
            accessToken.withCString { tokenPointer in mailimap_oauth2_authenticate(imap, userPointer, tokenPointer) }
        }
        try check(code, operation, refusal: .authenticationFailed)
        markAuthenticated(as: user)
        try refreshCapabilities()
    }

    /// SASL OAUTHBEARER: the initial response in the command where the server has SASL-IR,
    /// else after its empty challenge. An error challenge (base64 JSON) is answered with ^A
    /// and its text becomes the error's reason.
    func authenticateOAuthBearer(user: String, accessToken: String) throws(IMAPError) {
        let operation = "log in (OAUTHBEARER) to"
        setUser(user)
        let imap = try session(operation)
        guard capabilities.authMechanisms.contains("OAUTHBEARER") else {
            throw makeError(.unsupported, operation, reason: "the server does not offer AUTH=OAUTHBEARER")
        }
        guard let response = OAuthInitialResponse.oauthBearer(user: user, accessToken: accessToken) else {
            throw makeError(.invalidRequest, operation, reason: "the user name or token contains a control character")
        }
        let initialInCommand = capabilities.contains("SASL-IR")
        let tag = try sendRawCommand(
            "AUTHENTICATE OAUTHBEARER" + (initialInCommand ? " " + response : ""), operation: operation)
        var sentResponse = initialInCommand
        var detail: String?
        while true {
            let line = try readLine(operation: operation)
            if line.first == UInt8(ascii: "+") {
                if !sentResponse {
                    sentResponse = true
                    try writeRaw(response + "\r\n", operation: operation)
                } else {
                    detail = OAuthInitialResponse.challengeDetail(Self.continuationText(line))
                    try writeRaw(OAuthInitialResponse.oauthBearerAbort + "\r\n", operation: operation)
                }
                continue
            }
            switch IMAPResponseLine(line) {
            case .bye(let text): throw bye(text, operation: operation)
            case .tagged(let answerTag, let status, let text) where answerTag == tag:
                guard status == "OK" else {
                    var error = makeError(.authenticationFailed, operation, server: "\(status) \(text)")
                    if let detail { error.reason = "the server says \(detail)" }
                    throw error
                }
                imap.pointee.imap_state = Int32(MAILIMAP_STATE_AUTHENTICATED)
                markAuthenticated(as: user)
                try refreshCapabilities()
                return
            default: continue
            }
        }
    }

    /// The text after `+ ` on a continuation line.
    private static func continuationText(_ line: [UInt8]) -> String {
        String(decoding: line.dropFirst(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
