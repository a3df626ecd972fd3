import Foundation
internal import CEtPan

/// UID SEARCH, UID FETCH, UID STORE, UID COPY / MOVE, UID EXPUNGE and APPEND on the selected
/// mailbox.
extension IMAPSession {
    /// UID SEARCH with the given criteria (all messages when none is given). `since` compares
    /// the internal date by day, as IMAP does; the day is taken in UTC. `unseenOnly` keeps
    /// messages without `\Seen`.
    func searchUIDs(since: Date?, in uids: UIDSet?, unseenOnly: Bool = false) throws(IMAPError) -> [UInt32] {
        let operation = "search"
        let (imap, mailbox) = try selectedSession(operation + " on")
        let fullOperation = "search \"\(mailbox)\" on"
        if let uids, uids.isEmpty { return [] }
        // Ownership: the key is ours (freed below); sub-keys, dates and sets given to its
        // constructors belong to it from then on.
        guard let key = Self.makeSearchKey(since: since, uids: uids, unseenOnly: unseenOnly) else {
            throw makeError(.protocolError, fullOperation, reason: "out of memory")
        }
        defer { mailimap_search_key_free(key) }
        var result: UnsafeMutablePointer<clist>?
        // Ownership: the result is a new clist of uint32_t *; freed with mailimap_search_result_free.
        try check(mailimap_uid_search(imap, nil, key, &result), fullOperation, mailbox: mailbox)
        defer { if let result { mailimap_search_result_free(result) } }
        var found: [UInt32] = []
        forEach(result, as: UInt32.self) { found.append($0.pointee) }
        if let uids { found = found.filter { uids.contains($0) } }
        return found.sorted()
    }

    private static func makeSearchKey(
        since: Date?, uids: UIDSet?, unseenOnly: Bool
    ) -> UnsafeMutablePointer<mailimap_search_key>? {
        guard since != nil || uids != nil || unseenOnly else { return mailimap_search_key_new_all() }
        guard let key = mailimap_search_key_new_multiple_empty() else { return nil }
        if unseenOnly {
            // libetpan has no helper for UNSEEN; the general constructor with every field empty.
            if let unseen = mailimap_search_key_new(
                Int32(MAILIMAP_SEARCH_KEY_UNSEEN), nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil,
                nil, 0, nil, nil, nil, nil, nil, nil, 0, nil, nil, nil) {
                if mailimap_search_key_multiple_add(key, unseen) != MAILIMAP_NO_ERROR { mailimap_search_key_free(unseen) }
            }
        }
        if let since, let date = makeDate(since) {
            if let sinceKey = mailimap_search_key_new_since(date) {
                if mailimap_search_key_multiple_add(key, sinceKey) != MAILIMAP_NO_ERROR { mailimap_search_key_free(sinceKey) }
            } else {
                mailimap_date_free(date)
            }
        }
        if let uids, let set = makeSet(uids) {
            if let uidKey = mailimap_search_key_new_uid(set) {
                if mailimap_search_key_multiple_add(key, uidKey) != MAILIMAP_NO_ERROR { mailimap_search_key_free(uidKey) }
            } else {
                mailimap_set_free(set)
            }
        }
        return key
    }

    /// UID FETCH of `items` for `uids`, sorted by UID. Items the server does not offer (Gmail
    /// ids without X-GM-EXT-1, MODSEQ without CONDSTORE) are left out.
    func fetchMessages(_ uids: UIDSet, items: IMAPFetchItems) throws(IMAPError) -> [IMAPMessage] {
        try fetch(uids, items: items, changedSince: nil, operationName: "fetch messages from")
    }

    /// UID FETCH (FLAGS [MODSEQ]) for `uids`, only for messages changed after `changedSince`
    /// when given (CONDSTORE's CHANGEDSINCE).
    func fetchFlags(_ uids: UIDSet, changedSince: UInt64?) throws(IMAPError) -> [IMAPMessageFlags] {
        if changedSince != nil && !capabilities.condstore {
            throw makeError(
                .unsupported, "fetch changed flags from",
                reason: "the server has no CONDSTORE; sweep all flags instead")
        }
        let messages = try fetch(uids, items: [.flags, .modSeq], changedSince: changedSince, operationName: "fetch flags from")
        return messages.map { IMAPMessageFlags(uid: $0.uid, flags: $0.flags ?? [], modSeq: $0.modSeq) }
    }

