import Foundation
import HTTPTypes
import Hummingbird

/// What a browser sends, read by Hummingbird's `URLEncodedFormDecoder`: a posted form
/// (`application/x-www-form-urlencoded`) or a query string, decoded into the `Decodable`
/// struct of its route. The structs' fields are optional, so a route says itself what is
/// missing and what to do. A list is sent as `name[]=…&name[]=…` (the selected
/// conversations: `t[]`); a plain name that comes twice, a broken `%` escape or a field name
/// with unmatched brackets is refused with a `FormError` (400) that says so.
enum WebForm {
    /// Decodes `encoded` (a body or a query, without the `?`) into `Form`.
    static func decode<Form: Decodable>(_ type: Form.Type, from encoded: String, source: FormError.Source = .form) throws(FormError) -> Form {
        do {
            return try URLEncodedFormDecoder().decode(Form.self, from: encoded)
        } catch let error as URLEncodedFormError {
            throw FormError(source: source, problem: Self.problem(error))
        } catch DecodingError.typeMismatch(_, let context) {
            let name = context.codingPath.first?.stringValue ?? "a field"
            throw FormError(source: source, problem: "it gives '\(name)' as one value where a list ('\(name)[]') is expected, or as a list where one value is")
        } catch {
            throw FormError(source: source, problem: "\(error)")
        }
    }

    /// The decoder's refusal in words. A value is never repeated (it may be a password); a
    /// field's name is.
    private static func problem(_ error: URLEncodedFormError) -> String {
        switch error.code {
        case .duplicateKeys:
            "it gives '\(error.value)' more than once (a list is sent as '\(error.value)[]')"
        case .failedToPercentDecode:
            "it holds a broken %-escape (a % must be followed by two hexadecimal digits of UTF-8)"
        case .corruptKeyValue, .addingToInvalidType, .invalidArrayIndex, .notSupported:
            "the field name '\(error.value)' has brackets VaultMail does not read (only 'name[]' lists are used)"
        default:
            "\(error)"
        }
    }

    /// `text` as a value in a URL's query: everything but letters, digits and `-_.~:` is
    /// percent-encoded (UTF-8), so `&`, `=`, `+`, `#` and spaces cannot change the query.
    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryValueCharacters) ?? ""
    }

    private static let queryValueCharacters = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~:")
}

/// A form or an address (a query) that cannot be read: 400, in words, with what to do.
struct FormError: HTTPResponseError, CustomStringConvertible {
    enum Source: Sendable {
        case form, query
    }

    var source: Source
    /// What was wrong, as the end of a sentence ("it gives 't' more than once …").
    var problem: String

    var status: HTTPResponse.Status { .badRequest }

    var description: String {
        let what = source == .form ? "This form could not be read" : "This address could not be read"
        return "\(what): \(problem). Reload the page and try again; if it keeps happening, open VaultMail again with `vaultmail open`."
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Pages.plain(status, description)
    }
}

extension Request {
    /// The query string decoded into `Query` (`FormError` when it cannot be read).
    func query<Query: Decodable>(_ type: Query.Type) throws(FormError) -> Query {
        try WebForm.decode(Query.self, from: uri.query ?? "", source: .query)
    }
}
