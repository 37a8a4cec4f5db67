import Pricing

/// The fast path of ``CatalogFile``: one pass over the bytes, building the products without a
/// document tree. Keys in any order, any whitespace, escapes, fields the catalog does not use (plain
/// values: strings, numbers, `true`, `false`, `null`), products' attributes and tax rates. It
/// accepts only catalogs the tree reader accepts, with the same result; on anything else — a nested
/// unknown value, a duplicate key, any error — it gives up and the tree reader reads the file, with
/// its messages.
struct CatalogScanner {
    /// A product as scanned; its price is parsed once the currency is known (it may come last).
    private struct Entry {
        var code: String
        var name: String?
        var price: UnsafeBufferPointer<UInt8>
        var attributes: Attributes?
    }

    /// What few products of most catalogs have, kept apart so that an entry without any stays small.
    private struct Attributes {
        var category: String?
        var brand: String?
        var tags: [String]?
        var taxRate: UnsafeBufferPointer<UInt8>?

        var isEmpty: Bool { category == nil && brand == nil && tags == nil && taxRate == nil }
    }

    /// The catalog in `bytes`, or nil when the tree reader must decide.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Catalog? {
        guard let base = bytes.baseAddress else { return nil }
        var c = Cursor(p: base, end: base + bytes.count)
        c.skipSpace()
        guard c.consume(UInt8(ascii: "{")) else { return nil }
        var currency: Currency?
        var entries: [Entry]?
        var taxRate: UnsafeBufferPointer<UInt8>?
        var pricesIncludeTax: Bool?
        var others = UnknownKeys()
        c.skipSpace()
        if c.consume(UInt8(ascii: "}")) { return nil }  // no "products": the tree reader says so
        while true {
            c.skipSpace()
            guard let key = c.plainString() else { return nil }
            c.skipSpace()
            guard c.consume(UInt8(ascii: ":")) else { return nil }
            c.skipSpace()
            if key.equals("products") {
                guard entries == nil, let scanned = scanProducts(&c) else { return nil }
                entries = scanned
            } else if key.equals("currency") {
                guard currency == nil, let text = c.plainString(),
                    let code = Currency(code: String(decoding: text, as: UTF8.self))
                else { return nil }
                currency = code
            } else if key.equals("tax_rate") {
                guard taxRate == nil, let text = c.rate() else { return nil }
                taxRate = text
            } else if key.equals("prices_include_tax") {
                guard pricesIncludeTax == nil, let flag = c.boolean() else { return nil }
                pricesIncludeTax = flag
            } else {
                guard others.first(key), c.skipPlainValue() else { return nil }
            }
            c.skipSpace()
            if c.consume(UInt8(ascii: "}")) { break }
            guard c.consume(UInt8(ascii: ",")) else { return nil }
        }
        c.skipSpace()
        guard c.atEnd, let entries else { return nil }
        let money = currency ?? .euro
        var defaultRate: Int64?
        if let taxRate {
            guard let rate = Self.rate(taxRate) else { return nil }
            defaultRate = rate
        }
        var products: [Product] = []
        products.reserveCapacity(entries.count)
        var interner = AttributeInterner()
        for entry in entries {
            guard case .success(let price) = Amount.parse(entry.price, minorDigits: money.minorDigits), price >= 0
            else { return nil }
            var product = Product(code: entry.code, name: entry.name ?? entry.code, price: price)
            if let attributes = entry.attributes {
                guard Self.read(attributes, into: &product, &interner) else { return nil }
            }
            products.append(product)
        }
        return try? Catalog(
            currency: money, products: products, pricesIncludeTax: pricesIncludeTax ?? true, taxRate: defaultRate)
    }

    /// A rate's text in hundredths of a percent, when valid.
    private static func rate(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard case .success(let rate) = Amount.parse(text, minorDigits: 2), (0...Product.largestTaxRate).contains(rate)
        else { return nil }
        return rate
    }

    /// The attributes as the tree reader reads them; false when one is invalid.
    private static func read(_ attributes: Attributes, into product: inout Product, _ interner: inout AttributeInterner)
        -> Bool
    {
        if let text = attributes.category {
            guard let path = interner.category(text) else { return false }
            product.category = path
        }
        if let brand = attributes.brand {
            guard !brand.isEmpty else { return false }
            product.brand = interner.brand(brand)
        }
        if let tags = attributes.tags {
            guard !tags.contains(where: \.isEmpty) else { return false }
            product.tags = interner.tags(tags)
        }
        if let text = attributes.taxRate {
            guard let rate = rate(text) else { return false }
            product.taxRate = rate
        }
        return true
    }

    /// `[product, …]`.
    private static func scanProducts(_ c: inout Cursor) -> [Entry]? {
        guard c.consume(UInt8(ascii: "[")) else { return nil }
        var entries: [Entry] = []
        c.skipSpace()
        if c.consume(UInt8(ascii: "]")) { return entries }
        while true {
            c.skipSpace()
            guard let entry = scanProduct(&c) else { return nil }
            entries.append(entry)
            c.skipSpace()
            if c.consume(UInt8(ascii: "]")) { return entries }
            guard c.consume(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// `{"code": "…", "name": "…", "price": 7.5 or "7.50", …}`.
    private static func scanProduct(_ c: inout Cursor) -> Entry? {
        guard c.consume(UInt8(ascii: "{")) else { return nil }
        var code: String?
        var name: String?
        var price: UnsafeBufferPointer<UInt8>?
        var attributes = Attributes()
        var others = UnknownKeys()
        c.skipSpace()
        if c.consume(UInt8(ascii: "}")) { return nil }
        while true {
            c.skipSpace()
            guard let key = c.plainString() else { return nil }
            c.skipSpace()
            guard c.consume(UInt8(ascii: ":")) else { return nil }
            c.skipSpace()
            switch key.count {
            case 4 where key.equals("code"):
                guard code == nil, let text = c.text(), !text.isEmpty else { return nil }
                code = text
            case 4 where key.equals("name"):
                guard name == nil, let text = c.text() else { return nil }
                name = text
            case 5 where key.equals("price"):
                guard price == nil else { return nil }
                if c.peek == UInt8(ascii: "\"") {
                    guard let text = c.plainString() else { return nil }
                    price = text
                } else {
                    guard let literal = c.numberLiteral() else { return nil }
                    price = literal
                }
            case 4 where key.equals("tags"):
                guard attributes.tags == nil, let tags = c.strings() else { return nil }
                attributes.tags = tags
            case 5 where key.equals("brand"):
                guard attributes.brand == nil, let text = c.text() else { return nil }
                attributes.brand = text
            case 8 where key.equals("category"):
                guard attributes.category == nil, let text = c.text() else { return nil }
                attributes.category = text
            case 8 where key.equals("tax_rate"):
                guard attributes.taxRate == nil, let text = c.rate() else { return nil }
                attributes.taxRate = text
            default:
                guard others.first(key), c.skipPlainValue() else { return nil }
            }
            c.skipSpace()
            if c.consume(UInt8(ascii: "}")) { break }
            guard c.consume(UInt8(ascii: ",")) else { return nil }
        }
        guard let code, let price else { return nil }
        return Entry(code: code, name: name, price: price, attributes: attributes.isEmpty ? nil : attributes)
    }
}

/// The keys of one object that the scanner does not use, to refuse a repeated one as the tree
/// reader does. Objects rarely have more than a few.
private struct UnknownKeys {
    private var seen: [UnsafeBufferPointer<UInt8>] = []

    /// Records `key`; false when the object already had it.
    mutating func first(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        for other in seen where other.count == key.count && other.elementsEqual(key) { return false }
        seen.append(key)
        return true
    }
}

extension Cursor {
    /// A JSON number, `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`: its bytes, or nil.
    mutating func numberLiteral() -> UnsafeBufferPointer<UInt8>? {
        var q = p
        func digits() -> Bool {
            guard q < end, q.pointee &- 48 < 10 else { return false }
            while q < end, q.pointee &- 48 < 10 { q += 1 }
            return true
        }
        if q < end, q.pointee == UInt8(ascii: "-") { q += 1 }
        guard q < end else { return nil }
        if q.pointee == UInt8(ascii: "0") {
            q += 1
        } else {
            guard digits() else { return nil }
        }
        if q < end, q.pointee == UInt8(ascii: ".") {
            q += 1
            guard digits() else { return nil }
        }
        if q < end, q.pointee == UInt8(ascii: "e") || q.pointee == UInt8(ascii: "E") {
            q += 1
            if q < end, q.pointee == UInt8(ascii: "+") || q.pointee == UInt8(ascii: "-") { q += 1 }
            guard digits() else { return nil }
        }
        if q < end, q.pointee &- 48 < 10 { return nil }  // a leading zero followed by digits
        defer { p = q }
        return UnsafeBufferPointer(start: p, count: q - p)
    }

    /// A rate or price as written: a number literal's bytes, or a string's without escapes.
    mutating func rate() -> UnsafeBufferPointer<UInt8>? {
        peek == UInt8(ascii: "\"") ? plainString() : numberLiteral()
    }

    /// `true` or `false`.
    mutating func boolean() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// `[string, …]`: the strings' texts, escapes decoded.
    mutating func strings() -> [String]? {
        guard consume(UInt8(ascii: "[")) else { return nil }
        var texts: [String] = []
        skipSpace()
        if consume(UInt8(ascii: "]")) { return texts }
        while true {
            skipSpace()
            guard let text = text() else { return nil }
            texts.append(text)
            skipSpace()
            if consume(UInt8(ascii: "]")) { return texts }
            guard consume(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// Past a string, a number, `true`, `false` or `null`, each checked as the tree reader checks
    /// it; false for anything else (arrays and objects included).
    mutating func skipPlainValue() -> Bool {
        switch peek {
        case UInt8(ascii: "\""):
            return text() != nil
        case UInt8(ascii: "t"):
            return literal("true")
        case UInt8(ascii: "f"):
            return literal("false")
        case UInt8(ascii: "n"):
            return literal("null")
        default:
            return numberLiteral() != nil
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end - p >= count else { return false }
        for i in 0..<count where p[i] != word.utf8Start[i] { return false }
        p += count
        return true
    }
}