    /// One UID FETCH through libetpan for everything but the message itself; with
    /// `.rawMessage`, a second UID FETCH of `BODY.PEEK[HEADER] BODY.PEEK[TEXT]` read by
    /// `fetchBodies`. Messages the second command does not return (expunged in between) are
    /// left out, as a single FETCH would have left them out.
    private func fetch(
        _ uids: UIDSet, items: IMAPFetchItems, changedSince: UInt64?, operationName: String
    ) throws(IMAPError) -> [IMAPMessage] {
        let (imap, mailbox) = try selectedSession(operationName)
        let operation = "\(operationName) \"\(mailbox)\" on"
        if uids.isEmpty { return [] }
        var attributes = items
        attributes.remove(.rawMessage)
        guard items.contains(.rawMessage) else {
            return try fetchAttributes(uids, items: attributes, changedSince: changedSince, imap: imap, mailbox: mailbox, operation: operation)
        }
        // Attributes first: Dovecot then measures the message itself in the second command.
        let messages = attributes.isEmpty
            ? nil : try fetchAttributes(uids, items: attributes, changedSince: changedSince, imap: imap, mailbox: mailbox, operation: operation)
        let bodies = try fetchBodies(uids, operation: operation)
        guard let messages else {
            return bodies.map { IMAPMessage(uid: $0.key, sequenceNumber: $0.value.sequenceNumber, rawMessage: $0.value.raw) }
                .sorted { $0.uid < $1.uid }
        }
        return messages.compactMap { message in
            guard let body = bodies[message.uid] else { return nil }
            var message = message
            message.rawMessage = body.raw
            return message
        }
    }

    private func fetchAttributes(
        _ uids: UIDSet, items: IMAPFetchItems, changedSince: UInt64?, imap: UnsafeMutablePointer<mailimap>,
        mailbox: String, operation: String
    ) throws(IMAPError) -> [IMAPMessage] {
        // Ownership: the fetch type and the set are ours (freed below); attributes added to
        // the fetch type belong to it.
        guard let fetchType = makeFetchType(items), let set = Self.makeSet(uids) else {
            throw makeError(.protocolError, operation, reason: "out of memory")
        }
        defer {
            mailimap_fetch_type_free(fetchType)
            mailimap_set_free(set)
        }
        var result: UnsafeMutablePointer<clist>?
        // Ownership: the result is a new clist of mailimap_msg_att; freed with
        // mailimap_fetch_list_free. (mailimap_uid_fetch is CHANGEDSINCE 0 in libetpan.)
        let code = mailimap_uid_fetch_changedsince(imap, set, fetchType, changedSince ?? 0, &result)
        try check(code, operation, mailbox: mailbox)
        defer { if let result { mailimap_fetch_list_free(result) } }
        var messages: [IMAPMessage] = []
        forEach(result, as: mailimap_msg_att.self) { attributes in
            if let message = Self.message(from: attributes), uids.contains(message.uid) { messages.append(message) }
        }
        return messages.sorted { $0.uid < $1.uid }
    }

