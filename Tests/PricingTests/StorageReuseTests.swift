import Testing

@testable import Pricing

/// A batch prices cart after cart in the storage of the last one's lines: nothing allocated per
/// cart, and nothing of the last cart left in the next.
@Suite("Storage reused from cart to cart")
struct StorageReuseTests {
    static func base(_ lines: [Cart.Line]) -> UnsafeRawPointer? {
        lines.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test("recycled cart lines: two buffers take turns, each cart's lines exactly its own")
    func mergerRecycles() {
        var merger = CartLineMerger(productCount: 10)
        var bases: [UnsafeRawPointer?] = []
        for n in 0..<8 {
            // Cart n: products n % 10 and (n + 3) % 10, the first twice.
            _ = merger.add(n % 10, quantity: 1)
            _ = merger.add((n + 3) % 10, quantity: 2)
            _ = merger.add(n % 10, quantity: 4)
            let lines = merger.takeLines()
            #expect(lines == [Cart.Line(product: n % 10, quantity: 5), Cart.Line(product: (n + 3) % 10, quantity: 2)])
            bases.append(Self.base(lines))
            merger.recycle(lines)
        }
        // From the third cart on, each cart's lines are in the storage of the cart before the last.
        for n in 2..<8 { #expect(bases[n] == bases[n - 2], "cart \(n)") }
        #expect(bases[2] != bases[3])
    }

    @Test("lines still held elsewhere are not reused")
    func heldLinesAreLeftAlone() {
        var merger = CartLineMerger(productCount: 4)
        _ = merger.add(1, quantity: 1)
        let first = merger.takeLines()
        merger.recycle(first)
        _ = merger.add(2, quantity: 1)
        let second = merger.takeLines()
        merger.recycle(second)
        _ = merger.add(3, quantity: 7)
        let third = merger.takeLines()
        // `first` is still held here: the third cart's lines are in other storage, `first` intact.
        #expect(first == [Cart.Line(product: 1, quantity: 1)])
        #expect(third == [Cart.Line(product: 3, quantity: 7)])
        #expect(Self.base(third) != Self.base(first))
    }

    @Test("receipts priced in the last receipt's storage: its lines and warnings")
    func receiptStorageReused() throws {
        let spring = percent("spring", 2000, codes: ["MUG"], coupon: "SPRING")
        let promotions = [voucher2x1, tshirt3Plus, spring]
        let rules = RuleSet(promotions: promotions, catalog: store)
        let engine = PricingEngine(rules: rules)
        let active = ActiveRules(rules: rules, at: noon)
        let pricer = ActivePricer(engine: engine, active: active)
        var storage = ReceiptStorage()
        var previous: (lines: UnsafeRawPointer?, warnings: UnsafeRawPointer?) = (nil, nil)
        let carts = [
            cart(["VOUCHER", "VOUCHER", "MUG"], coupons: ["nope", "later"]), cart(["TSHIRT"], coupons: ["Spring", "x"]),
            cart(["TSHIRT", "TSHIRT", "TSHIRT", "MUG"], coupons: ["spring", "no such coupon, and a long one"])
        ]
        let warnings: [[ReceiptWarning]] = [
            [.unmatchedCoupon("nope"), .unmatchedCoupon("later")], [.unmatchedCoupon("x")],
            [.unmatchedCoupon("no such coupon, and a long one")]
        ]
        for (n, cart) in carts.enumerated() {
            let receipt = try pricer.price(cart, at: noon, now: noon, storage: &storage)
            let bases = (
                lines: receipt.lines.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
                warnings: receipt.warnings.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            )
            if n > 0 {
                #expect(bases.lines == previous.lines, "receipt \(n)")
                #expect(bases.warnings == previous.warnings, "receipt \(n)")
            }
            previous = bases
            #expect(receipt.warnings == warnings[n])
            #expect(receipt == (try price(cart, promotions)))
            storage.recycle(receipt)
        }
    }

    @Test(
        "tax entries priced in earlier receipts' storage, kept by their count: carts of 1, 3, 2, 6, 5, 0, 1 and 3 rates"
    )
    func taxEntriesReused() throws {
        // Six products at six rates (0 %, 5.5 %, 7.25 %, 10 %, 21 %, 100 %), one each.
        let rates: [Int64] = [0, 550, 725, 1000, 2100, 10_000]
        let catalog = try Catalog(
            products: rates.enumerated().map { index, rate in
                Product(code: "P\(index)", name: "P\(index)", price: 1000 + Int64(index) * 111, taxRate: rate)
            })
        let rules = RuleSet(promotions: [], catalog: catalog)
        let engine = PricingEngine(rules: rules)
        let pricer = ActivePricer(engine: engine, active: ActiveRules(rules: rules, at: noon))
        var storage = ReceiptStorage()
        var arrays: [Int: UnsafeRawPointer] = [:]  // by count: the first array of that count
        let carts: [[String]] = [
            ["P3"], ["P0", "P4", "P5", "P4"], ["P1", "P2"], ["P0", "P1", "P2", "P3", "P4", "P5"],
            ["P5", "P4", "P3", "P2", "P1"], [], ["P2", "P2"], ["P5", "P0", "P3"]
        ]
        for (n, codes) in carts.enumerated() {
            let priced = cart(codes, in: catalog)
            let receipt = try pricer.price(priced, at: noon, now: noon, storage: &storage)
            let fresh = try engine.price(priced, at: noon, now: noon)
            #expect(receipt == fresh, "cart \(n)")
            let entries = try #require(receipt.taxes).rates
            #expect(
                entries.map(\.rate)
                    == rates.filter { rate in codes.contains { catalog[catalog.productID(for: $0)!].taxRate == rate } })
            // A count met before takes that count's array again (5 and 6 rates share one).
            if let base = entries.withUnsafeBufferPointer({ UnsafeRawPointer($0.baseAddress) }), !entries.isEmpty {
                let slot = min(entries.count, 4)
                #expect(base == (arrays[slot] ?? base), "cart \(n)")
                arrays[slot] = base
            }
            storage.recycle(receipt)
        }
        #expect(arrays.keys.sorted() == [1, 2, 3, 4])
        // Each count its own array: none taken from another count's slot.
        #expect(Set(arrays.values).count == 4)
    }

    @Test(
        "tax entries of a catalog of 70 rates (past the 64 summed by position): the general path reuses its array too")
    func manyRatesReused() throws {
        let catalog = try Catalog(
            products: (0..<70).map { Product(code: "P\($0)", name: "P\($0)", price: 1000, taxRate: Int64($0) * 100) })
        let rules = RuleSet(promotions: [], catalog: catalog)
        let pricer = ActivePricer(engine: PricingEngine(rules: rules), active: ActiveRules(rules: rules, at: noon))
        var storage = ReceiptStorage()
        var first: UnsafeRawPointer?
        for n in 0..<3 {
            let receipt = try pricer.price(
                cart((0..<70).map { "P\($0)" }, in: catalog), at: noon, now: noon, storage: &storage)
            let entries = try #require(receipt.taxes).rates
            // 10.00 at r %, prices including tax: 1000 × 100r / (10000 + 100r), rounded.
            #expect(entries.count == 70)
            #expect(entries[21] == TaxAmount(rate: 2100, base: 826, tax: 174))
            let base = entries.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            if n == 0 { first = base } else { #expect(base == first, "cart \(n)") }
            storage.recycle(receipt)
        }
    }

    @Test("coupons: repeats in any letter case count once, in short and long lists")
    func couponsPresented() {
        let rules = RuleSet(
            promotions: [percent("spring", 2000, codes: ["MUG"], coupon: "Spring")], catalog: store)
        let engine = PricingEngine(rules: rules)
        func presented(_ coupons: [String]) -> [String] {
            var seen: [String] = []
            engine.forEachPresentedCoupon(coupons) { seen.append("\($0) \($1)") }
            return seen
        }
        #expect(presented(["spring", "X", "SPRING", "x", "Spring"]) == ["spring 0", "X -1"])
        #expect(
            presented((0..<12).map { "c\($0 % 5)" } + ["SPRING", "Spring"])
                == ["c0 -1", "c1 -1", "c2 -1", "c3 -1", "c4 -1", "SPRING 0"])
        #expect(presented([]) == [])
        // The ids a cart presents: four inline, more in an array.
        let ids = CouponIDs([7, 3, 9, 11, 40, 2])
        #expect((0..<50).filter { ids.contains(Int32($0)) } == [2, 3, 7, 9, 11, 40])
        #expect(CouponIDs().isEmpty && !CouponIDs([0]).isEmpty && !CouponIDs([0]).contains(-1))
        #expect(CouponIDs([5, 6]).contains(6) && !CouponIDs([5, 6]).contains(-1))
        #expect(asciiUppercased("spring-ÄbC") == "SPRING-ÄBC")
        #expect(
            asciiUppercased("a much longer coupon code, over fifteen bytes")
                == "A MUCH LONGER COUPON CODE, OVER FIFTEEN BYTES")
        #expect(asciiUppercased("ÉTÉ") == "ÉTÉ")
    }
}
