import Foundation
internal import CEtPan

/// LIST, SELECT / EXAMINE, CREATE, DELETE, RENAME.
extension IMAPSession {
    /// Every mailbox, with its attributes. Uses `LIST "" "*" RETURN (SPECIAL-USE CHILDREN)`
    /// when the server has SPECIAL-USE and LIST-EXTENDED, so special-use attributes are
    /// included even by servers that leave them out of a plain LIST.
    func listFolders() throws(IMAPError) -> [IMAPFolder] {
        let operation = "list the mailboxes on"
        let imap = try session(operation)
        var folders: [IMAPFolder] = []
        if capabilities.specialUse && capabilities.contains("LIST-EXTENDED") {
            try check(mailimap_custom_command(imap, "LIST \"\" \"*\" RETURN (SPECIAL-USE CHILDREN)"), operation)
            // Ownership: the LIST responses stay in the session's response info (libetpan's),
            // valid until the next command; they are copied out at once.
            folders = Self.folders(from: imap.pointee.imap_response_info?.pointee.rsp_mailbox_list)
        } else {
            var list: UnsafeMutablePointer<clist>?
            // Ownership: mailimap_list returns a new clist of mailimap_mailbox_list; freed with
            // mailimap_list_result_free.
            try check(mailimap_list(imap, "", "*", &list), operation)
            defer { if let list { mailimap_list_result_free(list) } }
            folders = Self.folders(from: list)
        }
        return folders
    }

    private static func folders(from list: UnsafeMutablePointer<clist>?) -> [IMAPFolder] {
        var folders: [IMAPFolder] = []
        forEach(list, as: mailimap_mailbox_list.self) { entry in
            guard let rawName = entry.pointee.mb_name else { return }
            var path = ModifiedUTF7.decode(String(cString: rawName))
            if path.uppercased() == "INBOX" { path = "INBOX" }
            var attributes: Set<String> = []
            if let flags = entry.pointee.mb_flag {
                if Int(flags.pointee.mbf_type) == MAILIMAP_MBX_LIST_FLAGS_SFLAG {
                    switch Int(flags.pointee.mbf_sflag) {
                    case MAILIMAP_MBX_LIST_SFLAG_MARKED: attributes.insert("\\Marked")
                    case MAILIMAP_MBX_LIST_SFLAG_NOSELECT: attributes.insert("\\Noselect")
                    case MAILIMAP_MBX_LIST_SFLAG_UNMARKED: attributes.insert("\\Unmarked")
                    default: break
                    }
                }
                forEach(flags.pointee.mbf_oflags, as: mailimap_mbx_list_oflag.self) { flag in
                    if Int(flag.pointee.of_type) == MAILIMAP_MBX_LIST_OFLAG_NOINFERIORS {
                        attributes.insert("\\Noinferiors")
                    } else if let name = flag.pointee.of_flag_ext {
                        attributes.insert("\\" + String(cString: name))
                    }
                }
            }
            let delimiter = entry.pointee.mb_delimiter == 0
                ? nil : Character(Unicode.Scalar(UInt8(bitPattern: entry.pointee.mb_delimiter)))
            folders.append(IMAPFolder(path: path, delimiter: delimiter, attributes: attributes))
        }
        return folders
    }

    /// SELECT (or EXAMINE when `readOnly`), with CONDSTORE when the server has it so
    /// HIGHESTMODSEQ is reported and later fetches can ask for changes since a mod-sequence.
    func select(_ mailbox: String, readOnly: Bool) throws(IMAPError) -> IMAPMailboxStatus {
        let operation = "\(readOnly ? "examine" : "select") \"\(mailbox)\" on"
        let imap = try session(operation)
        let encoded = ModifiedUTF7.encode(mailbox)
        var modSeq: UInt64 = 0
        let code: Int32
        if capabilities.condstore {
            code = readOnly
                ? mailimap_examine_condstore(imap, encoded, &modSeq) : mailimap_select_condstore(imap, encoded, &modSeq)
        } else {
            code = readOnly ? mailimap_examine(imap, encoded) : mailimap_select(imap, encoded)
        }
        markSelected(nil)  // a failed SELECT leaves no mailbox selected (RFC 3501 §6.3.1)
        try check(code, operation, mailbox: mailbox)
        markSelected(mailbox)
        // Ownership: the selection info belongs to the session; it is read, not kept.
        guard let info = imap.pointee.imap_selection_info else {
            throw makeError(.protocolError, operation, mailbox: mailbox, reason: "the server sent no mailbox status")
        }
        var permanentFlags: Set<IMAPFlag> = []
        forEach(info.pointee.sel_perm_flags, as: mailimap_flag_perm.self) { permission in
            if Int(permission.pointee.fl_type) == MAILIMAP_FLAG_PERM_FLAG, let flag = permission.pointee.fl_flag,
                let converted = Self.flag(flag) {
                permanentFlags.insert(converted)
            }
        }
        return IMAPMailboxStatus(
            mailbox: mailbox,
            uidValidity: info.pointee.sel_uidvalidity,
            uidNext: info.pointee.sel_uidnext,
            exists: info.pointee.sel_exists,
            highestModSeq: modSeq == 0 ? nil : modSeq,
            isReadWrite: !readOnly && Int(info.pointee.sel_perm) != MAILIMAP_MAILBOX_READONLY,
            permanentFlags: permanentFlags)
    }

    func createMailbox(_ mailbox: String) throws(IMAPError) {
        let operation = "create \"\(mailbox)\" on"
        let imap = try session(operation)
        try check(mailimap_create(imap, ModifiedUTF7.encode(mailbox)), operation, mailbox: mailbox)
    }

    func deleteMailbox(_ mailbox: String) throws(IMAPError) {
        let operation = "delete \"\(mailbox)\" on"
        let imap = try session(operation)
        if selectedMailbox == mailbox { markSelected(nil) }
        try check(mailimap_delete(imap, ModifiedUTF7.encode(mailbox)), operation, mailbox: mailbox)
    }

    func renameMailbox(_ mailbox: String, to newName: String) throws(IMAPError) {
        let operation = "rename \"\(mailbox)\" to \"\(newName)\" on"
        let imap = try session(operation)
        try check(
            mailimap_rename(imap, ModifiedUTF7.encode(mailbox), ModifiedUTF7.encode(newName)), operation,
            mailbox: mailbox)
    }
}
