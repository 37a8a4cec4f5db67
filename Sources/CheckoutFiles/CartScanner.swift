import Pricing

/// The fast path of ``CartReader``: one pass over the bytes for the shapes carts have, interning
/// codes and merging lines as it goes. It accepts only what the tree reader accepts, producing the
/// same cart; anything else (an error, an escape, non-ASCII text, an unknown key) makes it give up,
/// and the tree reader reads the document instead, with its messages.
struct CartScanner {
    let codes: CodeTable

    /// The cart in `bytes`, or nil when the tree reader must decide. `merger` is left empty.
    func scan(_ bytes: UnsafeBufferPointer<UInt8>, merger: inout CartLineMerger) -> Cart? {
        guard let base = bytes.baseAddress else { return nil }
        var cursor = Cursor(p: base, end: base + bytes.count)
        let cart = scanDocument(&cursor, &merger)
        if cart == nil { _ = merger.takeLines() }
        return cart
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
        var seen = (currency: false, at: false, coupons: false, items: false)
        c.skipSpace()
        if c.peek == UInt8(ascii: "}") { return false }  // no "items": the tree reader says so
        while true {
            c.skipSpace()
            guard let key = c.plainString() else { return false }
            c.skipSpace()
            guard c.consume(UInt8(ascii: ":")) else { return false }
            c.skipSpace()
            switch (key.count, key.first) {
            case (5, UInt8(ascii: "i")) where key.elementsEqual("items".utf8):
                guard !seen.items, c.peek == UInt8(ascii: "["), scanItems(&c, &merger) else { return false }
                seen.items = true
            case (8, UInt8(ascii: "c")) where key.elementsEqual("currency".utf8):
                guard !seen.currency, let text = c.plainString(), let currency = Currency(code: String(decoding: text, as: UTF8.self)) else { return false }
                cart.currency = currency
                seen.currency = true
            case (2, UInt8(ascii: "a")) where key.elementsEqual("at".utf8):
                guard !seen.at, let text = c.plainString(), let instant = try? Instant(rfc3339: text) else { return false }
                cart.at = instant
                seen.at = true
            case (7, UInt8(ascii: "c")) where key.elementsEqual("coupons".utf8):
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
            let product: Int
            var quantity: Int64 = 1
            switch c.peek {
            case UInt8(ascii: "\""):
                guard let code = c.plainString() else { return false }
                product = codes.lookup(code.baseAddress!, code.count)
            case UInt8(ascii: "{"):
                guard let (id, count) = scanItemObject(&c) else { return false }
                product = id
                quantity = count
            default:
                return false
            }
            guard product >= 0, merger.add(product, quantity: quantity) else { return false }
            c.skipSpace()
            if c.consume(UInt8(ascii: "]")) { return true }
            guard c.consume(UInt8(ascii: ",")) else { return false }
        }
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
            if key.count == 4, key.elementsEqual("code".utf8) {
                guard product == -2, let code = c.plainString() else { return nil }
                product = codes.lookup(code.baseAddress!, code.count)
            } else if key.count == 8, key.elementsEqual("quantity".utf8) {
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

    /// A quantity: an integer literal from 1 to 1,000,000,000, not followed by a fraction or exponent.
    @inline(__always)
    mutating func quantity() -> Int64? {
        var q = p
        guard q < end, q.pointee >= UInt8(ascii: "1"), q.pointee <= UInt8(ascii: "9") else { return nil }
        var value: Int64 = 0
        while q < end, q.pointee &- 48 < 10 {
            value = value * 10 + Int64(q.pointee &- 48)
            if value > 1_000_000_000 { return nil }
            q += 1
        }
        if q < end, q.pointee == UInt8(ascii: ".") || q.pointee == UInt8(ascii: "e") || q.pointee == UInt8(ascii: "E") { return nil }
        p = q
        return value
    }
}
