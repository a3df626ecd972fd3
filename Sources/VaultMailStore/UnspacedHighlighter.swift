import VaultMailCore

/// Snippets for words of scripts without spaces (CJK), which FTS5's `snippet()` cannot mark:
/// it sees character pairs, not the words. Finds the first occurrence in the text and marks
/// every occurrence within a window around it.
enum UnspacedHighlighter {
    static func snippet(_ text: String, words: [String], radius: Int = 40) -> SearchSnippet? {
        let characters = Array(text)
        let targets = words.map(Array.init).filter { !$0.isEmpty }
        guard let first = characters.indices.first(where: { match(characters, targets, at: $0) != nil }) else { return nil }
        let start = max(0, first - radius)
        let end = min(characters.count, first + radius * 2)
        var marked = start > 0 ? "…" : ""
        var index = start
        while index < end {
            if let length = match(characters, targets, at: index), index + length <= end {
                marked.append(SearchSnippet.openMark)
                marked += String(characters[index..<index + length])
                marked.append(SearchSnippet.closeMark)
                index += length
            } else {
                marked.append(characters[index])
                index += 1
            }
        }
        if end < characters.count { marked += "…" }
        return SearchSnippet(marked: marked)
    }

    /// The length of the longest target that starts at `index`, if one does.
    private static func match(_ text: [Character], _ targets: [[Character]], at index: Int) -> Int? {
        targets.filter { index + $0.count <= text.count && text[index..<index + $0.count].elementsEqual($0) }
            .map(\.count).max()
    }
}
