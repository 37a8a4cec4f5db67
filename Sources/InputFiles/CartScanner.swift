import Dispatch
import Platform
import Pricing

/// The fast path of ``CartReader``: one pass over the bytes for the shapes carts have, interning
/// codes and merging lines as it goes. It accepts only what the tree reader accepts, producing the
/// same cart; anything else (an error, an escape, non-ASCII text, an unknown key) makes it give up,
/// and the tree reader reads the document instead, with its messages.
struct CartScanner {
    let codes: CodeTable
    /// Carts at least this large are scanned on two cores when they are a plain array of items.
    var parallelThreshold = 4 << 20

    /// The cart in `bytes`, or nil when the tree reader must decide. `merger` is left empty.
    func scan(_ bytes: UnsafeBufferPointer<UInt8>, merger: inout CartLineMerger) -> Cart? {
        guard let base = bytes.baseAddress else { return nil }
        if bytes.count >= parallelThreshold, Machine.processorCount > 1 {
            switch scanInTwo(bytes, productCount: merger.productCount) {
            case .cart(let cart): return cart
            case .giveUp: return nil
            case .sequential: break
            }
        }
        var cursor = Cursor(p: base, end: base + bytes.count)
        let cart = scanDocument(&cursor, &merger)
        if cart == nil { _ = merger.takeLines() }
        return cart
    }

    enum SplitOutcome {
        case cart(Cart)
        /// The tree reader must decide.
        case giveUp
        /// The split point was not between two items: scan in one piece.
        case sequential
    }

