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
        let divisor = pricesIncludeTax ? 10_000 + rate : 10_000
        let tax: Int64
        if total.magnitude <= UInt64(Int64.max) / 10_000, (0...Product.largestTaxRate).contains(rate) {
            tax = taxQuotient(total * rate, divisor)  // total × rate fits in 64 bits
        } else {
            tax = Int64(taxQuotient(Int128(total) * Int128(rate), Int128(divisor)))
        }
        self.init(rate: rate, base: pricesIncludeTax ? total - tax : total, tax: tax)
    }

    /// The same entry, the divisor's quotient worked out by a multiplication with its reciprocal
    /// (a division takes several times longer, and the tax step makes one per rate of every
    /// cart). `division` is the divisor for `rate` in the basis: 10000 + rate with prices
    /// including tax, else ``TaxDivision/net``. `rate` is a tax table's, within
    /// 0...``Product/largestTaxRate`` (checked when the table was made, not per cart).
    @inline(__always)
    init(rate: Int64, total: Int64, pricesIncludeTax: Bool, division: TaxDivision) {
        guard Self.fitsIn32Bits(total: total) else {
            self.init(rate: rate, total: total, pricesIncludeTax: pricesIncludeTax)
            return
        }
        // total × rate < 2³² (up to 42,949.67 at 100 %); rounding half up is half away from zero here.
        let x = UInt32(truncatingIfNeeded: total) &* UInt32(truncatingIfNeeded: rate)
        let quotient = division.quotient(x)
        let remainder = x &- quotient &* division.divisor
        // Rounded up when 2 × remainder ≥ divisor, that is when divisor − 1 − 2 × remainder is
        // negative: its sign bit, not a branch (taken about half the time, mispredicted as often).
        let up = (UInt64(division.divisor) &- 1 &- 2 &* UInt64(remainder)) >> 63
        let tax = Int64(quotient &+ UInt32(truncatingIfNeeded: up))
        self.init(rate: rate, base: pricesIncludeTax ? total - tax : total, tax: tax)
    }

    /// Whether total × rate is a non-negative number below 2³² for any rate of a table: one
    /// comparison, a negative total being a very large unsigned one.
    @inline(__always)
    private static func fitsIn32Bits(total: Int64) -> Bool {
        UInt64(bitPattern: total) <= UInt64(UInt32.max) / UInt64(Product.largestTaxRate)
    }
}

/// Division of 32-bit numbers by a divisor fixed in advance (a tax rate's), with a 64×64-bit
/// multiplication: with m = ⌊(2⁶⁴ − 1) / d⌋ + 1 = 2⁶⁴/d + e (0 ≤ e < 1), x·m / 2⁶⁴ = x/d + x·e/2⁶⁴,
/// and for x < 2³² and d < 2³² the excess x·e/2⁶⁴ < 2⁻³² < 1/d cannot carry x/d (whose fraction
/// is at most (d − 1)/d) past the next integer: the high word of x·m is ⌊x / d⌋ exactly.
struct TaxDivision: Sendable {
    let divisor: UInt32
    let reciprocal: UInt64

    init(divisor: UInt32) {
        precondition(divisor > 1)
        self.divisor = divisor
        reciprocal = UInt64.max / UInt64(divisor) &+ 1
    }

    /// The divisor of a net price's tax (rate / 10000).
    static let net = TaxDivision(divisor: 10_000)

    /// ⌊x / divisor⌋.
    @inline(__always)
    func quotient(_ x: UInt32) -> UInt32 {
        UInt32(truncatingIfNeeded: UInt64(x).multipliedFullWidth(by: reciprocal).high)
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
        self.init(pricesIncludeTax: pricesIncludeTax, rates: rates, tax: rates.reduce(0) { $0 + $1.tax })
    }

    init(pricesIncludeTax: Bool, rates: [TaxAmount], tax: Int64) {
        self.pricesIncludeTax = pricesIncludeTax
        self.rates = rates
        self.tax = tax
    }

    /// What the tax adds to the lines' totals: the tax with net prices, nothing with gross ones.
    public var added: Int64 { pricesIncludeTax ? 0 : tax }
}

/// A taxed catalog's rates.
struct TaxTable: Sendable {
    /// The distinct rates of its products, ascending, in hundredths of a percent.
    let rates: [Int64]
    /// Per rate of `rates`: the reciprocal of its divisor with prices including tax (10000 + rate),
    /// so that the tax step multiplies instead of dividing (see ``TaxDivision``).
    let grossDivisions: [TaxDivision]
    /// Per rate 0...10000: its position in `rates`, or `notARate`; empty when the catalog has
    /// more than ``summedRates`` rates. A line's rate finds its sum with one load, and the sums,
    /// kept by position, come out ascending by rate.
    let positions: [UInt8]

    /// The most rates whose sums the tax step keeps by position (a bit each in a word).
    static let summedRates = 64
    static let notARate = UInt8.max

