internal import CGMime

/// Reading GMime streams back into Swift.
enum MemoryStream {
    /// The bytes written so far to a stream made by `g_mime_stream_mem_new`.
    static func bytes(of stream: GObjectHandle<GMimeStream>) -> [UInt8] {
        var length = 0
        // The buffer belongs to the stream, which `stream` keeps alive for this call.
        guard let base = cgmime_mem_stream_bytes(stream.pointer, &length), length > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: length))
    }
}