    /// Speculative split of `[item, item, …]`: the second half starts at an item found after a
    /// line break past the middle; the first half must arrive exactly there, between two items,
    /// for the split to count. A raw line break cannot be inside a valid string, but it can be
    /// inside a nested value: then the first half passes the point mid-item, and the cart is
    /// scanned in one piece.
    func scanInTwo(_ bytes: UnsafeBufferPointer<UInt8>, productCount: Int) -> SplitOutcome {
        let base = bytes.baseAddress!
        let end = base + bytes.count
        var head = Cursor(p: base, end: end)
        head.skipSpace()
        guard head.peek == UInt8(ascii: "[") else { return .sequential }
        guard let split = splitPoint(bytes) else { return .sequential }
        let halves = HalfResults()
        // The bytes are only read while the halves are scanned.
        let points = ReadOnlyPoints(start: head.p + 1, split: split, end: end)
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            var merger = CartLineMerger(productCount: productCount)
            if half == 0 {
                var c = Cursor(p: points.start, end: points.end)
                halves.first = (scanItems(&c, &merger, stoppingAt: points.split), merger.takeLines())
            } else {
                var c = Cursor(p: points.split, end: points.end)
                var outcome = scanItemsFromMiddle(&c, &merger)
                c.skipSpace()
                if outcome == .done, !c.atEnd { outcome = .giveUp }
                halves.second = (outcome, merger.takeLines())
            }
        }
        guard let first = halves.first, let second = halves.second else { return .giveUp }
        switch first.0 {
        case .reachedSplit: break
        case .passedSplit: return .sequential
        case .done, .giveUp: return .giveUp
        }
        guard second.0 == .done else { return .giveUp }
        var merger = CartLineMerger(productCount: productCount)
        for line in first.1 + second.1 where !merger.add(line.product, quantity: line.quantity) { return .giveUp }
        return .cart(Cart(lines: merger.takeLines()))
    }

    /// Past the middle: a line break, blanks, then `{` or `"`, the previous non-blank byte being a comma.
    func splitPoint(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafePointer<UInt8>? {
        let base = bytes.baseAddress!
        var i = bytes.count / 2
        let limit = min(bytes.count, i + (1 << 16))
        while i < limit {
            if bytes[i] == UInt8(ascii: "\n") {
                var before = i - 1
                while before > 0, bytes[before] == 0x20 || bytes[before] == 0x09 || bytes[before] == 0x0D {
                    before -= 1
                }
                var after = i + 1
                while after < bytes.count, bytes[after] == 0x20 || bytes[after] == 0x09 || bytes[after] == 0x0D {
                    after += 1
                }
                if bytes[before] == UInt8(ascii: ","), after < bytes.count,
                    bytes[after] == UInt8(ascii: "{") || bytes[after] == UInt8(ascii: "\"")
                {
                    return base + after
                }
            }
            i += 1
        }
        return nil
    }

    enum HalfOutcome: Equatable {
        /// The array ended (and, for the second half, the document).
        case done
        /// The first half stopped at the split point, between two items.
        case reachedSplit
        /// The first half went past the split point inside an item.
        case passedSplit
        case giveUp
    }

    /// Items from just after `[` until the split point.
    private func scanItems(_ c: inout Cursor, _ merger: inout CartLineMerger, stoppingAt split: UnsafePointer<UInt8>)
        -> HalfOutcome
    {
        c.skipSpace()
        if c.consume(UInt8(ascii: "]")) { return .giveUp }
        while true {
            c.skipSpace()
            if c.p == split { return .reachedSplit }
            if c.p > split { return .passedSplit }
            guard scanItem(&c, &merger) else { return c.p > split ? .passedSplit : .giveUp }
            c.skipSpace()
            if c.consume(UInt8(ascii: "]")) { return .giveUp }
            guard c.consume(UInt8(ascii: ",")) else { return c.p > split ? .passedSplit : .giveUp }
        }
    }

    /// Items from the split point to the closing `]`.
    private func scanItemsFromMiddle(_ c: inout Cursor, _ merger: inout CartLineMerger) -> HalfOutcome {
        while true {
            c.skipSpace()
            guard scanItem(&c, &merger) else { return .giveUp }
            c.skipSpace()
            if c.consume(UInt8(ascii: "]")) { return .done }
            guard c.consume(UInt8(ascii: ",")) else { return .giveUp }
        }
    }

    private func scanDocument(_ c: inout Cursor, _ merger: inout CartLineMerger) -> Cart? {
        c.skipSpace()
        var cart = Cart()
        switch c.peek {
        case UInt8(ascii: "["):
            guard scanItems(&c, &merger) else { return nil }
        case UInt8(ascii: "{"):
            guard scanCartObject(&c, &merger, &cart) else { return nil }
        default:
            return nil
        }
        c.skipSpace()
        guard c.atEnd else { return nil }
        cart.lines = merger.takeLines()
        return cart
    }

    private func scanCartObject(_ c: inout Cursor, _ merger: inout CartLineMerger, _ cart: inout Cart) -> Bool {
        c.p += 1
        var seen = (currency: false, at: false, coupons: false, items: false, id: false)
        c.skipSpace()
        if c.peek == UInt8(ascii: "}") { return false }  // no "items": the tree reader says so
        while true {
            c.skipSpace()
            guard let key = c.plainString() else { return false }
            c.skipSpace()
            guard c.consume(UInt8(ascii: ":")) else { return false }
            c.skipSpace()
            switch key.count {
            case 5 where key.equals("items"):
                guard !seen.items, c.peek == UInt8(ascii: "["), scanItems(&c, &merger) else { return false }
                seen.items = true
            case 8 where key.equals("currency"):
                guard !seen.currency, let text = c.plainString(),
                    let currency = Currency(code: String(decoding: text, as: UTF8.self))
                else { return false }
                cart.currency = currency
                seen.currency = true
            case 2 where key.equals("id"):
                guard !seen.id else { return false }
                if c.peek == UInt8(ascii: "\"") {
                    guard let text = c.plainString() else { return false }
                    cart.id = .string(String(decoding: text, as: UTF8.self))
                } else {
                    guard let digits = c.integerLiteral() else { return false }
                    cart.id = .integer(String(decoding: digits, as: UTF8.self))
                }
                seen.id = true
            case 2 where key.equals("at"):
                guard !seen.at, let text = c.plainString(), let instant = try? Instant(rfc3339: text) else {
                    return false
                }
                cart.at = instant
                seen.at = true
            case 7 where key.equals("coupons"):
                guard !seen.coupons, c.consume(UInt8(ascii: "[")) else { return false }
                seen.coupons = true
                c.skipSpace()
                if !c.consume(UInt8(ascii: "]")) {
                    while true {
                        c.skipSpace()
                        guard let coupon = c.plainString() else { return false }
                        cart.coupons.append(String(decoding: coupon, as: UTF8.self))
                        c.skipSpace()
                        if c.consume(UInt8(ascii: "]")) { break }
                        guard c.consume(UInt8(ascii: ",")) else { return false }
                    }
                }
            default:
                return false
            }
            c.skipSpace()
            if c.consume(UInt8(ascii: "}")) { return seen.items }
            guard c.consume(UInt8(ascii: ",")) else { return false }
        }
    }

    /// `[item, …]`: each a code or `{"code": …, "quantity": …}`.
    private func scanItems(_ c: inout Cursor, _ merger: inout CartLineMerger) -> Bool {
        c.p += 1
        c.skipSpace()
        if c.consume(UInt8(ascii: "]")) { return true }
        while true {
            c.skipSpace()
            guard scanItem(&c, &merger) else { return false }
            c.skipSpace()
            if c.consume(UInt8(ascii: "]")) { return true }
            guard c.consume(UInt8(ascii: ",")) else { return false }
        }
    }

    /// One item, a code or `{"code": …, "quantity": …}`, added to the lines.
    @inline(__always)
    private func scanItem(_ c: inout Cursor, _ merger: inout CartLineMerger) -> Bool {
        let product: Int
        var quantity: Int64 = 1
        switch c.peek {
        case UInt8(ascii: "\""):
            guard let code = c.plainString() else { return false }
            product = codes.lookup(code.baseAddress!, code.count)
        case UInt8(ascii: "{"):
            guard let (id, count) = c.canonicalItem(codes) ?? scanItemObject(&c) else { return false }
            product = id
            quantity = count
        default:
            return false
        }
        return product >= 0 && merger.add(product, quantity: quantity)
    }

    /// `{"code": "…", "quantity": N}` in either order, nothing else.
    @inline(__always)
    private func scanItemObject(_ c: inout Cursor) -> (Int, Int64)? {
        c.p += 1
        var product = -2
        var quantity: Int64 = 0
        while true {
            c.skipSpace()
            guard let key = c.plainString() else { return nil }
            c.skipSpace()
            guard c.consume(UInt8(ascii: ":")) else { return nil }
            c.skipSpace()
            if key.equals("code") {
                guard product == -2, let code = c.plainString() else { return nil }
                product = codes.lookup(code.baseAddress!, code.count)
            } else if key.equals("quantity") {
                guard quantity == 0, let value = c.quantity() else { return nil }
                quantity = value
            } else {
                return nil
            }
            c.skipSpace()
            if c.consume(UInt8(ascii: "}")) { break }
            guard c.consume(UInt8(ascii: ",")) else { return nil }
        }
        guard product != -2 else { return nil }
        return (product, quantity == 0 ? 1 : quantity)
    }
}

