import VaultMailCore
internal import CGPGME

/// One GPGME data buffer (`gpgme_data_t`), released in `deinit` unless its bytes were taken.
final class GPGMEData {
    private(set) var pointer: gpgme_data_t?

    /// An empty buffer for GPGME to write into.
    init() throws(OpenPGPError) {
        var data: gpgme_data_t?
        try GPGMELibrary.check(gpgme_data_new(&data), "make a buffer")
        pointer = data
    }

    /// A buffer holding a copy of `bytes`.
    init(copying bytes: [UInt8]) throws(OpenPGPError) {
        var data: gpgme_data_t?
        let error = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { gpgme_data_new_from_mem(&data, $0.baseAddress, $0.count, 1) } // 1: copies
        }
        try GPGMELibrary.check(error, "read the data")
        pointer = data
    }

    /// The bytes GPGME wrote, taking the buffer over (it is released here).
    func take() -> [UInt8] {
        guard let data = pointer else { return [] }
        pointer = nil
        var length = 0
        // (transfer full) Memory GPGME allocated, freed with gpgme_free; the buffer is released.
        guard let memory = gpgme_data_release_and_get_mem(data, &length) else { return [] }
        defer { gpgme_free(memory) }
        return memory.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }

    deinit {
        if let pointer { gpgme_data_release(pointer) }
    }
}
