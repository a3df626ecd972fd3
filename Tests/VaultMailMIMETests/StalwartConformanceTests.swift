import Foundation
import Testing
import VaultMailCore
import VaultMailMIME
import VaultMailTesting

/// MIME conformance against Stalwart mail-parser's published parses
/// (`mime/stalwart-mail-parser/eml/*/NNN.eml` with `NNN.json`).
///
/// For every message we compare five fields with theirs: the decoded subject, the From and To
/// lists (name and address), the text body (their `text_body` parts that are text, joined;
/// whitespace runs compared as one space) and the attachment names (their `attachments`
/// parts' declared names, in order, nil where none is declared). A disagreement fails the test
/// unless `StalwartAllowList.entries` lists it with the reason we judge their answer, not
/// ours, to be the odd one; an entry that no longer disagrees fails too, so the list stays true.
@Suite("MIME conformance: Stalwart mail-parser")
struct StalwartConformanceTests {
    static let folder = "mime/stalwart-mail-parser/eml"

    @Test("AC-F-05: decoded subject, from, to, text body and attachment names agree with Stalwart's parses")
    func agreesWithStalwart() throws {
        let files = try TestMaterial.files(under: Self.folder) { $0.hasSuffix(".eml") }
        #expect(files.count == 107, "the Stalwart corpus should hold 107 .eml files")
        let parser = GMimeMessageParser()
        var agreed: [StalwartField: Int] = [:]
        var disagreements: [String: String] = [:]

        for file in files {
            let raw = try TestMaterial.bytes(Self.folder, file)
            let jsonName = String(file.dropLast(4)) + ".json"
            let expected = try StalwartExpectation(json: TestMaterial.bytes(Self.folder, jsonName))
            let parsed = parser.parse(raw)
            let ours = StalwartExpectation.Values(parsed)
            for field in StalwartField.allCases {
                let (theirs, mine) = (expected.values.describe(field), ours.describe(field))
                if theirs == mine {
                    agreed[field, default: 0] += 1
                } else {
                    disagreements["\(file):\(field.rawValue)"] = "theirs: \(theirs)\n    ours:   \(mine)"
                }
            }
        }

        var report = "Stalwart conformance over \(files.count) messages:\n"
        for field in StalwartField.allCases {
            report += "  \(field.rawValue): \(agreed[field, default: 0])/\(files.count) agree\n"
        }
        report += "  allow-listed disagreements: \(disagreements.keys.filter { StalwartAllowList.entries[$0] != nil }.count)\n"
        print(report)

        for (key, detail) in disagreements.sorted(by: { $0.key < $1.key }) where StalwartAllowList.entries[key] == nil {
            Issue.record("new disagreement \(key)\n    \(detail)")
        }
        for key in StalwartAllowList.entries.keys.sorted() where disagreements[key] == nil {
            Issue.record("allow-list entry \(key) no longer disagrees: remove it")
        }
    }
}

enum StalwartField: String, CaseIterable {
    case subject, from, to, text, attachments
}

/// The five fields of one Stalwart `.json` parse.
struct StalwartExpectation {
    struct Values {
        var subject: String
        var from: [String]
        var to: [String]
        var text: String
        var attachments: [String]

        init(subject: String, from: [String], to: [String], text: String, attachments: [String]) {
            self.subject = subject
            self.from = from
            self.to = to
            self.text = text
            self.attachments = attachments
        }

        init(_ parsed: ParsedMessage) {
            subject = parsed.subject
            from = parsed.from.map { Self.person(name: $0.name, address: $0.email) }
            to = parsed.to.map { Self.person(name: $0.name, address: $0.email) }
            text = Self.collapse(parsed.textPlain ?? "")
            attachments = parsed.attachments.map { $0.filename ?? "<none>" }
        }

        static func person(name: String?, address: String?) -> String {
            "\(name ?? "") <\(address ?? "")>"
        }

        static func collapse(_ text: String) -> String {
            text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }

        func describe(_ field: StalwartField) -> String {
            switch field {
            case .subject: return subject.debugDescription
            case .from: return from.debugDescription
            case .to: return to.debugDescription
            case .text: return text.count > 300 ? "\(text.prefix(300).debugDescription)… (\(text.count) chars)" : text.debugDescription
            case .attachments: return attachments.debugDescription
            }
        }
    }

    let values: Values

    init(json: [UInt8]) throws {
        guard let root = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
              let parts = root["parts"] as? [[String: Any]], let top = parts.first else {
            throw MaterialMissing(path: "a Stalwart .json without parts")
        }
        func header(_ part: [String: Any], _ name: String) -> [String: Any]? {
            let headers = part["headers"] as? [[String: Any]] ?? []
            return headers.first { ($0["name"] as? String) == name }?["value"] as? [String: Any]
        }
        func people(_ name: String) -> [String] {
            guard let address = header(top, name)?["Address"] as? [String: Any] else { return [] }
            var entries = address["List"] as? [[String: Any]] ?? []
            for group in address["Group"] as? [[String: Any]] ?? [] {
                entries += group["addresses"] as? [[String: Any]] ?? []
            }
            return entries.map { Values.person(name: $0["name"] as? String, address: $0["address"] as? String) }
        }
        func parameter(_ part: [String: Any], _ headerName: String, _ attribute: String) -> String? {
            let attributes = (header(part, headerName)?["ContentType"] as? [String: Any])?["attributes"] as? [[String: Any]]
            return attributes?.first { ($0["name"] as? String) == attribute }?["value"] as? String
        }
        let textParts = (root["text_body"] as? [Int] ?? []).compactMap { index -> String? in
            guard index >= 0, index < parts.count else { return nil }
            return (parts[index]["body"] as? [String: Any])?["Text"] as? String
        }
        let attachments = (root["attachments"] as? [Int] ?? []).compactMap { index -> String? in
            guard index >= 0, index < parts.count else { return nil }
            let part = parts[index]
            return parameter(part, "content_disposition", "filename") ?? parameter(part, "content_type", "name") ?? "<none>"
        }
        values = Values(
            subject: header(top, "subject")?["Text"] as? String ?? "",
            from: people("from"),
            to: people("to"),
            text: Values.collapse(textParts.joined(separator: "\n")),
            attachments: attachments
        )
    }
}
