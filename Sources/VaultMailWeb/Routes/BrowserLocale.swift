import Foundation
import Hummingbird
import VaultMailCore

/// The browser's language (its `Accept-Language`, which follows the user's language setting),
/// so dates and times are written the way the person reading them writes them.
enum BrowserLocale {
    /// The locale of the request being answered; the fixed US English forms outside a request.
    @TaskLocal static var current = RelativeDate.fixedLocale

    /// The first language of an `Accept-Language` value with the highest weight ("de-DE,de;q=0.9,
    /// en;q=0.8" → de-DE); nil when it names none this app can use ("*", garbage).
    static func locale(acceptLanguage: String?) -> Locale? {
        guard let acceptLanguage else { return nil }
        var best: (tag: String, weight: Double)?
        for item in acceptLanguage.split(separator: ",").prefix(20) {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, Self.isLanguageTag(tag) else { continue }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if weight > 0, weight > (best?.weight ?? 0) { best = (tag, weight) }
        }
        return best.map { Locale(identifier: $0.tag) }
    }

    /// A BCP 47 tag as browsers send them: letters, digits and hyphens, starting with a
    /// 2–3 letter language.
    private static func isLanguageTag(_ tag: String) -> Bool {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard tag.count <= 35, let language = subtags.first, (2...3).contains(language.count),
              language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return subtags.allSatisfy { !$0.isEmpty && $0.count <= 8 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}

/// Answers each request in its browser's locale (`BrowserLocale.current`).
struct BrowserLocaleMiddleware: RouterMiddleware {
    typealias Context = WebRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let locale = BrowserLocale.locale(acceptLanguage: request.headers[.acceptLanguage]) else {
            return try await next(request, context)
        }
        return try await BrowserLocale.$current.withValue(locale) { try await next(request, context) }
    }
}
