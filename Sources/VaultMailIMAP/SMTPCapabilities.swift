/// What an SMTP server announced in its EHLO reply: extensions and AUTH mechanisms.
public struct SMTPCapabilities: Sendable, Hashable {
    /// Extension keywords in uppercase (`STARTTLS`, `PIPELINING`, `8BITMIME`, `SIZE`, `AUTH`).
    public let extensions: Set<String>
    /// SASL mechanisms in uppercase (`PLAIN`, `LOGIN`, `XOAUTH2`).
    public let authMechanisms: Set<String>
    /// The SIZE limit in bytes, when announced and not 0.
    public let sizeLimit: Int?

    /// Reads the lines of an EHLO reply (without the reply code); the first is the greeting.
    public init(ehloLines: [String]) {
        var extensions = Set<String>()
        var mechanisms = Set<String>()
        var size: Int?
        for line in ehloLines.dropFirst() {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard var keyword = words.first?.uppercased() else { continue }
            var parameters = Array(words.dropFirst())
            if keyword.hasPrefix("AUTH=") {  // the pre-standard form some servers still send
                parameters.insert(String(keyword.dropFirst(5)), at: 0)
                keyword = "AUTH"
            }
            extensions.insert(keyword)
            if keyword == "AUTH" { mechanisms.formUnion(parameters.map { $0.uppercased() }) }
            if keyword == "SIZE", let limit = parameters.first.flatMap({ Int($0) }), limit > 0 { size = limit }
        }
        self.extensions = extensions
        self.authMechanisms = mechanisms
        self.sizeLimit = size
    }

    public var startTLS: Bool { extensions.contains("STARTTLS") }
    public var pipelining: Bool { extensions.contains("PIPELINING") }
    public var eightBitMIME: Bool { extensions.contains("8BITMIME") }
}
