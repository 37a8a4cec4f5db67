/// A product that can be sold: its code (as scanned), the name shown to shoppers, its list price,
/// and what it is (its category, brand and tags, for promotions that name products by them) and
/// its tax rate (docs/catalog.md, docs/taxes.md).
public struct Product: Sendable, Equatable {
    public var code: String
    public var name: String
    /// List price in minor units of the catalog's currency, ≥ 0.
    public var price: Int64
    /// The category path's names, trimmed (`"Clothing > Shirts"` is `["Clothing", "Shirts"]`); nil
    /// when the product has none.
    public var category: [String]?
    public var brand: String?
    /// In the order first given, repeats removed; empty when none.
    public var tags: [String]
    /// Hundredths of a percent (21 % is 2100). In a taxed catalog, every product's effective rate:
    /// its own or the catalog's default. Nil in a catalog without taxes.
    public var taxRate: Int64?

    public init(
        code: String, name: String, price: Int64, category: [String]? = nil, brand: String? = nil,
        tags: [String] = [], taxRate: Int64? = nil
    ) {
        self.code = code
        self.name = name
        self.price = price
        self.category = category
        self.brand = brand
        self.tags = tags
        self.taxRate = taxRate
    }

    /// A category path's names: `text` split at each `>`, each name trimmed of spaces and tabs;
    /// nil when a name is empty (`"Clothing >> Shirts"`, `""`, `" > Shirts"`).
    public static func categoryPath(_ text: String) -> [String]? {
        var names: [String] = []
        for part in text.utf8.split(separator: UInt8(ascii: ">"), omittingEmptySubsequences: false) {
            var start = part.startIndex
            var end = part.endIndex
            func blank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            while start < end, blank(part[start]) { start = part.index(after: start) }
            while end > start, blank(part[part.index(before: end)]) { end = part.index(before: end) }
            guard start < end else { return nil }
            names.append(String(Substring(part[start..<end])))
        }
        return names
    }

    /// `tags` in the order first given, each once (compared byte for byte).
    public static func uniqueTags(_ tags: [String]) -> [String] {
        guard tags.count > 1 else { return tags }
        var unique: [String] = []
        unique.reserveCapacity(tags.count)
        if tags.count <= 16 {
            for tag in tags where !unique.contains(where: { $0.utf8.elementsEqual(tag.utf8) }) { unique.append(tag) }
        } else {
            var seen = Set<[UInt8]>()
            for tag in tags where seen.insert(Array(tag.utf8)).inserted { unique.append(tag) }
        }
        return unique
    }

    /// The largest tax rate, 100 %, in hundredths of a percent.
    public static let largestTaxRate: Int64 = 10_000
}

/// A product's position in its catalog: the dense integer every later stage uses instead of the code.
public typealias ProductID = Int

/// The products on sale, in one currency. Codes are unique and case-sensitive.
public struct Catalog: Sendable {
    public let currency: Currency
    public let products: [Product]
    /// Whether list prices include tax (docs/taxes.md); true, the default, in a catalog without taxes.
    public let pricesIncludeTax: Bool
    /// The tax rates of a taxed catalog, nil otherwise.
    let taxTable: TaxTable?
    /// The products' codes → their ids, for ``productID(for:)`` and the cart scanner's lookups by bytes.
    public let codes: CodeTable

    /// Why products cannot form a catalog. `index` is the product's position in the list.
    public enum Problem: Error, Equatable, Sendable {
        case emptyCode(index: Int)
        case duplicateCode(String, index: Int, firstIndex: Int)
        case negativePrice(String, index: Int)
        /// A rate below 0 or above 100 % (`index` nil: the catalog's default rate).
        case taxRateOutOfRange(Int64, code: String?, index: Int?)
        /// A product without a rate of its own in a catalog with taxes but no default rate.
        case missingTaxRate(String, index: Int)
    }

    /// A catalog of `products`. It has taxes when `taxRate` (the default rate, for products without
    /// one of their own) or a product's `taxRate` is given: every product's `taxRate` is then its
    /// effective rate, and a product with neither is a problem.
    public init(
        currency: Currency = .euro, products: [Product], pricesIncludeTax: Bool = true, taxRate: Int64? = nil
    ) throws(Problem) {
        // The first problem in catalog order: an empty code or a negative price, or a code that
        // repeats an earlier one; then the rates.
        let bad = products.firstIndex { $0.code.isEmpty || $0.price < 0 }
        let (codes, duplicate) = CodeTable.build(products)
        if let duplicate, duplicate.index < bad ?? .max {
            throw .duplicateCode(products[duplicate.index].code, index: duplicate.index, firstIndex: duplicate.first)
        }
        if let bad {
            throw products[bad].code.isEmpty ? .emptyCode(index: bad) : .negativePrice(products[bad].code, index: bad)
        }
        var products = products
        let taxTable = try TaxTable.fill(&products, default: taxRate)
        self.currency = currency
        self.products = products
        self.pricesIncludeTax = pricesIncludeTax
        self.taxTable = taxTable
        self.codes = codes
    }

    /// Whether the catalog has taxes (a `tax_rate` anywhere): receipts then break their totals down by rate.
    public var isTaxed: Bool { taxTable != nil }

    /// The id of the product with this exact code.
    public func productID(for code: String) -> ProductID? { codes.position(of: code) }

    /// The id of the product whose code equals the UTF-8 text `utf8` (as strings compare), and
    /// whether its code has exactly those bytes (then the catalog's code is that text).
    public func productID(utf8: UnsafeBufferPointer<UInt8>) -> (id: ProductID, sameBytes: Bool)? {
        codes.position(utf8: utf8)
    }

    /// Lookups of many codes, with the code table's addresses loaded once (``CodeLookup``).
    public var codeLookup: CodeLookup { CodeLookup(codes) }

    public subscript(id: ProductID) -> Product { products[id] }
}

extension Catalog.Problem: CustomStringConvertible {
    public var description: String {
        switch self {
        case .emptyCode(let index): "products[\(index)]: the code is empty"
        case .duplicateCode(let code, let index, let first):
            "products[\(index)]: the code \"\(code)\" is already used by products[\(first)]; codes must be unique"
        case .negativePrice(let code, let index):
            "products[\(index)] (\"\(code)\"): the price is negative; prices must be ≥ 0"
        case .taxRateOutOfRange(let rate, let code, let index):
            (index.map { "products[\($0)] (\"\(code ?? "")\"): " } ?? "the default ")
                + "tax rate \(Amount.format(rate, minorDigits: 2)) % is not between 0 and 100"
        case .missingTaxRate(let code, let index):
            "products[\(index)] (\"\(code)\"): no \"tax_rate\"; the catalog has taxes, so every product needs a "
                + "\"tax_rate\" of its own or the catalog's default \"tax_rate\" (a missing rate is not a zero rate)"
        }
    }
}
