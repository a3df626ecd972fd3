internal import CGMime

/// Owns one reference to a GObject (a GMime message, stream, …) and drops it in `deinit`.
///
/// Ownership rule: wrap only pointers a call returned as "transfer full" (a new reference),
/// and wrap each such pointer once. Pointers returned as "transfer none" (getters such as
/// `g_mime_message_get_mime_part`) belong to their parent object: use them only while the
/// handle owning that parent is alive, and never wrap them.
final class GObjectHandle<Pointee> {
    let pointer: UnsafeMutablePointer<Pointee>

    /// Takes over the one reference `pointer` carries.
    init(owning pointer: UnsafeMutablePointer<Pointee>) {
        self.pointer = pointer
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }
}