/// A position in the bytes being scanned.
struct Cursor {
    var p: UnsafePointer<UInt8>
    let end: UnsafePointer<UInt8>

    var atEnd: Bool { p >= end }

    /// The current byte, or 0 at the end (0 is never valid there).
    @inline(__always) var peek: UInt8 { p < end ? p.pointee : 0 }

    @inline(__always)
    mutating func consume(_ byte: UInt8) -> Bool {
        guard p < end, p.pointee == byte else { return false }
        p += 1
        return true
    }

    @inline(__always)
    mutating func skipSpace() {
        while p < end {
            let b = p.pointee
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            p += 1
        }
    }

    /// A string of printable ASCII without escapes: its bytes between the quotes. Anything else
    /// (escapes, control characters, non-ASCII, no closing quote) is left to the tree reader.
    @inline(__always)
    mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        guard p < end, p.pointee == UInt8(ascii: "\"") else { return nil }
        let start = p + 1
        var q = start
        while q < end {
            let b = q.pointee
            if b == UInt8(ascii: "\"") {
                p = q + 1
                return UnsafeBufferPointer(start: start, count: q - start)
            }
            if b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { return nil }
            q += 1
        }
        return nil
    }

    /// `{"code": "…", "quantity": N}` spelled exactly so, as generators and most writers spell an
    /// item: the fixed parts compared a word at a time. Nil, the cursor unmoved, for any other
    /// spelling, which ``CartScanner`` then reads key by key with the same result.
    @inline(__always)
    mutating func canonicalItem(_ codes: CodeTable) -> (Int, Int64)? {
        guard end - p >= 10, Cursor.load8(p) == 0x3A22_6564_6F63_227B /* {"code": */,
            Cursor.load2(p + 8) == 0x2220 /* ␣" */
        else { return nil }
        var probe = Cursor(p: p + 9, end: end)
        guard let code = probe.plainString() else { return nil }
        let q = probe.p - 1  // the closing quote
        guard end - q >= 16, Cursor.load8(q) == 0x6E61_7571_2220_2C22 /* ", "quan */,
            Cursor.load8(q + 8) & 0x00FF_FFFF_FFFF_FFFF == 0x20_3A22_7974_6974 /* tity":␣ */
        else { return nil }
        probe.p = q + 15
        guard let quantity = probe.quantity(), probe.consume(UInt8(ascii: "}")) else { return nil }
        p = probe.p
        return (codes.lookup(code.baseAddress!, code.count), quantity)
    }

    /// The 8 bytes at `p`, the first the least significant.
    @inline(__always)
    private static func load8(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// The 2 bytes at `p`, the first the least significant.
    @inline(__always)
    private static func load2(_ p: UnsafePointer<UInt8>) -> UInt16 {
        UInt16(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt16.self))
    }

    /// An integer literal, `-?(0|[1-9][0-9]*)`, not followed by a fraction or exponent.
    mutating func integerLiteral() -> UnsafeBufferPointer<UInt8>? {
        var q = p
        if q < end, q.pointee == UInt8(ascii: "-") { q += 1 }
        guard q < end, q.pointee &- 48 < 10 else { return nil }
        if q.pointee == UInt8(ascii: "0") {
            q += 1
        } else {
            while q < end, q.pointee &- 48 < 10 { q += 1 }
        }
        if q < end,
            q.pointee == UInt8(ascii: ".") || q.pointee == UInt8(ascii: "e") || q.pointee == UInt8(ascii: "E")
                || q.pointee &- 48 < 10
        {
            return nil
        }
        defer { p = q }
        return UnsafeBufferPointer(start: p, count: q - p)
    }

    /// A quantity: an integer literal from 1 to 1,000,000,000, not followed by a fraction or exponent.
    @inline(__always)
    mutating func quantity() -> Int64? {
        var q = p
        guard q < end, q.pointee >= UInt8(ascii: "1"), q.pointee <= UInt8(ascii: "9") else { return nil }
        var value: Int64 = 0
        while q < end, q.pointee &- 48 < 10 {
            value = value * 10 + Int64(q.pointee &- 48)
            if value > Cart.itemQuantities.upperBound { return nil }
            q += 1
        }
        if q < end, q.pointee == UInt8(ascii: ".") || q.pointee == UInt8(ascii: "e") || q.pointee == UInt8(ascii: "E") {
            return nil
        }
        p = q
        return value
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// Whether these bytes spell `literal`, compared byte by byte without building anything.
    @inline(__always)
    func equals(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        let bytes = literal.utf8Start
        for i in 0..<count where self[i] != bytes[i] { return false }
        return true
    }
}

/// The two halves' outcomes, each written by its own worker before either is read.
private final class HalfResults: @unchecked Sendable {
    var first: (CartScanner.HalfOutcome, [Cart.Line])?
    var second: (CartScanner.HalfOutcome, [Cart.Line])?
}

/// Positions in bytes that nobody writes while the halves are scanned.
private struct ReadOnlyPoints: @unchecked Sendable {
    let start: UnsafePointer<UInt8>
    let split: UnsafePointer<UInt8>
    let end: UnsafePointer<UInt8>
}