    /// The messages `uids` as `BODY.PEEK[HEADER]` followed by `BODY.PEEK[TEXT]` (together
    /// exactly `BODY[]`), by UID, read outside libetpan's parser.
    ///
    /// Two reasons. libetpan 1.9.4 (Debian's) reads a literal until it has every byte the
    /// server announced and takes a read of 0 bytes (the server closed the connection) as
    /// "nothing yet", so a server that dies inside a message makes it spin for ever (fixed
    /// upstream after 1.9.4, "Handle EOF while reading IMAP literals"); here a closed
    /// connection is `.connectionLost`. And Dovecot announces `BODY[]` with the size in a
    /// Maildir file's name (`W=`): a file whose `W=` is wrong (written by hand with CRLF line
    /// ends counted twice) gets a literal longer than the message, and Dovecot disconnects
    /// after it ("FETCH BODY[] got too little data"). The header and the text it measures
    /// from the message itself, when its size was not asked for in the same command, so
    /// those messages arrive whole.
    private func fetchBodies(_ uids: UIDSet, operation: String) throws(IMAPError) -> [UInt32: (sequenceNumber: UInt32, raw: Data)] {
        let tag = try sendRawCommand("UID FETCH \(uids) (UID BODY.PEEK[HEADER] BODY.PEEK[TEXT])", operation: operation)
        let tagPrefix = Array((tag + " ").utf8)
        var sections: [UInt32: (sequenceNumber: UInt32, parts: [String: Data])] = [:]
        while true {
            let line = try readLine(operation: operation)
            if line.starts(with: tagPrefix) {
                let answer = String(decoding: line.dropFirst(tagPrefix.count), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                guard answer.uppercased().hasPrefix("OK") else {
                    throw makeError(.commandFailed, operation, server: answer)
                }
                break
            }
            if line.starts(with: Array("* BYE".utf8)) {
                let text = String(decoding: line.dropFirst(5), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                throw bye(text, operation: operation)
            }
            // Unsolicited responses (EXISTS, EXPUNGE, flag changes of other messages) are
            // skipped; a server may split one message's items over several FETCH responses.
            guard let response = FetchedBodySections(line), let uid = response.uid, uids.contains(uid),
                  !response.sections.isEmpty
            else { continue }
            sections[uid, default: (response.sequenceNumber, [:])].parts.merge(response.sections) { $1 }
        }
        return sections.mapValues { found in
            let raw = found.parts[""] ?? (found.parts["HEADER"] ?? Data()) + (found.parts["TEXT"] ?? Data())
            return (found.sequenceNumber, raw)
        }
    }

    private func makeFetchType(_ items: IMAPFetchItems) -> UnsafeMutablePointer<mailimap_fetch_type>? {
        guard let fetchType = mailimap_fetch_type_new_fetch_att_list_empty() else { return nil }
        var attributes: [UnsafeMutablePointer<mailimap_fetch_att>?] = [mailimap_fetch_att_new_uid()]
        if items.contains(.flags) { attributes.append(mailimap_fetch_att_new_flags()) }
        if items.contains(.size) { attributes.append(mailimap_fetch_att_new_rfc822_size()) }
        if items.contains(.internalDate) { attributes.append(mailimap_fetch_att_new_internaldate()) }
        if items.contains(.gmailThreadID) && capabilities.gmail { attributes.append(mailimap_fetch_att_new_xgmthrid()) }
        if items.contains(.gmailMessageID) && capabilities.gmail { attributes.append(mailimap_fetch_att_new_xgmmsgid()) }
        if items.contains(.modSeq) && capabilities.condstore { attributes.append(mailimap_fetch_att_new_modseq()) }
        for attribute in attributes {
            guard let attribute else { continue }
            if mailimap_fetch_type_new_fetch_att_list_add(fetchType, attribute) != MAILIMAP_NO_ERROR {
                mailimap_fetch_att_free(attribute)
            }
        }
        return fetchType
    }

    /// UID STORE of flags, silently (the server sends no FETCH back).
    func storeFlags(_ flags: Set<IMAPFlag>, _ change: IMAPFlagOperation, uids: UIDSet) throws(IMAPError) {
        let (imap, mailbox) = try selectedSession("store flags in")
        let operation = "store flags in \"\(mailbox)\" on"
        if uids.isEmpty { return }
        if flags.isEmpty && change != .replace { return }
        let list = try makeFlagList(flags, operation: operation)
        // Ownership: the store attribute takes the flag list; we free the attribute and the set.
        let storeAttribute: UnsafeMutablePointer<mailimap_store_att_flags>? =
            switch change {
            case .add: mailimap_store_att_flags_new_add_flags_silent(list)
            case .remove: mailimap_store_att_flags_new_remove_flags_silent(list)
            case .replace: mailimap_store_att_flags_new_set_flags_silent(list)
            }
        guard let storeAttribute else {
            mailimap_flag_list_free(list)
            throw makeError(.protocolError, operation, reason: "out of memory")
        }
        defer { mailimap_store_att_flags_free(storeAttribute) }
        guard let set = Self.makeSet(uids) else { throw makeError(.protocolError, operation, reason: "out of memory") }
        defer { mailimap_set_free(set) }
        try check(mailimap_uid_store(imap, set, storeAttribute), operation, mailbox: mailbox)
    }

    /// UID STORE (UNCHANGEDSINCE `modSeq`) of flags, silently (CONDSTORE, RFC 7162 §3.1.3): the
    /// server changes only messages whose mod-sequence is still at most `modSeq` and answers
    /// with the UIDs it left alone (`OK [MODIFIED …]`), which are returned. `.unsupported`
    /// without CONDSTORE. Written and read here: libetpan 1.9.4's own
    /// `mailimap_uid_store_unchangedsince` sends a command Dovecot refuses.
    func storeFlags(_ flags: Set<IMAPFlag>, _ change: IMAPFlagOperation, uids: UIDSet,
                    unchangedSince modSeq: UInt64) throws(IMAPError) -> Set<UInt32> {
        let (_, mailbox) = try selectedSession("store flags in")
        let operation = "store flags conditionally in \"\(mailbox)\" on"
        guard capabilities.condstore else {
            throw makeError(.unsupported, operation, mailbox: mailbox,
                            reason: "the server has no CONDSTORE; a conditional STORE cannot be sent")
        }
        if uids.isEmpty || (flags.isEmpty && change != .replace) { return [] }
        var names: [String] = []
        for flag in flags.sorted(by: { $0.name < $1.name }) {
            let name = flag.isSystemFlag ? String(flag.name.dropFirst()) : flag.name
            guard Self.isAtom(name), flag != .recent else {
                throw makeError(.invalidRequest, operation, mailbox: mailbox, reason: "\"\(flag.name)\" cannot be stored as a flag")
            }
            names.append(flag.name)
        }
        let item = switch change {
            case .add: "+FLAGS.SILENT"
            case .remove: "-FLAGS.SILENT"
            case .replace: "FLAGS.SILENT"
            }
        let tag = try sendRawCommand(
            "UID STORE \(uids) (UNCHANGEDSINCE \(modSeq)) \(item) (\(names.joined(separator: " ")))", operation: operation)
        let (_, text) = try readUntilTaggedAnswer(tag, operation: operation)
        // `[MODIFIED 7,9:11] …`
        guard text.uppercased().hasPrefix("[MODIFIED "), let close = text.firstIndex(of: "]") else { return [] }
        let set = text[text.index(text.startIndex, offsetBy: 10)..<close]
        return Set(IMAPResponseLine.uids(in: String(set)))
    }

    /// UID COPY; the COPYUID mapping when the server has UIDPLUS.
    func copy(_ uids: UIDSet, to destination: String) throws(IMAPError) -> IMAPCopyResult? {
        let (imap, mailbox) = try selectedSession("copy messages from")
        let operation = "copy messages from \"\(mailbox)\" to \"\(destination)\" on"
        if uids.isEmpty { return nil }
        return try transfer(uids, to: destination, imap: imap, mailbox: mailbox, operation: operation,
                            withUIDPlus: mailimap_uidplus_uid_copy, plain: mailimap_uid_copy)
    }

    /// UID MOVE when the server has MOVE; otherwise UID COPY, then the originals are deleted
    /// by the one rule (`deleteMessages`: `\Deleted` and UID EXPUNGE of just them with UIDPLUS,
    /// only flagged without it, since a plain EXPUNGE would also remove messages other clients
    /// marked deleted).
    func move(_ uids: UIDSet, to destination: String) throws(IMAPError) -> IMAPCopyResult? {
        let (imap, mailbox) = try selectedSession("move messages from")
        let operation = "move messages from \"\(mailbox)\" to \"\(destination)\" on"
        if uids.isEmpty { return nil }
        guard capabilities.move else {
            let result = try copy(uids, to: destination)
            try deleteMessages(uids)
            return result
        }
        return try transfer(uids, to: destination, imap: imap, mailbox: mailbox, operation: operation,
                            withUIDPlus: mailimap_uidplus_uid_move, plain: mailimap_uid_move)
    }

    /// UID COPY or UID MOVE (`plain`), or their UIDPLUS forms when the server has UIDPLUS,
    /// returning the COPYUID mapping then.
    private func transfer(
        _ uids: UIDSet, to destination: String, imap: UnsafeMutablePointer<mailimap>, mailbox: String, operation: String,
        withUIDPlus: (UnsafeMutablePointer<mailimap>?, UnsafeMutablePointer<mailimap_set>?, UnsafePointer<CChar>?,
                      UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UnsafeMutablePointer<mailimap_set>?>?,
                      UnsafeMutablePointer<UnsafeMutablePointer<mailimap_set>?>?) -> Int32,
        plain: (UnsafeMutablePointer<mailimap>?, UnsafeMutablePointer<mailimap_set>?, UnsafePointer<CChar>?) -> Int32
    ) throws(IMAPError) -> IMAPCopyResult? {
        guard let set = Self.makeSet(uids) else { throw makeError(.protocolError, operation, reason: "out of memory") }
        defer { mailimap_set_free(set) }
        let encoded = ModifiedUTF7.encode(destination)
        if capabilities.uidPlus {
            var uidValidity: UInt32 = 0
            var sourceSet: UnsafeMutablePointer<mailimap_set>?
            var destinationSet: UnsafeMutablePointer<mailimap_set>?
            // Ownership: the returned source and destination sets are new; freed below.
            let code = withUIDPlus(imap, set, encoded, &uidValidity, &sourceSet, &destinationSet)
            defer { Self.free(sourceSet, destinationSet) }
            try check(code, operation, mailbox: mailbox)
            return Self.copyResult(uidValidity, sourceSet, destinationSet)
        }
        try check(plain(imap, set, encoded), operation, mailbox: mailbox)
        return nil
    }

    private static func free(_ sets: UnsafeMutablePointer<mailimap_set>?...) {
        for set in sets { if let set { mailimap_set_free(set) } }
    }

    private static func copyResult(
        _ uidValidity: UInt32, _ source: UnsafeMutablePointer<mailimap_set>?,
        _ destination: UnsafeMutablePointer<mailimap_set>?
    ) -> IMAPCopyResult? {
        guard uidValidity != 0 else { return nil }
        let from = numbers(in: source)
        let to = numbers(in: destination)
        guard from.count == to.count else { return IMAPCopyResult(uidValidity: uidValidity, uidMapping: [:]) }
        return IMAPCopyResult(uidValidity: uidValidity, uidMapping: Dictionary(zip(from, to), uniquingKeysWith: { $1 }))
    }

    /// UID EXPUNGE (UIDPLUS): removes just these messages, if they are flagged `\Deleted`.
    func expunge(_ uids: UIDSet) throws(IMAPError) {
        let (imap, mailbox) = try selectedSession("expunge messages from")
        let operation = "expunge messages from \"\(mailbox)\" on"
        if uids.isEmpty { return }
        guard capabilities.uidPlus else {
            throw makeError(
                .unsupported, operation,
                reason: "the server has no UIDPLUS, so only a mailbox-wide EXPUNGE is possible (expungeAll)")
        }
        guard let set = Self.makeSet(uids) else { throw makeError(.protocolError, operation, reason: "out of memory") }
        defer { mailimap_set_free(set) }
        try check(mailimap_uid_expunge(imap, set), operation, mailbox: mailbox)
    }

    /// EXPUNGE: removes every message flagged `\Deleted` in the selected mailbox.
    func expungeAll() throws(IMAPError) {
        let (imap, mailbox) = try selectedSession("expunge")
        try check(mailimap_expunge(imap), "expunge \"\(mailbox)\" on", mailbox: mailbox)
    }

    /// APPEND. libetpan sends the message as a literal with every line ending as CRLF (a bare
    /// LF or CR becomes CRLF), as IMAP requires; a message built with CRLF arrives byte for byte.
    func append(
        _ message: Data, to mailbox: String, flags: Set<IMAPFlag>, internalDate: Date?
    ) throws(IMAPError) -> IMAPAppendResult? {
        let operation = "append a message to \"\(mailbox)\" on"
        let imap = try session(operation)
        guard !message.isEmpty else {
            throw makeError(.invalidRequest, operation, mailbox: mailbox, reason: "the message is empty")
        }
        // Ownership: the flag list and the date-time are ours; APPEND only reads them.
        let flagList = flags.isEmpty ? nil : try makeFlagList(flags, operation: operation)
        defer { if let flagList { mailimap_flag_list_free(flagList) } }
        let dateTime = internalDate.flatMap { Self.makeDateTime($0) }
        defer { if let dateTime { mailimap_date_time_free(dateTime) } }
        let encoded = ModifiedUTF7.encode(mailbox)
        var uidValidity: UInt32 = 0
        var uid: UInt32 = 0
        let code = message.withUnsafeBytes { bytes -> Int32 in
            let pointer = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
            return capabilities.uidPlus
                ? mailimap_uidplus_append(imap, encoded, flagList, dateTime, pointer, bytes.count, &uidValidity, &uid)
                : mailimap_append(imap, encoded, flagList, dateTime, pointer, bytes.count)
        }
        try check(code, operation, mailbox: mailbox)
        return uid == 0 ? nil : IMAPAppendResult(uidValidity: uidValidity, uid: uid)
    }
}
