import Foundation
internal import CEtPan

extension IMAPSession {
    /// UID SEARCH HEADER `name` `value`: UIDs of messages of the selected mailbox whose header
    /// field `name` contains `value` (a substring match, as IMAP defines it), ascending.
    func searchUIDs(header name: String, containing value: String) throws(IMAPError) -> [UInt32] {
        let (imap, mailbox) = try selectedSession("search")
        let operation = "search \"\(mailbox)\" on"
        guard !name.isEmpty, !(name + value).contains(where: { $0.isNewline || $0 == "\0" }) else {
            throw makeError(.invalidRequest, operation, reason: "a header search may not contain a line break")
        }
        // Ownership: the key takes the two strdup'ed strings; freed with the key below.
        guard let headerName = strdup(name), let headerValue = strdup(value) else {
            throw makeError(.protocolError, operation, reason: "out of memory")
        }
        guard let key = mailimap_search_key_new_header(headerName, headerValue) else {
            free(headerName)
            free(headerValue)
            throw makeError(.protocolError, operation, reason: "out of memory")
        }
        defer { mailimap_search_key_free(key) }
        var result: UnsafeMutablePointer<clist>?
        // Ownership: the result is a new clist of uint32_t *; freed with mailimap_search_result_free.
        try check(mailimap_uid_search(imap, nil, key, &result), operation, mailbox: mailbox)
        defer { if let result { mailimap_search_result_free(result) } }
        var found: [UInt32] = []
        forEach(result, as: UInt32.self) { found.append($0.pointee) }
        return found.sorted()
    }
}
