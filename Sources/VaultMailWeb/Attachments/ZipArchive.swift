internal import CArchive
import Foundation

/// A ZIP archive written in memory by libarchive (Debian's libarchive), for "Download all": a
/// message's attachments in one file, each under a name that is safe to unpack (no folders, no
/// `..`, no control characters) and unique in the archive ("report.pdf", "report (2).pdf").
enum ZipArchive {
    struct File {
        var name: String
        var data: [UInt8]
        var modified: Date
    }

    /// Why the archive could not be written.
    struct Failure: Error, CustomStringConvertible {
        var reason: String
        var description: String { "the attachments could not be put into one ZIP file (\(reason)); download them one by one" }
    }

    /// The ZIP of `files`, in order, deflated, their names in UTF-8.
    static func make(_ files: [File]) throws(Failure) -> [UInt8] {
        guard let archive = archive_write_new() else { throw Failure(reason: "libarchive could not start an archive") }
        // Closed (if still open) and freed on every path; `buffer` stays ours.
        defer { archive_write_free(archive) }
        try check(archive_write_set_format_zip(archive), archive)
        try check(archive_write_set_options(archive, "zip:hdrcharset=UTF-8"), archive)
        // Deflate can grow incompressible data a little; each entry adds its headers (with the name twice).
        let payload = files.reduce(0) { $0 + $1.data.count }
        let capacity = payload + payload / 64 + files.reduce(0) { $0 + 3 * $1.name.utf8.count + 256 } + 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var used = 0
        try check(archive_write_open_memory(archive, buffer, capacity, &used), archive)
        var names = UniqueNames()
        for file in files {
            guard let entry = archive_entry_new() else { throw Failure(reason: "libarchive could not make an entry") }
            defer { archive_entry_free(entry) }
            archive_entry_set_pathname_utf8(entry, names.take(safeName(file.name)))
            archive_entry_set_filetype(entry, vm_archive_regular_file)
            archive_entry_set_perm(entry, 0o644)
            archive_entry_set_size(entry, la_int64_t(file.data.count))
            archive_entry_set_mtime(entry, time_t(file.modified.timeIntervalSince1970), 0)
            try check(archive_write_header(archive, entry), archive)
            let written = file.data.withUnsafeBytes { archive_write_data(archive, $0.baseAddress, $0.count) }
            guard written == file.data.count else { throw Failure(reason: error(archive)) }
        }
        try check(archive_write_close(archive), archive)
        return Array(UnsafeRawBufferPointer(start: buffer, count: used))
    }

    /// `name` as a file name to unpack: the last path component, control characters and
    /// characters Windows refuses as `_`, never empty, `.` or `..`.
    static func safeName(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let cleaned = String(last.unicodeScalars.map { scalar -> Character in
            scalar.value < 0x20 || scalar.value == 0x7F || "<>:\"|?*".unicodeScalars.contains(scalar) ? "_" : Character(scalar)
        }).trimmingCharacters(in: .whitespaces)
        return cleaned.isEmpty || cleaned.allSatisfy({ $0 == "." }) ? "attachment" : cleaned
    }

    /// Names made unique, ignoring case: "a.pdf", then "a (2).pdf".
    private struct UniqueNames {
        var taken: Set<String> = []

        mutating func take(_ name: String) -> String {
            var candidate = name, number = 1
            let ext = AttachmentKind.fileExtension(name)
            let stem = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
            while taken.contains(candidate.lowercased()) {
                number += 1
                candidate = ext.isEmpty ? "\(stem) (\(number))" : "\(stem) (\(number)).\(name.suffix(ext.count))"
            }
            taken.insert(candidate.lowercased())
            return candidate
        }
    }

    /// libarchive's status turned into a `Failure` (warnings pass).
    private static func check(_ status: Int32, _ archive: OpaquePointer) throws(Failure) {
        guard status >= ARCHIVE_WARN else { throw Failure(reason: error(archive)) }
    }

    private static func error(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "libarchive gave no reason"
    }
}
