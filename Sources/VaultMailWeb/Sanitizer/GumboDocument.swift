internal import CGumbo

/// One parse of an HTML document by gumbo: owns everything the parse allocated and frees it in
/// `deinit`.
///
/// The tree is read-only and lives exactly as long as this object: nodes handed out by `root`
/// must not outlive it. Not `Sendable`: one sanitize call creates, walks and drops it.
///
/// gumbo allocates from an arena (see `shim.h`) rather than malloc, and the arena is released
/// whole instead of calling `gumbo_destroy_output`, which recurses once per tree level: hostile
/// markup can make the tree deep enough to overflow a thread's stack there.
final class GumboDocument {
    private let output: UnsafeMutablePointer<GumboOutput>
    private let arena: UnsafeMutablePointer<VMGumboArena>
    /// The parsed text: gumbo's nodes point into it (`original_tag`, `original_text`), so it
    /// lives as long as the tree.
    private let source: UnsafeMutableBufferPointer<CChar>

    /// Parses `html` (UTF-8 bytes, no terminator needed) as a whole document, the way a browser would.
    init(parsing html: [UInt8]) {
        source = .allocate(capacity: max(html.count, 1))
        _ = source.withMemoryRebound(to: UInt8.self) { $0.initialize(from: html) }
        arena = .allocate(capacity: 1)
        arena.initialize(to: VMGumboArena(current: nil))
        var options = kGumboDefaultOptions
        options.allocator = vm_gumbo_arena_allocate
        options.deallocator = vm_gumbo_arena_deallocate
        options.userdata = UnsafeMutableRawPointer(arena)
        // Parse errors are not read; recording them copies the open-element stack for each one.
        options.max_errors = 0
        output = gumbo_parse_with_options(&options, source.baseAddress!, html.count)
    }

    deinit {
        vm_gumbo_arena_release(arena)  // the whole tree, its strings and vectors, and `output`
        arena.deallocate()
        source.deallocate()
    }

    /// The document node (its children: `<html>` and any comments around it).
    var root: ParsedNode { ParsedNode(pointer: output.pointee.document) }
}
