/// Where an appended message landed, from the APPENDUID response code (UIDPLUS).
public struct IMAPAppendResult: Sendable, Hashable {
    public var uidValidity: UInt32
    public var uid: UInt32

    public init(uidValidity: UInt32, uid: UInt32) {
        self.uidValidity = uidValidity
        self.uid = uid
    }
}
