import VaultMailCore

/// Walks a parsed mail and writes the allowed part of it as markup that a browser parses back
/// into the same tree.
///
/// The walk is iterative (an explicit stack of frames), and elements nested deeper than
/// `maximumDepth` are flattened to their content. Besides the allowlist, the serializer keeps
/// the parser's own rules: an element is written only where re-parsing would not move it (no
/// block inside an open `<p>`, no `<li>` directly in an `<li>`, no `<a>` in an `<a>`, table parts
/// only inside their table), and otherwise only its content is written.
struct SanitizingSerializer {
    static let maximumDepth = 512

    private var body: MarkupBuffer
    private var styles: [UInt8] = []
    private var resources: ResourcePolicy
    private let foldQuotes: Bool
    /// The elements written and not yet closed, innermost last.
    private var open: [ElementRule] = []

    /// The children of one node being written.
    private struct Frame {
        let children: ParsedNode.Children
        var next: Int
        let end: Int
        /// What closes when the children are done: an element's end tag, or nothing.
        let closing: String?
        /// Whether the node was written as an element (table parts need their parent written).
        let ownerWritten: Bool
        /// Whether text here is content (not under `<html>` or `<head>`, where it is only whitespace).
        let textAllowed: Bool
        /// Whether quotes may still be folded (not inside a fold already).
        let foldable: Bool
        /// Whether an element around the children hides them (`display:none`, …): their images
        /// cannot be seen (the tracker shield's question).
        var hidden = false
    }

    static func serialize(_ document: GumboDocument, options: HTMLSanitizer.Options, sizeHint: Int) -> SanitizedHTML {
        var serializer = SanitizingSerializer(options: options, sizeHint: sizeHint)
        // The nodes walked point into `document`: it must outlive the walk.
        withExtendedLifetime(document) { serializer.walk(document.root) }
        serializer.body.trimLeadingWhitespace()
        var output = MarkupBuffer(capacity: serializer.styles.count + serializer.body.bytes.count + 16)
        if !serializer.styles.isEmpty {
            output.append("<style>")
            output.append(raw: serializer.styles)
            output.append("</style>")
        }
        output.append(raw: serializer.body.bytes)
        return SanitizedHTML(html: String(decoding: output.bytes, as: UTF8.self),
                             blockedRemoteContent: serializer.resources.blockedRemoteContent,
                             contentIds: serializer.resources.contentIds, trackers: serializer.resources.trackers)
    }

    private init(options: HTMLSanitizer.Options, sizeHint: Int) {
        body = MarkupBuffer(capacity: sizeHint)
        resources = ResourcePolicy(options: options)
        foldQuotes = options.foldQuotes
    }

    private mutating func walk(_ document: ParsedNode) {
        let children = document.children
        var frames = [Frame(children: children, next: 0, end: children.count, closing: nil,
                            ownerWritten: false, textAllowed: false, foldable: true)]
        while let frame = frames.last {
            guard frame.next < frame.end else {
                frames.removeLast()
                if let closing = frame.closing { close(closing) }
                continue
            }
            let index = frame.next
            frames[frames.count - 1].next += 1
            let node = frame.children[index]
            switch node.kind {
            case .text, .whitespace:
                if frame.textAllowed { body.append(text: node.textBytes) }
            case .element:
                if foldQuotes, frame.foldable, let end = QuoteFolding.foldEnd(in: frame.children, at: index, end: frame.end),
                   canOpen(Self.details, room: 2) {
                    frames[frames.count - 1].next = end
                    body.append("<details class=\"quoted\"><summary>Show quoted text</summary>")
                    open.append(Self.details)
                    frames.append(Frame(children: frame.children, next: index, end: end, closing: "details",
                                        ownerWritten: false, textAllowed: true, foldable: false))
                } else if let child = enter(node, in: frame) {
                    frames.append(child)
                }
            case .document, .other:
                break
            }
        }
    }

    private static let details = ElementRule(name: "details", action: .keep)
    private static let image = ElementRule(name: "img", action: .image)
    private static let bodyAttributes = ElementRule.allowedAttributes.subtracting(["id", "class"])

    /// Writes what `element` opens and returns the frame for its children, if they are walked.
    private mutating func enter(_ element: ParsedNode, in parent: Frame) -> Frame? {
        var rule = ElementRule.rule(for: element)
        switch rule.action {
        case .drop:
            return nil
        case .style:
            appendStyleSheet(of: element)
            return nil
        case .image:
            appendImage(element, hiddenAround: parent.hidden)
            return nil
        case .head:
            return frame(for: element, closing: nil, in: parent, textAllowed: false)
        case .unwrap:
            return frame(for: element, closing: nil, in: parent, textAllowed: rule.name != "html")
        case .body:
            // Its colours and margins matter to newsletters: they move to a <div> (without the
            // id and class, which could make that <div> look like a quote the next time).
            guard element.attributes.contains(where: { Self.bodyAttributes.contains($0.name) }) else {
                return frame(for: element, closing: nil, in: parent)
            }
            rule = ElementRule.body
        case .keep, .link:
            break
        }
        guard canOpen(rule, parentWritten: parent.ownerWritten) else { return frame(for: element, closing: nil, in: parent) }
        body.append("<")
        body.append(raw: rule.name.utf8)
        appendAttributes(of: element, rule: rule)
        body.append(">")
        if rule.traits.contains(.void) { return nil }
        // A parser drops one newline right after <pre>: this one, so the content keeps its own.
        if rule.name == "pre" { body.append("\n") }
        open.append(rule)
        // A <details> already folds its content: nothing inside it is folded again.
        return frame(for: element, closing: rule.name, in: parent, foldable: rule.name != "details")
    }

