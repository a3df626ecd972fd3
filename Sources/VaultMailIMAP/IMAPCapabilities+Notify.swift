extension IMAPCapabilities {
    /// NOTIFY (RFC 5465): the server reports changes of other mailboxes than the selected one
    /// as untagged STATUS, also during IDLE (Dovecot with its mailbox list index, the default).
    public var notify: Bool { contains("NOTIFY") }
}
