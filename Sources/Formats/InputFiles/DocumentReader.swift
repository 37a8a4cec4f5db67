/// Reading one kind of input file — carts, catalogs — behind one seam (docs/architecture.md, "Fast
/// paths"): a fast scanner for the shapes files have, and the tree reader (parse the whole document,
/// then decode it) as the reference, which reads everything else and words every message. For any
/// bytes the scanner takes, the tree reader gives the same document: the differential tests and the
/// fuzzers hold the two to it.
///
/// The requirements take bytes whose UTF-8 byte order mark, if any, is already dropped (only one
/// is); ``read(_:name:line:)``, ``scan(_:)`` and ``readTree(_:name:line:)`` drop it.
public protocol DocumentReader {
    associatedtype Document

    /// The fast path alone: the document, or nil when it leaves the bytes to the tree reader (an
    /// error, or a shape it does not read).
    mutating func scanDocument(_ bytes: UnsafeBufferPointer<UInt8>) -> Document?

    /// The reference: always right, slower. `line` is the file's line the bytes start on (a batch's
    /// line), which a malformed JSON error names.
    mutating func readDocumentTree(_ bytes: UnsafeBufferPointer<UInt8>, name: String, line: Int)
        throws(InputError) -> Document
}

extension DocumentReader {
    /// The document in `bytes`: scanned when the scanner takes it, else read as a tree, which says
    /// what is wrong. `name` is the file as messages show it; `line`, the file's line the bytes start
    /// on (a batch's line).
    @inlinable
    public mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, name: String, line: Int = 1) throws(InputError)
        -> Document
    {
        let bytes = bytes.droppingByteOrderMark
        if let document = scanDocument(bytes) { return document }
        return try readDocumentTree(bytes, name: name, line: line)
    }

    @inlinable
    public mutating func read(_ bytes: [UInt8], name: String) throws(InputError) -> Document {
        try bytes.withUnsafeBufferPointer { (buffer) throws(InputError) -> Document in try read(buffer, name: name) }
    }

    /// The fast path alone, for differential checks: whatever it gives, ``readTree(_:name:line:)``
    /// must give too.
    public mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Document? {
        scanDocument(bytes.droppingByteOrderMark)
    }

    /// The reference alone.
    public mutating func readTree(_ bytes: UnsafeBufferPointer<UInt8>, name: String, line: Int = 1)
        throws(InputError) -> Document
    {
        try readDocumentTree(bytes.droppingByteOrderMark, name: name, line: line)
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// Without a leading UTF-8 byte order mark (EF BB BF), which some editors write.
    @inlinable
    var droppingByteOrderMark: UnsafeBufferPointer<UInt8> {
        count >= 3 && self[0] == 0xEF && self[1] == 0xBB && self[2] == 0xBF
            ? UnsafeBufferPointer(rebasing: self[3...]) : self
    }
}

/// Whether a large cart is scanned in two halves at once, and how: the caller's decision — it knows
/// whether it has a core to spare (a single cart read while the rules compile does; a batch's
/// workers do not) — never the reader's (docs/architecture.md, "Fast paths").
public struct CartHalves: Sendable {
    /// Runs `body(0)` and `body(1)` and returns once both returned, at once if it can.
    public typealias Runner = @Sendable (_ body: @Sendable (Int) -> Void) -> Void

    /// Carts of at least this many bytes are scanned in two halves.
    public var from: Int
    public var run: Runner

    public init(from: Int, run: @escaping Runner) {
        self.from = from
        self.run = run
    }

    /// Every cart in one piece, on the calling thread.
    public static let never = CartHalves(from: .max) { body in
        body(0)
        body(1)
    }
}