    private func frame(for element: ParsedNode, closing: String?, in parent: Frame, textAllowed: Bool = true,
                       foldable: Bool = true) -> Frame {
        let children = element.children
        let hidden = parent.hidden || (resources.shield != nil && element.attribute("style").map(ImageFacts.hidesContent(style:)) == true)
        return Frame(children: children, next: 0, end: children.count, closing: closing,
                     ownerWritten: closing != nil, textAllowed: textAllowed, foldable: parent.foldable && foldable, hidden: hidden)
    }

    private mutating func close(_ name: String) {
        body.append("</")
        body.append(raw: name.utf8)
        body.append(">")
        open.removeLast()
    }

    // MARK: - Where an element may be written

    /// Whether writing `rule` here re-parses into the same place (else only its content is written).
    /// `room`: the depth it needs (a table needs four levels, a fold two).
    private func canOpen(_ rule: ElementRule, parentWritten: Bool = false, room: Int = 1) -> Bool {
        let traits = rule.traits
        // Table parts follow their table, which reserved room for them below the depth limit.
        if traits.contains(.tablePart) { return parentWritten }
        guard open.count + (rule.name == "table" ? 4 : room) <= Self.maximumDepth else { return false }
        if traits.contains(.closesParagraph), isOpen(where: { $0.name == "p" }, stoppingAt: { $0.traits.contains(.scopeBoundary) }) {
            return false
        }
        if traits.contains(.listItem) || traits.contains(.definitionItem) {
            let kind = traits.intersection([.listItem, .definitionItem])
            let itemOpen = isOpen(where: { !$0.traits.intersection(kind).isEmpty }, stoppingAt: {
                $0.traits.contains(.special) && !["address", "div", "p"].contains($0.name)
            })
            if itemOpen { return false }
        }
        if rule.name == "a", isOpen(where: { $0.name == "a" }, stoppingAt: { $0.traits.contains(.marker) }) { return false }
        if traits.contains(.heading), open.last?.traits.contains(.heading) == true { return false }
        return true
    }

    private func isOpen(where matches: (ElementRule) -> Bool, stoppingAt stops: (ElementRule) -> Bool) -> Bool {
        for rule in open.reversed() {
            if matches(rule) { return true }
            if stops(rule) { return false }
        }
        return false
    }

    // MARK: - Attributes

    private mutating func appendAttributes(of element: ParsedNode, rule: ElementRule) {
        let href = rule.action == .link ? element.attribute("href").flatMap { resources.link($0) } : nil
        for (name, value) in element.attributes {
            if name == "background" {
                resources.noteDroppedResource(value)
                continue
            }
            guard ElementRule.allowedAttributes.contains(name), rule.action != .body || Self.bodyAttributes.contains(name) else { continue }
            switch name {
            case "style":
                let css = CSSSanitizer.sanitizeDeclarations(value, resources: &resources)
                if !css.isEmpty { body.appendAttribute(name, css) }
            case "type" where !["ol", "ul", "li"].contains(rule.name),
                 "open" where rule.name != "details",
                 "title" where href != nil:
                continue
            default:
                body.appendAttribute(name, value)
            }
        }
        if let href {
            // The title shows the real target, whatever the link text claims.
            body.appendAttribute("href", href)
            body.appendAttribute("title", href)
            body.append(" target=\"_blank\" rel=\"noopener noreferrer\"")
        }
    }

    // MARK: - Images and styles

    /// An image whose source is allowed, else its alt text; `hiddenAround`: an element around it
    /// is hidden.
    private mutating func appendImage(_ element: ParsedNode, hiddenAround: Bool) {
        let facts = ImageFacts(widthAttribute: element.attribute("width"), heightAttribute: element.attribute("height"),
                               style: element.attribute("style"), hiddenAround: hiddenAround)
        let source = element.attribute("src").flatMap { resources.imageSource($0, facts: facts) }
        let alt = element.attribute("alt") ?? ""
        if let source, canOpen(Self.image) {
            body.append("<img")
            body.appendAttribute("src", source)
            if !alt.isEmpty { body.appendAttribute("alt", alt) }
            appendAttributes(of: element, rule: Self.image)
            body.append(">")
        } else if alt.contains(where: { !$0.isWhitespace }) {
            if open.count < Self.maximumDepth {
                body.append("<span>")
                body.append(text: alt)
                body.append("</span>")
            } else {
                body.append(text: alt)
            }
        }
    }

    /// A `<style>` element's CSS, sanitized, for the style sheet placed before the body.
    private mutating func appendStyleSheet(of element: ParsedNode) {
        var css: [UInt8] = []
        let children = element.children
        for index in 0..<children.count where children[index].kind == .text || children[index].kind == .whitespace {
            css.append(contentsOf: children[index].textBytes)
        }
        styles.append(contentsOf: CSSSanitizer.sanitizeStyleSheet(css, resources: &resources))
    }
}
