/// A text compared byte for byte (its UTF-8), with no Unicode equivalence: the key of what
/// selectors and customer groups compare exactly (docs/selectors.md), where a `String` key would
/// take "Café" written with a combining accent for "Café" written with a precomposed one. Also the
/// key of customer ids, which the store compares byte for byte (docs/store.md, "Customers").
public struct ExactText: Hashable, Sendable, ExpressibleByStringLiteral {
    public let text: String

    @inline(__always)
    public init(_ text: String) {
        self.text = text
    }

    public init(stringLiteral text: String) {
        self.text = text
    }

    @inline(__always)
    public static func == (a: ExactText, b: ExactText) -> Bool { a.text.isExactly(b.text) }

    /// String's own hash: texts with the same bytes are equal strings, so they hash alike.
    @inline(__always)
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

extension String {
    /// Whether the two texts have the same bytes (no Unicode equivalence). Eight bytes at a time:
    /// comparing the UTF-8 views (or buffers) element by element took about 300 instructions for a
    /// short name, a third more time to index a million products' brands, tags and categories.
    @inline(__always)
    func isExactly(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let same = utf8.withContiguousStorageIfAvailable { x in
            other.utf8.withContiguousStorageIfAvailable { y in Self.sameBytes(x, y) }
        }
        return (same ?? nil) ?? utf8.elementsEqual(other.utf8)
    }

    @inline(__always)
    static func sameBytes(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = x.count
        guard count == y.count else { return false }
        guard count > 0, let a = x.baseAddress, let b = y.baseAddress else { return true }
        let (ra, rb) = (UnsafeRawPointer(a), UnsafeRawPointer(b))
        var offset = 0
        while offset + 8 <= count {
            guard
                ra.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == rb.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < count {
            guard a[offset] == b[offset] else { return false }
            offset += 1
        }
        return true
    }
}
