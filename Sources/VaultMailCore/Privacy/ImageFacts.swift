import Foundation

/// What the markup says about how big an image is and whether it is shown: its `width` and
/// `height` attributes, its inline style, and whether an element around it is hidden.
public struct ImageFacts: Sendable, Equatable {
    /// The width and height in CSS pixels, when the markup gives them (a percentage or `auto`: nil).
    public var width: Double?
    public var height: Double?
    /// Hidden by CSS (`display:none`, `visibility:hidden`, `opacity:0`), here or on an element around it.
    public var hidden: Bool

    public init(width: Double?, height: Double?, hidden: Bool) {
        self.width = width
        self.height = height
        self.hidden = hidden
    }

    /// Reads the attributes and the inline style (the style wins, as in a browser);
    /// `hiddenAround`: an element around the image is hidden.
    public init(widthAttribute: String?, heightAttribute: String?, style: String?, hiddenAround: Bool = false) {
        width = widthAttribute.flatMap(Self.pixels)
        height = heightAttribute.flatMap(Self.pixels)
        hidden = hiddenAround
        guard let style else { return }
        for (name, value) in Self.declarations(style) {
            switch name {
            case "width": if let pixels = Self.pixels(value) { width = pixels }
            case "height": if let pixels = Self.pixels(value) { height = pixels }
            case "max-width": if let pixels = Self.pixels(value), pixels < (width ?? .infinity) { width = pixels }
            case "max-height": if let pixels = Self.pixels(value), pixels < (height ?? .infinity) { height = pixels }
            default: if Self.hides(name, value) { hidden = true }
            }
        }
    }

    /// The largest size, in CSS pixels, of an image nobody can see.
    public static let invisibleSize = 2.0

    /// Whether nobody can see the image: hidden, 0 px either way, or 2 px or less both ways (or
    /// one way, the other not given: a 1×1 image scales to its width). A 600×1 rule is seen.
    public var isInvisible: Bool {
        if hidden || (width.map { $0 < 1 } ?? false) || (height.map { $0 < 1 } ?? false) { return true }
        switch (width, height) {
        case let (width?, height?): return width <= Self.invisibleSize && height <= Self.invisibleSize
        case let (width?, nil): return width <= Self.invisibleSize
        case let (nil, height?): return height <= Self.invisibleSize
        case (nil, nil): return false
        }
    }

    /// Whether an inline style hides its element (and so everything in it).
    public static func hidesContent(style: String) -> Bool {
        declarations(style).contains { hides($0.name, $0.value) }
    }

    private static func hides(_ name: String, _ value: String) -> Bool {
        switch name {
        case "display": value == "none"
        case "visibility": value == "hidden" || value == "collapse"
        case "opacity": Double(value) == 0
        default: false
        }
    }

    /// `name: value` pairs, lowercased, `!important` and spaces dropped.
    private static func declarations(_ style: String) -> [(name: String, value: String)] {
        style.lowercased().split(separator: ";").compactMap { declaration in
            guard let colon = declaration.firstIndex(of: ":") else { return nil }
            let name = declaration[..<colon].trimmingCharacters(in: .whitespacesAndNewlines)
            var value = declaration[declaration.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            if let bang = value.firstIndex(of: "!") { value = value[..<bang].trimmingCharacters(in: .whitespacesAndNewlines) }
            return (name: name, value: value)
        }
    }

    /// A length in CSS pixels: `1`, `1px`, `0.5px`, or `0` in any unit; nil for anything else.
    private static func pixels(_ text: String) -> Double? {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let number = value.prefix { $0.isNumber || $0 == "." }
        guard let pixels = Double(number) else { return nil }
        let unit = value.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        if unit.isEmpty || unit == "px" { return pixels }
        return pixels == 0 ? 0 : nil
    }
}
