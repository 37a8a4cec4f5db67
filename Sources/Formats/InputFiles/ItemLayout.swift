import Pricing

/// How one document spells the fixed parts of its items: the bytes around an item object's two
/// values (`{⏎      "quantity": ` · `,⏎      "code": ` · `⏎    }`) and between two items
/// (`,⏎    `), learned from an item read key by key. Writers indent every item alike, so the next
/// items are read by comparing these bytes a word at a time and parsing only the values: any
/// indentation, line ends and key order cost what the generator's own spelling costs.
///
/// Bytes equal to pieces that were read and accepted key by key parse the same way again, so an item
/// read through its layout is exactly the item the key-by-key path would read; an item spelled any
/// other way does not match and is read key by key (and teaches the layout its spelling).
struct ItemLayout {
    /// From the item's `{` to its first value.
    var head = Piece()
    /// From the end of the first value to the start of the second.
    var middle = Piece()
    /// From the end of the second value through the item's `}`.
    var tail = Piece()
    /// Whether the code comes before the quantity.
    var codeFirst = true
    /// From the end of an item to the start of the next: blanks, a comma, blanks.
    var gap = Piece()

    /// Whether an item taught it its spelling.
    var isLearned: Bool { head.count != 0 }

    /// A run of fixed bytes, at most 64: its first 24 compared a word at a time, any others byte by
    /// byte against the document's bytes it was learned from (which outlive the scan).
    struct Piece {
        var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0
        /// Which bits of each word belong to the piece (zero past its end).
        var m0: UInt64 = 0, m1: UInt64 = 0, m2: UInt64 = 0
        /// Bytes in the piece; 0 while nothing was learned, which matches nothing.
        var count = 0
        /// Where the piece was learned.
        var source: UnsafePointer<UInt8>? = nil

        init() {}

        /// The bytes from `start` to `end`, or nil when they are more than 64 or none.
        init?(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) {
            count = end - start
            guard count > 0, count <= 64 else { return nil }
            source = start
            func word(_ i: Int) -> (UInt64, UInt64) {
                var (word, mask): (UInt64, UInt64) = (0, 0)
                for j in 0..<8 where i * 8 + j < count {
                    word |= UInt64(start[i * 8 + j]) << (8 * j)
                    mask |= 0xFF << (8 * j)
                }
                return (word, mask)
            }
            ((w0, m0), (w1, m1), (w2, m2)) = (word(0), word(1), word(2))
        }

        /// Whether the bytes at `p` are this piece. Reads whole words, so a piece within a few bytes
        /// of `end` does not match (the key-by-key path reads it).
        @inline(__always)
        func matches(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Bool {
            // Pieces of up to 8 bytes (the gap and the tail) need one word, most others three.
            if count <= 8 {
                guard count != 0, end - p >= 8 else { return false }
                return (Cursor.load8(p) ^ w0) & m0 == 0
            }
            if count <= 16 {
                guard count != 0, end - p >= 16 else { return false }
                return (Cursor.load8(p) ^ w0) & m0 | (Cursor.load8(p + 8) ^ w1) & m1 == 0
            }
            guard end - p >= max(24, count) else { return false }
            let diff = (Cursor.load8(p) ^ w0) & m0 | (Cursor.load8(p + 8) ^ w1) & m1 | (Cursor.load8(p + 16) ^ w2) & m2
            return diff == 0 && (count <= 24 || matchesRest(p))
        }

        /// Bytes 24 and on, of a longer piece (deep indentation).
        private func matchesRest(_ p: UnsafePointer<UInt8>) -> Bool {
            guard let source else { return false }
            for i in 24..<count where p[i] != source[i] { return false }
            return true
        }
    }

    /// The item at `c` if it is spelled as the layout says: its code (a product, or unknown) and
    /// quantity, the cursor past its `}`. Nil, the cursor unmoved, otherwise.
    /// (Mutating only so that the layout is passed by reference, not copied per item.)
    @inline(__always)
    mutating func item(_ c: inout Cursor, _ codes: ByteLookup) -> (ScannedCode, Int64)? {
        guard head.matches(c.p, c.end) else { return nil }
        var probe = Cursor(p: c.p + head.count, end: c.end)
        let product: ScannedCode
        let quantity: Int64
        if codeFirst {
            let id = probe.code(codes)
            guard id != .invalid, middle.matches(probe.p, probe.end) else { return nil }
            probe.p += middle.count
            guard let value = probe.quantity() else { return nil }
            (product, quantity) = (id, value)
        } else {
            guard let value = probe.quantity(), middle.matches(probe.p, probe.end) else { return nil }
            probe.p += middle.count
            let id = probe.code(codes)
            guard id != .invalid else { return nil }
            (product, quantity) = (id, value)
        }
        guard tail.matches(probe.p, probe.end) else { return nil }
        c.p = probe.p + tail.count
        return (product, quantity)
    }

    /// Learns an item read key by key: `start` at its `{`, the two values' bounds, `end` past its `}`.
    mutating func learnItem(
        start: UnsafePointer<UInt8>, first: (UnsafePointer<UInt8>, UnsafePointer<UInt8>),
        second: (UnsafePointer<UInt8>, UnsafePointer<UInt8>), end: UnsafePointer<UInt8>, codeFirst: Bool
    ) {
        guard let head = Piece(start, first.0), let middle = Piece(first.1, second.0), let tail = Piece(second.1, end)
        else { return }
        (self.head, self.middle, self.tail, self.codeFirst) = (head, middle, tail, codeFirst)
    }

    enum AfterItem {
        /// Past the comma and blanks: the next item starts here.
        case next
        /// Past the `]` that ends the items.
        case end
        case invalid
    }

    /// Past the bytes between two items if they are spelled as the layout says (the hot path, kept
    /// apart so that it inlines into the item loops).
    @inline(__always)
    mutating func skipGap(_ c: inout Cursor) -> Bool {
        guard gap.matches(c.p, c.end) else { return false }
        c.p += gap.count
        return true
    }

    /// Past what follows an item when ``skipGap(_:)`` did not match: blanks and a comma (and
    /// blanks; the layout learns those bytes as the gap) or the closing `]`.
    mutating func afterItem(_ c: inout Cursor) -> AfterItem {
        let itemEnd = c.p
        c.skipSpace()
        if c.consume(UInt8(ascii: "]")) { return .end }
        guard c.consume(UInt8(ascii: ",")) else { return .invalid }
        c.skipSpace()
        if let gap = Piece(itemEnd, c.p) { self.gap = gap }
        return .next
    }
}
