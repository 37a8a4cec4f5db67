/// Taxes (docs/taxes.md): worked out from a priced receipt, once per rate of the cart — never per
/// unit or per line. Promotions never see them: they work on the catalog's prices as written.
///
/// For the lines at rate r (b = r in hundredths of a percent) whose totals sum to G:
/// - prices include tax: tax = round(G × b / (10000 + b)), base = G − tax;
/// - prices exclude tax: base = G, tax = round(G × b / 10000), and the customer pays the tax on top.
///
/// Rounding is half away from zero, once per rate.

/// One rate's share of a receipt: the amount taxed at it and the tax.
public struct TaxAmount: Sendable, Equatable {
    /// Hundredths of a percent (21 % is 2100).
    public var rate: Int64
    /// The amount without tax.
    public var base: Int64
    public var tax: Int64

    public init(rate: Int64, base: Int64, tax: Int64) {
        self.rate = rate
        self.base = base
        self.tax = tax
    }

    /// The entry for lines at `rate` whose totals sum to `gross` (in the catalog's price basis).
    public init(rate: Int64, total: Int64, pricesIncludeTax: Bool) {
        self.rate = rate
        if pricesIncludeTax {
            tax = Int64(taxQuotient(Int128(total) * Int128(rate), 10_000 + Int128(rate)))
            base = total - tax
        } else {
            base = total
            tax = Int64(taxQuotient(Int128(total) * Int128(rate), 10_000))
        }
    }
}

/// A taxed receipt's taxes.
public struct ReceiptTaxes: Sendable, Equatable {
    /// Whether the catalog's prices (and so the lines' totals) include tax.
    public var pricesIncludeTax: Bool
    /// One entry per distinct rate among the cart's lines, ascending by rate (none for an empty cart).
    public var rates: [TaxAmount]
    /// Σ the entries' tax.
    public var tax: Int64

    public init(pricesIncludeTax: Bool, rates: [TaxAmount]) {
        self.pricesIncludeTax = pricesIncludeTax
        self.rates = rates
        tax = rates.reduce(0) { $0 + $1.tax }
    }

    /// What the tax adds to the lines' totals: the tax with net prices, nothing with gross ones.
    public var added: Int64 { pricesIncludeTax ? 0 : tax }
}

/// A taxed catalog's rates: the distinct rates, ascending, and each product's position among them.
struct TaxTable: Sendable {
    /// Ascending, in hundredths of a percent.
    let rates: [Int64]
    /// Per product id: its rate's position in `rates`.
    let positions: [UInt16]

    /// Fills in each product's effective rate (its own, else `defaultRate`) and builds the table;
    /// nil, the products untouched, when no rate is given anywhere (a catalog without taxes).
    static func fill(_ products: inout [Product], default defaultRate: Int64?) throws(Catalog.Problem) -> TaxTable? {
        if let defaultRate, !(0...Product.largestTaxRate).contains(defaultRate) {
            throw .taxRateOutOfRange(defaultRate, code: nil, index: nil)
        }
        guard defaultRate != nil || products.contains(where: { $0.taxRate != nil }) else { return nil }
        // Rates are 0...10000: one slot per possible rate, to find each product's position.
        var used = [Bool](repeating: false, count: Int(Product.largestTaxRate) + 1)
        for index in products.indices {
            guard let rate = products[index].taxRate ?? defaultRate else {
                throw .missingTaxRate(products[index].code, index: index)
            }
            guard (0...Product.largestTaxRate).contains(rate) else {
                throw .taxRateOutOfRange(rate, code: products[index].code, index: index)
            }
            if products[index].taxRate == nil { products[index].taxRate = rate }
            used[Int(rate)] = true
        }
        var rates: [Int64] = []
        var position = [UInt16](repeating: 0, count: used.count)
        for rate in used.indices where used[rate] {
            position[rate] = UInt16(rates.count)
            rates.append(Int64(rate))
        }
        return TaxTable(rates: rates, positions: products.map { position[Int($0.taxRate!)] })
    }

    /// Sets each line's rate and the receipt's taxes. Work per line: one lookup and one sum; the
    /// rest is per rate. `storage` lends the entries' array.
    func apply(to receipt: inout Receipt, pricesIncludeTax: Bool, storage: inout ReceiptStorage)
        throws(PricingError)
    {
        var entries = storage.takeTaxAmounts()
        let count = rates.count
        rates.withUnsafeBufferPointer { rates in
            positions.withUnsafeBufferPointer { positions in
                withUnsafeTemporaryAllocation(of: Int64.self, capacity: count) { sums in
                    // -1: no line at this rate (a line's total is never negative).
                    sums.initialize(repeating: -1)
                    var low = count
                    var high = -1
                    receipt.lines.withUnsafeMutableBufferPointer { lines in
                        for index in lines.indices {
                            let position = Int(positions[lines[index].product])
                            lines[index].taxRate = rates[position]
                            // Σ line totals ≤ the subtotal, which fits: no overflow.
                            sums[position] = max(sums[position], 0) &+ lines[index].total
                            low = min(low, position)
                            high = max(high, position)
                        }
                    }
                    if low <= high {
                        for position in low...high where sums[position] >= 0 {
                            entries.append(
                                TaxAmount(
                                    rate: rates[position], total: sums[position], pricesIncludeTax: pricesIncludeTax))
                        }
                    }
                }
            }
        }
        let taxes = ReceiptTaxes(pricesIncludeTax: pricesIncludeTax, rates: entries)
        if !pricesIncludeTax, receipt.linesTotal.addingReportingOverflow(taxes.tax).overflow {
            throw .totalOverflow(currency: receipt.currency)
        }
        receipt.taxes = taxes
    }
}

extension Catalog {
    /// `receipt` with its taxes, when the catalog has taxes (docs/taxes.md); else unchanged.
    /// `storage` lends the arrays of a receipt done with.
    @inline(__always)
    public func taxed(_ receipt: consuming Receipt, storage: inout ReceiptStorage) throws(PricingError) -> Receipt {
        guard let taxTable else { return receipt }
        try taxTable.apply(to: &receipt, pricesIncludeTax: pricesIncludeTax, storage: &storage)
        return receipt
    }

    /// As above, without storage to reuse.
    public func taxed(_ receipt: consuming Receipt) throws(PricingError) -> Receipt {
        var storage = ReceiptStorage()
        return try taxed(receipt, storage: &storage)
    }

    /// The distinct tax rates of a taxed catalog, ascending; empty without taxes.
    public var taxRates: [Int64] { taxTable?.rates ?? [] }
}

/// `x / d` rounded half away from zero (d > 0).
private func taxQuotient(_ x: Int128, _ d: Int128) -> Int128 {
    let (quotient, remainder) = x.quotientAndRemainder(dividingBy: d)
    guard remainder.magnitude * 2 >= d.magnitude else { return quotient }
    return x < 0 ? quotient - 1 : quotient + 1
}
