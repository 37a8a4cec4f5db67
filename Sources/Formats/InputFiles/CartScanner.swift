import Pricing

/// The fast path of ``CartReader``: one pass over the bytes for the shapes carts have, interning
/// codes and merging lines as it goes. It takes every spelling of those shapes — any whitespace or
/// line ends, keys in any order, the cart's fields before or after its items, escaped or non-ASCII
/// codes — and accepts only what the tree reader accepts, producing the same cart; anything else (an
/// error, an unknown key, a code the catalog lacks) makes it give up, and the tree reader reads the
/// document instead, with its messages.
struct CartScanner: Sendable {
    /// The catalog's codes, looked up by their bytes.
    let codes: ByteLookup

    /// The cart in `bytes`, or nil when the tree reader must decide. `merger` is left empty.
    func scan(_ bytes: UnsafeBufferPointer<UInt8>, merger: inout CartLineMerger, halves: CartHalves = .never) -> Cart? {
        var spareCoupons: [String] = []
        return scan(bytes, merger: &merger, spareCoupons: &spareCoupons, halves: halves)
    }

    /// As above; `spareCoupons`, the coupons of a cart done with, lend their storage to this cart's (a
    /// cart read in one piece). A cart of at least `halves.from` bytes is scanned in two halves,
    /// which `halves.run` runs.
    func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, merger: inout CartLineMerger, spareCoupons: inout [String],
        halves: CartHalves
    ) -> Cart? {
        guard let base = bytes.baseAddress else { return nil }
        if bytes.count >= halves.from {
            switch scanInTwo(bytes, productCount: merger.productCount, run: halves.run) {
            case .cart(let cart): return cart
            case .giveUp: return nil
            case .sequential: break
            }
        }
        var cursor = Cursor(p: base, end: base + bytes.count)
        var fields = CartFields()
        fields.cart.coupons = spareCoupons
        spareCoupons = []
        // Emptied in place when only this scan holds the storage; a copy is made if the cart it
        // came from is still held (by a caller, or on another thread).
        fields.cart.coupons.removeAll(keepingCapacity: true)
        let cart = scanDocument(&cursor, &merger, &fields)
        if case .none = cart { _ = merger.takeLines() }
        return cart
    }

    enum SplitOutcome {
        case cart(Cart)
        /// The tree reader must decide.
        case giveUp
        /// The split point was not between two items: scan in one piece.
        case sequential
    }

    /// Speculative split of the items: the second half starts at an item found past the middle; the
    /// first half, reading from the start, must arrive exactly there, between two items, for the
    /// split to count. The bytes that suggest an item start (`}, {` or `", "`) can also occur inside
    /// a string or a nested value: then the first half passes the point mid-item, and the cart is
    /// scanned in one piece. Works for both forms of a cart: after the items the second half reads
    /// the rest of the document (the object's remaining fields).
    /// `run` runs the two halves' scans, `body(0)` and `body(1)`, at once if it can.
    func scanInTwo(
        _ bytes: UnsafeBufferPointer<UInt8>, productCount: Int, run: CartHalves.Runner
    ) -> SplitOutcome {
        let base = bytes.baseAddress!
        let end = base + bytes.count
        var head = Cursor(p: base, end: end)
        head.skipSpace()
        let form = head.peek
        guard form == UInt8(ascii: "[") || form == UInt8(ascii: "{"), let split = splitPoint(bytes) else {
            return .sequential
        }
        let halves = HalfResults()
        // The bytes are only read while the halves are scanned.
        let points = ReadOnlyPoints(start: head.p, split: split, end: end)
        run { half in
            var merger = CartLineMerger(productCount: productCount)
            var fields = CartFields()
            if half == 0 {
                var c = Cursor(p: points.start, end: points.end)
                let outcome = scanFirstHalf(&c, &merger, &fields, stoppingAt: points.split)
                halves.first = (outcome, merger.takeLines(), fields)
            } else {
                var c = Cursor(p: points.split, end: points.end)
                var outcome = scanItemsFromMiddle(&c, &merger)
                if outcome == .done, form == UInt8(ascii: "{"), !scanRemainingFields(&c, &fields) { outcome = .giveUp }
                c.skipSpace()
                if outcome == .done, !c.atEnd { outcome = .giveUp }
                halves.second = (outcome, merger.takeLines(), fields)
            }
        }
        guard let first = halves.first, let second = halves.second else { return .giveUp }
        switch first.0 {
        case .reachedSplit: break
        case .passedSplit, .done: return .sequential
        case .giveUp: return .giveUp
        }
        guard second.0 == .done, first.2.seen & second.2.seen == 0 else { return .giveUp }
        var merger = CartLineMerger(productCount: productCount)
        for line in first.1 + second.1 where !merger.add(line.product, quantity: line.quantity) { return .giveUp }
        var cart = first.2.cart
        cart.merge(second.2.cart)
        cart.lines = merger.takeLines()
        return .cart(cart)
    }

    /// Past the middle, the first place that looks like the start of an item: an object after
    /// `},` (items written as objects), else a string after `",` (items written as codes), blanks
    /// allowed around the comma.
    func splitPoint(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafePointer<UInt8>? {
        let base = bytes.baseAddress!
        let from = bytes.count / 2
        let limit = min(bytes.count, from + (1 << 16))
        func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
        /// Whether the non-blank bytes before `i` are `closer` then a comma.
        func follows(_ closer: UInt8, at i: Int) -> Bool {
            var j = i - 1
            while j > 0, isBlank(bytes[j]) { j -= 1 }
            guard j > 0, bytes[j] == UInt8(ascii: ",") else { return false }
            j -= 1
            while j > 0, isBlank(bytes[j]) { j -= 1 }
            return bytes[j] == closer
        }
        for opener in [UInt8(ascii: "{"), UInt8(ascii: "\"")] {
            let closer = opener == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "\"")
            var i = from
            while i < limit {
                if bytes[i] == opener, follows(closer, at: i) { return base + i }
                i += 1
            }
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

    /// The document from its start until the split point, which must be between two items.
    private func scanFirstHalf(
        _ c: inout Cursor, _ merger: inout CartLineMerger, _ fields: inout CartFields,
        stoppingAt split: UnsafePointer<UInt8>
    ) -> HalfOutcome {
        if c.peek == UInt8(ascii: "[") { return scanItems(&c, &merger, stoppingAt: split) }
        c.p += 1
        while true {
            c.skipSpace()
            guard let key = c.plainString() else { return .giveUp }
            c.skipSpace()
            guard c.consume(UInt8(ascii: ":")) else { return .giveUp }
            c.skipSpace()
            if key.equals("items") {
                guard c.peek == UInt8(ascii: "[") else { return .giveUp }
                let outcome = scanItems(&c, &merger, stoppingAt: split)
                // The items ended before the split point: it is somewhere after them.
                return outcome == .done ? .passedSplit : outcome
            }
            guard scanField(key, &c, &fields) else { return .giveUp }
            c.skipSpace()
            guard c.consume(UInt8(ascii: ",")) else { return .giveUp }
            if c.p > split { return .passedSplit }
        }
    }

    /// Items from `[` until the split point.
    private func scanItems(_ c: inout Cursor, _ merger: inout CartLineMerger, stoppingAt split: UnsafePointer<UInt8>)
        -> HalfOutcome
    {
        c.p += 1
        c.skipSpace()
        if c.consume(UInt8(ascii: "]")) { return .done }
        var layout = ItemLayout()
        while true {
            c.skipSpace()
            if c.p == split { return .reachedSplit }
            if c.p > split { return .passedSplit }
            guard scanItem(&c, &merger, &layout) else { return c.p > split ? .passedSplit : .giveUp }
            if layout.skipGap(&c) {
                guard runOfItems(&c, &merger, &layout, before: split) else { continue }
            }
            switch layout.afterItem(&c) {
            case .next: continue
            case .end: return .done
            case .invalid: return c.p > split ? .passedSplit : .giveUp
            }
        }
    }

    /// Items from the split point to the closing `]`.
    private func scanItemsFromMiddle(_ c: inout Cursor, _ merger: inout CartLineMerger) -> HalfOutcome {
        var layout = ItemLayout()
        while true {
            c.skipSpace()
            guard scanItem(&c, &merger, &layout) else { return .giveUp }
            if layout.skipGap(&c) {
                guard runOfItems(&c, &merger, &layout, before: c.end) else { continue }
            }
            switch layout.afterItem(&c) {
            case .next: continue
            case .end: return .done
            case .invalid: return .giveUp
            }
        }
    }

    /// After the items of an object: its remaining fields and the closing `}`.
    private func scanRemainingFields(_ c: inout Cursor, _ fields: inout CartFields) -> Bool {
        while true {
            c.skipSpace()
            if c.consume(UInt8(ascii: "}")) { return true }
            guard c.consume(UInt8(ascii: ",")) else { return false }
            c.skipSpace()
            guard let key = c.plainString() else { return false }
            c.skipSpace()
            guard c.consume(UInt8(ascii: ":")) else { return false }
            c.skipSpace()
            guard !key.equals("items"), scanField(key, &c, &fields) else { return false }
        }
    }

    private func scanDocument(_ c: inout Cursor, _ merger: inout CartLineMerger, _ fields: inout CartFields)
        -> Cart?
    {
        c.skipSpace()
        switch c.peek {
        case UInt8(ascii: "["):
            guard scanItems(&c, &merger) else { return nil }
        case UInt8(ascii: "{"):
            guard scanCartObject(&c, &merger, &fields) else { return nil }
        default:
            return nil
        }
        c.skipSpace()
        guard c.atEnd else { return nil }
        var cart = fields.cart
        cart.lines = merger.takeLines()
        return cart
    }

    private func scanCartObject(_ c: inout Cursor, _ merger: inout CartLineMerger, _ fields: inout CartFields) -> Bool {
        c.p += 1
        c.skipSpace()
        if c.peek == UInt8(ascii: "}") { return false }  // no "items": the tree reader says so
        var items = false
        while true {
            c.skipSpace()
            guard let key = c.plainString() else { return false }
            c.skipSpace()
            guard c.consume(UInt8(ascii: ":")) else { return false }
            c.skipSpace()
            if key.equals("items") {
                guard !items, c.peek == UInt8(ascii: "["), scanItems(&c, &merger) else { return false }
                items = true
            } else {
                guard scanField(key, &c, &fields) else { return false }
            }
            c.skipSpace()
            if c.consume(UInt8(ascii: "}")) { return items }
            guard c.consume(UInt8(ascii: ",")) else { return false }
        }
    }

    /// The value of one of a cart's fields other than its items, each at most once.
    private func scanField(_ key: UnsafeBufferPointer<UInt8>, _ c: inout Cursor, _ fields: inout CartFields) -> Bool {
        switch key.count {
        case 8 where key.equals("currency"):
            guard fields.first(CartFields.currency), let text = c.plainString(),
                let currency = Currency(code: String(decoding: text, as: UTF8.self))
            else { return false }
            fields.cart.currency = currency
        case 2 where key.equals("id"):
            guard fields.first(CartFields.id) else { return false }
            if c.peek == UInt8(ascii: "\"") {
                guard let text = c.text() else { return false }
                fields.cart.id = .string(text)
            } else {
                guard let digits = c.integerLiteral() else { return false }
                fields.cart.id = .integer(String(decoding: digits, as: UTF8.self))
            }
        case 2 where key.equals("at"):
            guard fields.first(CartFields.at), let text = c.plainString(),
                let instant = try? Instant(rfc3339: text)
            else { return false }
            fields.cart.at = instant
        case 7 where key.equals("coupons"):
            guard fields.first(CartFields.coupons), c.consume(UInt8(ascii: "[")) else { return false }
            c.skipSpace()
            if c.consume(UInt8(ascii: "]")) { return true }
            while true {
                c.skipSpace()
                guard let coupon = c.text() else { return false }
                fields.cart.coupons.append(coupon)
                c.skipSpace()
                if c.consume(UInt8(ascii: "]")) { return true }
                guard c.consume(UInt8(ascii: ",")) else { return false }
            }
        default:
            return false
        }
        return true
    }

    /// `[item, …]`: each a code or `{"code": …, "quantity": …}`.
    private func scanItems(_ c: inout Cursor, _ merger: inout CartLineMerger) -> Bool {
        c.p += 1
        c.skipSpace()
        if c.consume(UInt8(ascii: "]")) { return true }
        var layout = ItemLayout()
        while true {
            c.skipSpace()
            guard scanItem(&c, &merger, &layout) else { return false }
            if layout.skipGap(&c) {
                guard runOfItems(&c, &merger, &layout, before: c.end) else { continue }
            }
            switch layout.afterItem(&c) {
            case .next: continue
            case .end: return true
            case .invalid: return false
            }
        }
    }

    /// The items after the gap just passed, each spelled like the one before it — codes, items in the
    /// learned layout, or (none learned) canonical items — and each followed by the gap, read in a
    /// loop of their own that does only that, up to `limit` (where the first half stops). Returns
    /// true with the cursor after an item not followed by the gap, for the caller to see what follows;
    /// false with the cursor at the start of an item for the general path to read: one spelled some
    /// other way, or whose code is unknown or whose quantity would overflow (left unread: the general
    /// path reads it again and decides), or the first at or past `limit`.
    @inline(__always)
    private func runOfItems(
        _ c: inout Cursor, _ merger: inout CartLineMerger, _ layout: inout ItemLayout,
        before limit: UnsafePointer<UInt8>
    ) -> Bool {
        // One loop per kind of item: a single loop switching on the kind inside cost 1-2 % more
        // instructions on every spelling (callgrind), in the scanner's hottest code.
        switch c.peek {
        case UInt8(ascii: "\""):
            while c.p < limit {
                let start = c.p
                guard case .product(let id) = c.code(codes), merger.add(id, quantity: 1) else {
                    c.p = start
                    return false
                }
                guard layout.skipGap(&c) else { return true }
            }
        case UInt8(ascii: "{") where layout.isLearned:
            while c.p < limit {
                let start = c.p
                guard let (code, quantity) = layout.item(&c, codes), case .product(let id) = code,
                    merger.add(id, quantity: quantity)
                else {
                    c.p = start
                    return false
                }
                guard layout.skipGap(&c) else { return true }
            }
        case UInt8(ascii: "{"):
            while c.p < limit {
                let start = c.p
                guard let (code, quantity) = c.canonicalItem(codes), case .product(let id) = code,
                    merger.add(id, quantity: quantity)
                else {
                    c.p = start
                    return false
                }
                guard layout.skipGap(&c) else { return true }
            }
        default:
            break
        }
        return false
    }

    /// One item, a code or `{"code": …, "quantity": …}`, added to the lines.
    @inline(__always)
    private func scanItem(_ c: inout Cursor, _ merger: inout CartLineMerger, _ layout: inout ItemLayout) -> Bool {
        let code: ScannedCode
        var quantity: Int64 = 1
        switch c.peek {
        case UInt8(ascii: "\""):
            code = c.code(codes)
        case UInt8(ascii: "{"):
            // A learned layout first: a document has one (learned from an item that was not spelled
            // canonically) when its items are spelled another way.
            if layout.isLearned, let item = layout.item(&c, codes) {
                (code, quantity) = item
            } else if let item = c.canonicalItem(codes) {
                (code, quantity) = item
            } else {
                guard let item = scanItemObject(&c, &layout) else { return false }
                (code, quantity) = item
            }
        default:
            return false
        }
        guard case .product(let product) = code else { return false }
        return merger.add(product, quantity: quantity)
    }

    /// `{"code": "…", "quantity": N}` in either order, nothing else: its code (a product or unknown)
    /// and quantity. An item with both keys teaches `layout` its spelling.
    private func scanItemObject(_ c: inout Cursor, _ layout: inout ItemLayout) -> (ScannedCode, Int64)? {
        let start = c.p
        c.p += 1
        /// Nil until the item's `code` is read.
        var product: ScannedCode?
        var quantity: Int64 = 0
        // Where the values start and end, in the order they come.
        var bounds = (start, start, start, start)
        var keys = 0
        var codeFirst = true
        while true {
            c.skipSpace()
            guard let key = c.itemKey() else { return nil }
            c.skipSpace()
            guard c.consume(UInt8(ascii: ":")) else { return nil }
            c.skipSpace()
            let valueStart = c.p
            switch key {
            case .code:
                guard product == nil, case let code = c.code(codes), code != .invalid else { return nil }
                product = code
                if keys == 0 { codeFirst = true }
            case .quantity:
                guard quantity == 0, let value = c.quantity() else { return nil }
                quantity = value
                if keys == 0 { codeFirst = false }
            }
            if keys == 0 { (bounds.0, bounds.1) = (valueStart, c.p) } else { (bounds.2, bounds.3) = (valueStart, c.p) }
            keys += 1
            c.skipSpace()
            if c.consume(UInt8(ascii: "}")) { break }
            guard c.consume(UInt8(ascii: ",")) else { return nil }
        }
        guard let product else { return nil }
        if keys == 2 {
            layout.learnItem(
                start: start, first: (bounds.0, bounds.1), second: (bounds.2, bounds.3), end: c.p, codeFirst: codeFirst)
        }
        return (product, quantity == 0 ? 1 : quantity)
    }
}

/// A string the scanner read where a product code belongs.
enum ScannedCode: Equatable {
    /// The code of this product of the catalog.
    case product(ProductID)
    /// A well-formed string that is no code of the catalog (spelled with these bytes): the tree
    /// reader, which compares codes as strings, decides.
    case unknown
    /// Not a string the scanner reads here (malformed, or no string at all): the tree reader says why.
    case invalid

    @inline(__always)
    init(_ product: ProductID?) {
        self = product.map { .product($0) } ?? .unknown
    }
}

/// A cart's fields other than its items, as one half of a scan found them.
struct CartFields {
    static let currency: UInt8 = 1
    static let at: UInt8 = 2
    static let coupons: UInt8 = 4
    static let id: UInt8 = 8

    var cart = Cart()
    /// The fields seen, one bit each.
    var seen: UInt8 = 0

    /// Marks `field` seen; false when it already was (a duplicate key, which the tree reader refuses).
    @inline(__always)
    mutating func first(_ field: UInt8) -> Bool {
        guard seen & field == 0 else { return false }
        seen |= field
        return true
    }
}

extension Cart {
    /// Takes the fields `other` has (a half's), lines aside.
    fileprivate mutating func merge(_ other: Cart) {
        if let currency = other.currency { self.currency = currency }
        if let at = other.at { self.at = at }
        if let id = other.id { self.id = id }
        coupons += other.coupons
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

    /// Past blanks (space, tab, line feed, carriage return). After a line end or a tab comes
    /// indentation, so the spaces that follow are skipped up to eight at once: the first byte of the
    /// word that is not a space ends them, exactly.
    @inline(__always)
    mutating func skipSpace() {
        while p < end {
            let b = p.pointee
            guard Cursor.isBlank(b) else { return }
            p += 1
            guard b != 0x20 else { continue }
            while end - p >= 8 {
                let others = Cursor.load8(p) ^ 0x2020_2020_2020_2020
                guard others == 0 else {
                    p += others.trailingZeroBitCount >> 3
                    break
                }
                p += 8
            }
        }
    }

    @inline(__always)
    static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    /// The high bit of each byte of `word` that is zero, exactly (no borrow between bytes).
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word) & 0x8080_8080_8080_8080
    }

    /// The high bit of each byte of `word` that ends a plain run of string bytes: a quote, a
    /// backslash or a control character.
    @inline(__always)
    static func stringStops(_ word: UInt64) -> UInt64 {
        let control = ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x6060_6060_6060_6060) | word) & 0x8080_8080_8080_8080
        return zeroBytes(word ^ 0x2222_2222_2222_2222) | zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C) | control
    }

    /// The first byte from `q` that is a quote, a backslash or a control character, or `end`.
    @inline(__always)
    func stringStop(from q: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
        var q = q
        while end - q >= 8 {
            let stops = Cursor.stringStops(Cursor.load8(q))
            if stops != 0 { return q + (stops.trailingZeroBitCount >> 3) }
            q += 8
        }
        while q < end {
            let b = q.pointee
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { return q }
            q += 1
        }
        return end
    }

    enum ItemKey {
        case code
        case quantity
    }

    /// An item's key, `"code"` or `"quantity"`, compared a word at a time; nil for anything else,
    /// including these keys spelled with escapes (the tree reader then decides).
    @inline(__always)
    mutating func itemKey() -> ItemKey? {
        if end - p >= 10 {
            let word = Cursor.load8(p)
            if word & 0xFFFF_FFFF_FFFF == 0x2265_646F_6322 /* "code" */ {
                p += 6
                return .code
            }
            if word == 0x7469_746E_6175_7122 /* "quantit */, Cursor.load2(p + 8) == 0x2279 /* y" */ {
                p += 10
                return .quantity
            }
            return nil
        }
        guard let key = plainString() else { return nil }
        return key.equals("code") ? .code : key.equals("quantity") ? .quantity : nil
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

    /// A product code, looked up by its bytes. Bytes past ASCII are compared as they are: a match
    /// means they spell a catalog code, which is valid UTF-8; anything else is left to the tree
    /// reader, which says what is wrong. Escapes are decoded first. The cursor is past the string
    /// unless it is ``ScannedCode/invalid``.
    @inline(__always)
    mutating func code(_ codes: ByteLookup) -> ScannedCode {
        guard p < end, p.pointee == UInt8(ascii: "\"") else { return .invalid }
        let start = p + 1
        // Most codes are short: when the word at the code's start holds its closing quote, that one
        // load both finds the code's end and keys it.
        guard end - start >= 8, case let word = Cursor.load8(start), case let stops = Cursor.stringStops(word),
            stops != 0
        else { return longCode(codes) }
        let q = start + (stops.trailingZeroBitCount >> 3)
        switch q.pointee {
        case UInt8(ascii: "\""):
            p = q + 1
            return ScannedCode(codes.lookup(word: word, count: q - start))
        case UInt8(ascii: "\\"):
            return escapedCode(codes, firstStop: q)
        default:
            return .invalid  // a control character
        }
    }

    /// ``code(_:)`` for a code of 8 bytes or more, or near the end of the bytes.
    @inline(never)
    private mutating func longCode(_ codes: ByteLookup) -> ScannedCode {
        let start = p + 1
        let q = stringStop(from: start)
        guard q < end else { return .invalid }
        switch q.pointee {
        case UInt8(ascii: "\""):
            p = q + 1
            return ScannedCode(codes.lookup(start, q - start, readable: end - start))
        case UInt8(ascii: "\\"):
            return escapedCode(codes, firstStop: q)
        default:
            return .invalid
        }
    }

    /// A code with escapes, the cursor at its opening quote and `firstStop` at its first backslash,
    /// decoded by the cheapest of three paths that takes it: into one word (at most 7 bytes, escapes
    /// for ASCII characters: the usual escaped code), a byte at a time on the stack (at most 32
    /// bytes, ASCII escapes), or into a buffer with room for the catalog's longest code (anything).
    /// Kept small, so that its frame costs the usual code little.
    @inline(never)
    private mutating func escapedCode(_ codes: ByteLookup, firstStop: UnsafePointer<UInt8>) -> ScannedCode {
        escapedWordCode(codes, firstStop: firstStop) ?? longEscapedCode(codes, firstStop: firstStop)
    }

    /// ``escapedCode(_:firstStop:)`` for a code longer than 7 bytes once decoded, or with escapes
    /// past ASCII, or invalid: a byte at a time when it can, else decoded into a buffer on the stack
    /// with room for the catalog's longest code (a longer string is no code: the scan gives up), then
    /// looked up.
    @inline(never)
    private mutating func longEscapedCode(_ codes: ByteLookup, firstStop: UnsafePointer<UInt8>) -> ScannedCode {
        if let decided = shortEscapedCode(codes) { return decided }
        // Room for the longest code, an escape's 4 bytes and a word written past a short run; a
        // fixed size when that fits, which the compiler places on the stack outright.
        func decode(_ buffer: UnsafeMutableBufferPointer<UInt8>) -> ScannedCode {
            guard let count = unescapeString(into: buffer, firstStop: firstStop) else { return .invalid }
            return ScannedCode(codes.lookup(buffer.baseAddress!, count, readable: buffer.count))
        }
        if codes.longestCode <= 52 {
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64, decode)
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: codes.longestCode + 12, decode)
    }

    /// A code of at most 7 bytes once decoded, whose escapes stand for ASCII characters (`\u0050`),
    /// the cursor at its opening quote and `firstStop` at its first backslash: decoded into one word,
    /// a run of plain bytes (found a word at a time) or an escape at a time, and looked up as the
    /// scanner looks up a plain short code. Nil, the cursor unmoved, for anything else (a longer
    /// code, an escape past ASCII, a control character, the bytes' end within a word), which the
    /// paths after it decide.
    @inline(__always)
    private mutating func escapedWordCode(_ codes: ByteLookup, firstStop: UnsafePointer<UInt8>) -> ScannedCode? {
        var q = p + 1
        var stop = firstStop
        var word: UInt64 = 0
        var count = 0
        while true {
            let run = stop - q
            guard count + run <= 7 else { return nil }
            if run > 0 {
                guard end - q >= 8 else { return nil }
                word |= (Cursor.load8(q) & ((1 &<< (8 * UInt64(run))) &- 1)) &<< (8 * UInt64(count))
                count += run
            }
            switch stop.pointee {
            case UInt8(ascii: "\""):
                p = stop + 1
                return ScannedCode(codes.lookup(word: word, count: count))
            case UInt8(ascii: "\\"):
                guard count < 7 else { return nil }
                let scalar: UInt32
                let length: Int
                if end - stop >= 8, case let escape = Cursor.load8(stop),
                    escape & 0xFFFF_FFFF == 0x3030_755C /* \u00 */,
                    let byte = Cursor.asciiHex2(escape >> 32)
                {
                    // `\u00XX` for an ASCII character, the usual escape in a code, read from one word.
                    (scalar, length) = (UInt32(byte), 6)
                } else {
                    guard let (any, taken) = Cursor.escape(at: stop, end: end), any < 0x80 else {
                        return nil
                    }
                    (scalar, length) = (any, taken)
                }
                word |= UInt64(scalar) &<< (8 * UInt64(count))
                count += 1
                q = stop + length
                guard end - q >= 8, case let stops = Cursor.stringStops(Cursor.load8(q)), stops != 0 else {
                    return nil
                }
                stop = q + (stops.trailingZeroBitCount >> 3)
            default:
                return nil
            }
        }
    }

    /// A code of at most 32 bytes whose escapes stand for ASCII characters (`\u0050`, `\"`), the
    /// cursor at its opening quote: decoded a byte at a time into 32 bytes on the stack and looked
    /// up — a code's runs between escapes are a few bytes, for which the general path's word-at-a-time
    /// runs and its buffer cost more than the decoding. Nil, the cursor unmoved, for anything else
    /// (a longer string, an escape past ASCII, a control character), which the general path decides.
    @inline(__always)
    private mutating func shortEscapedCode(_ codes: ByteLookup) -> ScannedCode? {
        var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let start = p + 1
        let end = self.end
        let decoded = withUnsafeMutableBytes(of: &storage) { raw -> (count: Int, close: UnsafePointer<UInt8>)? in
            let out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var q = start
            var count = 0
            while q < end {
                let byte = q.pointee
                if byte == UInt8(ascii: "\"") { return (count, q) }
                guard count < 32, byte >= 0x20 else { return nil }
                if byte == UInt8(ascii: "\\") {
                    guard let (scalar, length) = Cursor.escape(at: q, end: end), scalar < 0x80 else { return nil }
                    out[count] = UInt8(truncatingIfNeeded: scalar)
                    q += length
                } else {
                    out[count] = byte
                    q += 1
                }
                count += 1
            }
            return nil
        }
        guard let decoded else { return nil }
        let found = withUnsafeBytes(of: &storage) { raw in
            codes.lookup(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), decoded.count, readable: raw.count)
        }
        p = decoded.close + 1
        return ScannedCode(found)
    }

    /// The escape at `q` (a backslash): the scalar it stands for and the bytes it takes, a
    /// surrogate pair as one; nil for an unknown escape, bad hex digits or a lone surrogate.
    @inline(__always)
    static func escape(at q: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) -> (UInt32, Int)? {
        guard end - q >= 2 else { return nil }
        switch q[1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return (UInt32(q[1]), 2)
        case UInt8(ascii: "b"): return (0x08, 2)
        case UInt8(ascii: "f"): return (0x0C, 2)
        case UInt8(ascii: "n"): return (0x0A, 2)
        case UInt8(ascii: "r"): return (0x0D, 2)
        case UInt8(ascii: "t"): return (0x09, 2)
        case UInt8(ascii: "u"):
            guard end - q >= 6, let scalar = hex4(q + 2) else { return nil }
            if scalar >= 0xD800, scalar < 0xDC00 {
                guard end - q >= 12, q[6] == UInt8(ascii: "\\"), q[7] == UInt8(ascii: "u"), let low = hex4(q + 8),
                    low >= 0xDC00, low < 0xE000
                else { return nil }
                return (0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00), 12)
            }
            guard scalar < 0xDC00 || scalar >= 0xE000 else { return nil }
            return (scalar, 6)
        default:
            return nil
        }
    }

    /// The two hex digits in the low two bytes of `digits` (the first the high nibble) when they
    /// stand for an ASCII character, 00 to 7F; else nil.
    @inline(__always)
    static func asciiHex2(_ digits: UInt64) -> UInt8? {
        let high = UInt8(truncatingIfNeeded: digits) &- UInt8(ascii: "0")
        let b = UInt8(truncatingIfNeeded: digits >> 8)
        let decimal = b &- UInt8(ascii: "0")
        let letter = (b | 0x20) &- UInt8(ascii: "a")
        guard high < 8, decimal < 10 || letter < 6 else { return nil }
        return high << 4 | (decimal < 10 ? decimal : letter &+ 10)
    }

    /// Four hex digits at `at` (which has at least four bytes).
    @inline(__always)
    private static func hex4(_ at: UnsafePointer<UInt8>) -> UInt32? {
        // Each digit's value and validity by arithmetic, combined without a branch per digit.
        var value: UInt32 = 0
        var invalid: UInt8 = 0
        for i in 0..<4 {
            let b = at[i]
            let decimal = b &- UInt8(ascii: "0")
            let letter = (b | 0x20) &- UInt8(ascii: "a")
            let isDecimal = decimal < 10
            // 1 when the byte is neither a decimal digit nor a letter a-f (either case).
            invalid |= (isDecimal ? 0 : 1) & (letter < 6 ? 0 : 1)
            value = value << 4 | UInt32(isDecimal ? decimal : letter &+ 10)
        }
        return invalid != 0 ? nil : value & 0xFFFF
    }

    /// Writes the UTF-8 bytes of `scalar` (a valid scalar value) at `out`: how many, 1 to 4.
    @inline(__always)
    static func encodeUTF8(_ scalar: UInt32, into out: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case ..<0x80:
            out[0] = UInt8(scalar)
            return 1
        case ..<0x800:
            out[0] = UInt8(0xC0 | scalar >> 6)
            out[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case ..<0x10000:
            out[0] = UInt8(0xE0 | scalar >> 12)
            out[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            out[0] = UInt8(0xF0 | scalar >> 18)
            out[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            out[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }

    /// A string's text, escapes decoded and UTF-8 checked; nil for anything invalid.
    mutating func text() -> String? {
        var probe = self
        if let plain = probe.plainString() {
            self = probe
            return String(decoding: plain, as: UTF8.self)
        }
        let capacity = min(end - p, 1 << 16)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> String? in
            guard let count = unescapeString(into: buffer) else { return nil }
            return String(validating: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
    }

    /// Decodes the string at the cursor (which is at its opening quote) into `buffer`, moving past
    /// its closing quote: the number of bytes written, or nil — the cursor unmoved — for a control
    /// character, a bad escape, a lone surrogate, or a string longer than the buffer.
    /// `firstStop`, when the caller found it already, is where the first run ends.
    @inline(__always)
    private mutating func unescapeString(
        into buffer: UnsafeMutableBufferPointer<UInt8>, firstStop: UnsafePointer<UInt8>? = nil
    ) -> Int? {
        guard p < end, p.pointee == UInt8(ascii: "\""), let out = buffer.baseAddress else { return nil }
        var q = p + 1
        var count = 0
        var known = firstStop
        while true {
            // A run of plain bytes, found a word at a time, then what ends it.
            let stop = known ?? stringStop(from: q)
            known = nil
            guard stop < end else { return nil }
            let run = stop - q
            guard run <= buffer.count - count else { return nil }
            if run <= 8, end - q >= 8, buffer.count - count >= 8 {
                // A short run as one word (its bytes past the run are overwritten or ignored): most
                // runs are a few bytes, and a call to memcpy cost more than the copy.
                UnsafeMutableRawPointer(out + count).storeBytes(of: Cursor.load8(q), as: UInt64.self)
            } else {
                (out + count).update(from: q, count: run)
            }
            count += run
            switch stop.pointee {
            case UInt8(ascii: "\""):
                p = stop + 1
                return count
            case UInt8(ascii: "\\"):
                guard let (scalar, length) = Cursor.escape(at: stop, end: end), buffer.count - count >= 4 else {
                    return nil
                }
                count += Cursor.encodeUTF8(scalar, into: out + count)
                q = stop + length
            default:
                return nil  // a control character
            }
        }
    }

    /// `{"code": "…", "quantity": N}` spelled exactly so, as generators and most writers spell an
    /// item, or compact, `{"code":"…","quantity":N}`, as serializers without indentation do: the
    /// fixed parts compared a word at a time. Nil, the cursor unmoved, for any other spelling, which
    /// ``CartScanner`` then reads key by key with the same result.
    @inline(__always)
    mutating func canonicalItem(_ codes: ByteLookup) -> (ScannedCode, Int64)? {
        guard end - p >= 10, Cursor.load8(p) == 0x3A22_6564_6F63_227B /* {"code": */ else { return nil }
        let compact = p[8] == UInt8(ascii: "\"")
        guard compact || Cursor.load2(p + 8) == 0x2220 /* ␣" */ else { return nil }
        var probe = Cursor(p: compact ? p + 8 : p + 9, end: end)
        guard case let product = probe.code(codes), product != .invalid else { return nil }
        let q = probe.p - 1  // the closing quote
        guard end - q >= 16 else { return nil }
        if compact {
            guard Cursor.load8(q) == 0x746E_6175_7122_2C22 /* ","quant */,
                Cursor.load8(q + 8) & 0xFF_FFFF_FFFF == 0x3A_2279_7469 /* ity": */
            else { return nil }
            probe.p = q + 13
        } else {
            guard Cursor.load8(q) == 0x6E61_7571_2220_2C22 /* ", "quan */,
                Cursor.load8(q + 8) & 0x00FF_FFFF_FFFF_FFFF == 0x20_3A22_7974_6974 /* tity":␣ */
            else { return nil }
            probe.p = q + 15
        }
        guard let quantity = probe.quantity(), probe.consume(UInt8(ascii: "}")) else { return nil }
        p = probe.p
        return (product, quantity)
    }

    /// The 8 bytes at `p`, the first the least significant.
    @inline(__always)
    static func load8(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// The 2 bytes at `p`, the first the least significant.
    @inline(__always)
    static func load2(_ p: UnsafePointer<UInt8>) -> UInt16 {
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
    var first: (CartScanner.HalfOutcome, [Cart.Line], CartFields)?
    var second: (CartScanner.HalfOutcome, [Cart.Line], CartFields)?
}

/// Positions in bytes that nobody writes while the halves are scanned.
private struct ReadOnlyPoints: @unchecked Sendable {
    let start: UnsafePointer<UInt8>
    let split: UnsafePointer<UInt8>
    let end: UnsafePointer<UInt8>
}
