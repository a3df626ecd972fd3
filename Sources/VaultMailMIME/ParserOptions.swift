internal import CGMime

/// GMime parser options for one parse (see `cgmime_parser_options_new`), collecting the
/// parser's warnings as sentences for `ParsedMessage.problems`.
///
/// Lifetime rule: GMime headers keep a plain pointer to the options they were parsed with, so
/// an instance must outlive every object parsed with it; `GMimeMessageParser` keeps it alive
/// with `withExtendedLifetime` around all work on the message.
final class ParserOptions {
    let pointer: OpaquePointer
    /// Warnings in the order GMime reported them, each once.
    private(set) var warnings: [String] = []
    /// Hostile input can raise thousands of warnings; the first ones tell the story.
    private static let maximumWarnings = 20

    init() {
        _ = GMimeRuntime.ready
        // The callback gets `self` back through user_data, unretained: the options never
        // outlive `self` because `self` frees them in deinit.
        let callback: GMimeParserWarningFunc = { _, code, item, userData in
            guard let userData else { return }
            let collector = Unmanaged<ParserOptions>.fromOpaque(userData).takeUnretainedValue()
            collector.record(code: code, item: item.map { String(cString: $0) })
        }
        pointer = cgmime_parser_options_new(nil, nil)
        g_mime_parser_options_set_warning_callback(pointer, callback, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Options whose fallback for undeclared 8-bit header text tries `charset` right after
    /// UTF-8 (see `cgmime_parser_options_prefer_charset`).
    convenience init(preferring charset: String) {
        self.init()
        cgmime_parser_options_prefer_charset(pointer, charset)
    }

    deinit {
        g_mime_parser_options_free(pointer)
    }

    private func record(code: GMimeParserWarning, item: String?) {
        let what: String
        switch code {
        case GMIME_WARN_DUPLICATED_HEADER: what = "a header that may appear once appears twice"
        case GMIME_WARN_DUPLICATED_PARAMETER: what = "a header parameter appears twice"
        case GMIME_WARN_UNENCODED_8BIT_HEADER: what = "a header holds unencoded 8-bit text (read as UTF-8, else windows-1252)"
        case GMIME_WARN_INVALID_CONTENT_TYPE: what = "an invalid Content-Type (read as application/octet-stream)"
        case GMIME_WARN_INVALID_RFC2047_HEADER_VALUE: what = "an invalid RFC 2047 encoded word in a header"
        case GMIME_WARN_MALFORMED_MULTIPART: what = "a multipart without any part"
        case GMIME_WARN_TRUNCATED_MESSAGE: what = "the message is truncated"
        case GMIME_WARN_MALFORMED_MESSAGE: what = "the message is malformed"
        case GMIME_CRIT_INVALID_HEADER_NAME: what = "an invalid header name (the text after it may be read as body)"
        case GMIME_CRIT_CONFLICTING_HEADER: what = "two conflicting values of a header"
        case GMIME_CRIT_CONFLICTING_PARAMETER: what = "two conflicting values of a header parameter"
        case GMIME_CRIT_MULTIPART_WITHOUT_BOUNDARY: what = "a multipart without a boundary (read as one part)"
        case GMIME_WARN_INVALID_PARAMETER: what = "an invalid header parameter"
        case GMIME_WARN_INVALID_ADDRESS_LIST: what = "an address list that could not be read fully"
        case GMIME_CRIT_NESTING_OVERFLOW: what = "MIME parts nested too deeply (the deepest were not read)"
        case GMIME_WARN_PART_WITHOUT_CONTENT: what = "a part whose headers end at a boundary (no content)"
        case GMIME_CRIT_PART_WITHOUT_HEADERS_OR_CONTENT: what = "a part without headers or content"
        default: what = "a problem GMime reports as code \(code.rawValue)"
        }
        var sentence = "MIME: " + what
        if let item, !item.isEmpty {
            sentence += " [\(String(item.prefix(80)))]"
        }
        guard !warnings.contains(sentence) else { return }
        if warnings.count < Self.maximumWarnings {
            warnings.append(sentence)
        } else if warnings.count == Self.maximumWarnings {
            warnings.append("MIME: more problems were found and not listed")
        }
    }
}
