import GRDB
import VaultMailCore

// SQLite's errors as Core reads them (issue 34): a write that found the disk full
// (SQLITE_FULL: "database or disk is full") is a full disk, in its own words, wherever it
// surfaces (an action, a sync, a setting). Declared here, where GRDB is imported, so Core never
// sees GRDB; the conformance is the store's alone (no other module conforms GRDB's error).
extension DatabaseError: StorageFailure {
    public var isDiskFull: Bool { resultCode == .SQLITE_FULL }
}

extension DatabaseError: PlainWordsError {
    public var plainWords: String {
        isDiskFull ? PlainWords.diskFull : "The mail store on this computer couldn't be read or written. Try again; the details say what failed."
    }
}
