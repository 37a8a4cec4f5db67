/// Bounds on the files users hand us — carts, catalogs, batches — so that hostile input stays
/// cheap. (The promotions file has the plist reader's own bounds, `PlistLimits`.)
public struct InputLimits: Sendable, Equatable {
    /// Largest cart or catalog file read whole, in bytes.
    public var maxFileSize: Int

    /// Longest line of a batch (one cart), in bytes: the file size limit, at most 16 MiB. A longer
    /// line is an error in its place, skipped without being held in memory.
    public var maxLineLength: Int { min(maxFileSize, Self.longestLine) }

    /// The longest batch line accepted whatever the file size limit.
    public static let longestLine = 16 << 20

    /// The error entry of a batch line longer than `limit` bytes: what the limit is and what sets it.
    public static func tooLongMessage(_ limit: Int) -> String {
        "the line is longer than \(limit) bytes, the longest a line of a batch may be (16 MiB, or --max-file-size when lower)"
    }

    public init(maxFileSize: Int = 1 << 30) {
        self.maxFileSize = maxFileSize
    }

    public static let `default` = InputLimits()
}