    init(rates: [Int64]) {
        precondition(rates.allSatisfy { (0...Product.largestTaxRate).contains($0) })
        self.rates = rates
        grossDivisions = rates.map { TaxDivision(divisor: UInt32(10_000 + $0)) }
        guard rates.count <= Self.summedRates else {
            positions = []
            return
        }
        var positions = [UInt8](repeating: Self.notARate, count: Int(Product.largestTaxRate) + 1)
        for (position, rate) in rates.enumerated() { positions[Int(rate)] = UInt8(position) }
        self.positions = positions
    }

    /// Fills in each product's effective rate (its own, else `defaultRate`) and builds the table;
    /// nil, the products untouched, when no rate is given anywhere (a catalog without taxes).
    static func fill(_ products: inout [Product], default defaultRate: Int64?) throws(Catalog.Problem) -> TaxTable? {
        if let defaultRate, !(0...Product.largestTaxRate).contains(defaultRate) {
            throw .taxRateOutOfRange(defaultRate, code: nil, index: nil)
        }
        guard defaultRate != nil || products.contains(where: { $0.taxRate != nil }) else { return nil }
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
        return TaxTable(rates: used.indices.filter { used[$0] }.map(Int64.init))
    }

    /// The receipt's taxes, from its lines' rates (set when the lines were made) and totals. Work
    /// per line: one load for the position of its rate, one sum, on the stack, no branch on the
    /// rate; the rest is per rate. Reads nothing shared with other threads but the catalog, writes
    /// no line. `storage` lends the entries' array.
    func apply(
        to receipt: inout Receipt, pricesIncludeTax: Bool, catalog: borrowing Catalog, storage: inout ReceiptStorage
    ) throws(PricingError) {
        // An earlier receipt's entries, written over in place.
        var entries: [TaxAmount] = []
        var tax: Int64 = 0
        // The sums on the stack, room for every rate the table keeps by position: a size known
        // here, so no allocation and no check of the stack per cart.
        let summed = withUnsafeTemporaryAllocation(of: Int64.self, capacity: Self.summedRates) { sums -> Bool in
            guard !positions.isEmpty, let met = sum(receipt.lines, into: sums) else { return false }
            entries = storage.takeTaxAmounts(count: Self.count(met))
            tax = write(&entries, sums: sums, met: met, pricesIncludeTax: pricesIncludeTax)
            return true
        }
        if !summed {
            entries = storage.takeManyTaxAmounts()
            tax = Self.manyRates(&receipt, catalog, pricesIncludeTax: pricesIncludeTax, into: &entries)
        }
        if !pricesIncludeTax, receipt.linesTotal.addingReportingOverflow(tax).overflow {
            throw .totalOverflow(currency: receipt.currency)
        }
        receipt.taxes = ReceiptTaxes(pricesIncludeTax: pricesIncludeTax, rates: entries, tax: tax)
    }

    /// Sums the lines' totals by the position of their rate into `sums` (one per rate of the
    /// table), and returns the positions met as bits (a rate whose lines total 0 keeps its entry);
    /// nil when a line has no rate or one the table lacks (a line not made by the engine).
    @inline(__always)
    private func sum(_ lines: [Receipt.Line], into sums: UnsafeMutableBufferPointer<Int64>) -> UInt64? {
        // Every sum starts at 0: no branch on whether a line is its rate's first (which rates
        // come first varies from cart to cart: mispredicted).
        Self.zero(sums, count: rates.count)
        return lines.withUnsafeBufferPointer { lines -> UInt64? in
            positions.withUnsafeBufferPointer { positions -> UInt64? in
                var met: UInt64 = 0
                for index in lines.indices {
                    guard case .some(let rate) = lines[index].taxRate,
                        UInt64(bitPattern: rate) < UInt64(positions.count)
                    else { return nil }
                    let position = Int(positions[Int(truncatingIfNeeded: rate)])
                    guard position < Self.summedRates else { return nil }
                    // Σ line totals ≤ the subtotal, which fits: no overflow.
                    sums[position] &+= lines[index].total
                    met |= 1 << UInt64(position)
                }
                return met
            }
        }
    }

    /// Writes one entry per position met, ascending, over `entries` (as many as positions met),
    /// each rate's tax on its sum; returns Σ their tax (each ≤ its sum: the total fits).
    @inline(__always)
    private func write(
        _ entries: inout [TaxAmount], sums: UnsafeMutableBufferPointer<Int64>, met: UInt64, pricesIncludeTax: Bool
    ) -> Int64 {
        var tax: Int64 = 0
        var met = met
        rates.withUnsafeBufferPointer { rates in
            grossDivisions.withUnsafeBufferPointer { grossDivisions in
                entries.withUnsafeMutableBufferPointer { entries in
                    var next = 0
                    while met != 0 {
                        let position = met.trailingZeroBitCount
                        met &= met &- 1
                        entries[next] = TaxAmount(
                            rate: rates[position], total: sums[position], pricesIncludeTax: pricesIncludeTax,
                            division: pricesIncludeTax ? grossDivisions[position] : .net)
                        tax &+= entries[next].tax
                        next += 1
                    }
                }
            }
        }
        return tax
    }

