import Pricing
import SeededRandom

/// Taxes (docs/taxes.md) written the plain way from the contract's words, to check the engine
/// against: the catalog's rates as written (a product's own `tax_rate`, else the root's), the
/// lines' totals from the reference model's result, one entry per distinct rate of the cart's lines,
/// each rounded once with exact rational arithmetic. Nothing is shared with the engine's tax step.
public struct ReferenceTaxes {
    /// The catalog's tax keys as a file writes them, in hundredths of a percent.
    public var rootRate: Int64?
    /// Per product, in catalog order: its own `tax_rate`, if any.
    public var productRates: [Int64?]
    public var pricesIncludeTax: Bool

    public init(rootRate: Int64?, productRates: [Int64?], pricesIncludeTax: Bool) {
        self.rootRate = rootRate
        self.productRates = productRates
        self.pricesIncludeTax = pricesIncludeTax
    }

    public struct Entry: Equatable, Sendable, CustomStringConvertible {
        public var rate: Int64
        public var base: Int64
        public var tax: Int64
        public var description: String { "\(rate): \(base) + \(tax)" }

        public init(rate: Int64, base: Int64, tax: Int64) {
            self.rate = rate
            self.base = base
            self.tax = tax
        }
    }

    public struct Result: Equatable, Sendable {
        /// Each line's rate.
        public var lineRates: [Int64]
        public var entries: [Entry]
        public var tax: Int64
        /// What the customer pays.
        public var total: Int64

        public init(lineRates: [Int64], entries: [Entry], tax: Int64, total: Int64) {
            self.lineRates = lineRates
            self.entries = entries
            self.tax = tax
            self.total = total
        }
    }

    /// Whether the catalog has taxes: a `tax_rate` anywhere, a root one of 0 included.
    public var isTaxed: Bool { rootRate != nil || productRates.contains { $0 != nil } }

    /// The first product (its position) that has no rate in a taxed catalog.
    public var productWithoutRate: Int? {
        guard isTaxed, rootRate == nil else { return nil }
        return productRates.firstIndex { $0 == nil }
    }

    /// n / d rounded half away from zero, by the definition: the nearest integer, and of two the
    /// one farther from zero. Worked with doubled numerators so that no fraction is ever made.
    static func roundHalfAway(_ n: Int128, _ d: Int128) -> Int128 {
        precondition(d > 0)
        let magnitude = n < 0 ? -n : n
        // floor(|n| / d + 1/2) = floor((2|n| + d) / 2d)
        let rounded = (2 * magnitude + d) / (2 * d)
        return n < 0 ? -rounded : rounded
    }

    /// The taxes of the cart priced to `result` (the reference model's), the cart's lines being
    /// `cart`'s; nil in a catalog without taxes.
    public func taxes(of cart: Cart, result: ReferenceModel.Result, prices: [Int64]) -> Result? {
        guard isTaxed else { return nil }
        var lineRates: [Int64] = []
        var lineTotals: [Int64] = []
        for (index, line) in cart.lines.enumerated() {
            let rate = productRates[line.product] ?? rootRate!
            lineRates.append(rate)
            let itemDiscount = result.lines[index].reduce(Int64(0)) { $0 + $1.discount }
            lineTotals.append(line.quantity * prices[line.product] - itemDiscount - result.cartShares[index])
        }
        var entries: [Entry] = []
        for rate in Set(lineRates).sorted() {
            var g: Int64 = 0
            for index in lineRates.indices where lineRates[index] == rate { g += lineTotals[index] }
            if pricesIncludeTax {
                let tax = Int64(Self.roundHalfAway(Int128(g) * Int128(rate), 10_000 + Int128(rate)))
                entries.append(Entry(rate: rate, base: g - tax, tax: tax))
            } else {
                let tax = Int64(Self.roundHalfAway(Int128(g) * Int128(rate), 10_000))
                entries.append(Entry(rate: rate, base: g, tax: tax))
            }
        }
        let tax = entries.reduce(Int64(0)) { $0 + $1.tax }
        let sumOfLines = lineTotals.reduce(Int64(0), +)
        return Result(
            lineRates: lineRates, entries: entries, tax: tax, total: pricesIncludeTax ? sumOfLines : sumOfLines + tax)
    }
}

/// Random shops (``RandomV2Shop``'s promotions, v2 and cart promotions included) with taxes: a few
/// rates, on products and at the root, prices with or without tax.
public struct RandomTaxedShop {
    public let shop: RandomV2Shop
    public let taxes: ReferenceTaxes
    /// The taxed catalog, as the engine reads it; nil when some product has no rate.
    public let catalog: Catalog?

    public static let rates: [Int64] = [0, 1, 333, 400, 550, 725, 1000, 1900, 2000, 2100, 2500, 9999, 10_000]

    public init(random: inout SplitMix64) {
        shop = RandomV2Shop(random: &random)
        let palette = (0..<random.draw(1...4)).map { _ in Self.rates[random.draw(0...(Self.rates.count - 1))] }
        let root: Int64? = random.draw(0...3) == 0 ? nil : palette[random.draw(0...(palette.count - 1))]
        var productRates: [Int64?] = shop.catalog.products.map { _ in
            random.draw(0...2) == 0 ? nil : palette[random.draw(0...(palette.count - 1))]
        }
        // Without a root rate, now and then a product without one: the catalog is refused.
        if root == nil, random.draw(0...4) != 0 {
            for index in productRates.indices where productRates[index] == nil {
                productRates[index] = palette[random.draw(0...(palette.count - 1))]
            }
        }
        if root == nil, !productRates.contains(where: { $0 != nil }) { productRates[0] = palette[0] }
        taxes = ReferenceTaxes(
            rootRate: root, productRates: productRates, pricesIncludeTax: random.draw(0...1) == 0)
        let products = zip(shop.catalog.products, productRates).map { product, rate in
            var product = product
            product.taxRate = rate
            return product
        }
        catalog = try? Catalog(
            products: products, pricesIncludeTax: taxes.pricesIncludeTax, taxRate: root)
    }
}
