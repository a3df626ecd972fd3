import Foundation

/// A size as people read it ("2.4 MB").
public enum ByteSize {
    public static func string(_ bytes: Int) -> String {
        ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)
    }
}