    /// The general path: lines made without their product's rate (not by the engine) get it from
    /// the catalog, and the lines' (rate, total) pairs are sorted, for any number of rates.
    @inline(never)
    private static func manyRates(
        _ receipt: inout Receipt, _ catalog: borrowing Catalog, pricesIncludeTax: Bool, into entries: inout [TaxAmount]
    ) -> Int64 {
        fillRates(&receipt, catalog)
        entries.removeAll(keepingCapacity: true)
        sums(of: receipt.lines, into: &entries)
        var tax: Int64 = 0
        for position in entries.indices {
            entries[position] = TaxAmount(
                rate: entries[position].rate, total: entries[position].base, pricesIncludeTax: pricesIncludeTax)
            tax &+= entries[position].tax
        }
        return tax
    }

    /// How many bits of `met` are set. The baseline x86-64 target has no instruction for it (the
    /// library's count takes about 20 instructions): the first eight positions, where the rates
    /// of most catalogs sit, are counted by two lookups in a word of 4-bit counts.
    @inline(__always)
    static func count(_ met: UInt64) -> Int {
        guard met < 256 else { return met.nonzeroBitCount }
        // Nibble n of `counts` is the number of bits set in n.
        let counts: UInt64 = 0x4332_3221_3221_2110
        let low = counts >> ((met & 15) << 2)
        let high = counts >> ((met >> 4) << 2)
        return Int(truncatingIfNeeded: (low & 15) &+ (high & 15))
    }

    /// The first `count` sums set to 0: eight words stored at once, any more one by one (a table
    /// of more than eight rates is rare). No call to `memset` per cart.
    @inline(__always)
    private static func zero(_ sums: UnsafeMutableBufferPointer<Int64>, count: Int) {
        UnsafeMutableRawPointer(sums.baseAddress!).storeBytes(of: SIMD8<Int64>(), as: SIMD8<Int64>.self)
        if count > 8 { zeroRest(sums, count: count) }
    }

    @inline(never)
    private static func zeroRest(_ sums: UnsafeMutableBufferPointer<Int64>, count: Int) {
        for position in 8..<count { sums[position] = 0 }
    }

    /// Lines made without their product's rate (not by the engine) get it from the catalog.
    @inline(never)
    private static func fillRates(_ receipt: inout Receipt, _ catalog: borrowing Catalog) {
        for index in receipt.lines.indices where receipt.lines[index].taxRate == nil {
            receipt.lines[index].taxRate = catalog.products[receipt.lines[index].product].taxRate
        }
    }

    /// Per distinct rate of `lines`, ascending: an entry whose `base` is the sum of their totals.
    /// The lines' (rate, total) pairs sorted: for carts with many rates.
    @inline(never)
    private static func sums(of lines: [Receipt.Line], into entries: inout [TaxAmount]) {
        withUnsafeTemporaryAllocation(of: (rate: Int64, total: Int64).self, capacity: lines.count) { buffer in
            var pairs = buffer
            for index in lines.indices {
                pairs.initializeElement(at: index, to: (lines[index].taxRate.unsafelyUnwrapped, lines[index].total))
            }
            pairs.sort { $0.rate < $1.rate }
            for pair in pairs {
                if entries.last?.rate == pair.rate {
                    entries[entries.count - 1].base &+= pair.total
                } else {
                    entries.append(TaxAmount(rate: pair.rate, base: pair.total, tax: 0))
                }
            }
            _ = pairs.deinitialize()
        }
    }
}

extension Catalog {
    /// Gives `receipt` its taxes in place, when the catalog has taxes (docs/taxes.md); else leaves
    /// it unchanged. `storage` lends the arrays of a receipt done with. The engine's step.
    @inline(__always)
    func applyTaxes(to receipt: inout Receipt, storage: inout ReceiptStorage) throws(PricingError) {
        guard case .some(let table) = taxTable else { return }
        try table.apply(to: &receipt, pricesIncludeTax: pricesIncludeTax, catalog: self, storage: &storage)
    }

    /// `receipt` with its taxes, when the catalog has taxes; else unchanged.
    public func taxed(_ receipt: consuming Receipt) throws(PricingError) -> Receipt {
        var storage = ReceiptStorage()
        try applyTaxes(to: &receipt, storage: &storage)
        return receipt
    }

    /// The distinct tax rates of a taxed catalog, ascending; empty without taxes.
    public var taxRates: [Int64] { taxTable?.rates ?? [] }
}

/// `x / d` rounded half away from zero (d > 0).
@inline(__always)
private func taxQuotient<T: BinaryInteger>(_ x: T, _ d: T) -> T {
    let (quotient, remainder) = x.quotientAndRemainder(dividingBy: d)
    guard remainder.magnitude * 2 >= d.magnitude else { return quotient }
    return x < 0 ? quotient - 1 : quotient + 1
}
