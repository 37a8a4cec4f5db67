import Dispatch
import Pricing
import ReferenceModels
import SeededRandom
import Testing
import Workloads

@testable import Promotions

@Suite("The shadowed check against its plain reference")
struct ShadowCheckTests {
    /// A random line rule, sometimes another kind (which the check leaves alone).
    static func rule(_ random: inout SplitMix64) -> Promotion.Rule {
        switch random.draw(0...10) {
        case 0, 1:
            let n = Int64(random.draw(2...5))
            return .combo(groupSize: n, paid: Int64(random.draw(0...Int(n - 1))))
        case 2, 3:
            return .bulk(
                threshold: Int64(random.draw(1...5)), unitPrice: [0, 1, 500, 700, 1500, 1999][random.draw(0...5)])
        case 4, 5, 6:
            return .percent(
                minimumQuantity: Int64(random.draw(1...4)),
                hundredths: [1, 500, 1000, 1250, 3333, 5000, 10_000][
                    random.draw(0...6)],
                cap: random.draw(0...2) == 0 ? [1, 100, 2000, 5000][random.draw(0...3)] : nil)
        case 7, 8, 9:
            return .amount(
                minimumQuantity: Int64(random.draw(1...4)), amountOff: [1, 50, 100, 375, 800, 5000][random.draw(0...5)])
        default:
            return random.draw(0...1) == 0
                ? .bundle(size: 2, offer: .percent(1000)) : .cartAmount(minimum: 0, amountOff: 100)
        }
    }

    /// Random promotions on a random catalog: shared products, windows, coupons, priorities, codes the
    /// catalog lacks, disabled ones.
    static func shop(_ random: inout SplitMix64, promotions count: Int, products: Int) -> (Catalog, [Promotion]) {
        let prices: [Int64] = [0, 1, 99, 750, 750, 1999, 2000, 12_345]
        let catalog = try! Catalog(
            products: (0..<products).map { Product(code: "P\($0)", name: "P\($0)", price: prices[$0 % prices.count]) })
        let instants = [nil, Instant(seconds: 100), Instant(seconds: 200), Instant(seconds: 300)]
        var promotions: [Promotion] = []
        for index in 0..<count {
            // P<products> is not in the catalog.
            let codes = (0..<random.draw(1...3)).map { _ in "P\(random.draw(0...products))" }
            var start = instants[random.draw(0...3)]
            var end = instants[random.draw(0...3)]
            if let s = start, let e = end, e <= s { (start, end) = (nil, nil) }
            // Customer groups (two spellings of Café, equal as strings but not byte for byte) and
            // usage limits, now and then.
            let groups: [String]? = [nil, nil, nil, nil, ["gold"], ["gold", "Caf\u{E9}"], ["Cafe\u{301}"]][
                random.draw(0...6)]
            promotions.append(
                Promotion(
                    id: "p\(index)", name: "p\(index)", rule: rule(&random), codes: codes, start: start, end: end,
                    priority: Int64(random.draw(0...2)), isEnabled: random.draw(0...9) != 0,
                    coupon: [nil, nil, nil, "vip", "VIP", "other"][random.draw(0...5)], customerGroups: groups,
                    uses: random.draw(0...11) == 0 ? 5 : nil))
        }
        return (catalog, promotions)
    }

    @Test("a shape's discount is the engine's, at every quantity and price")
    func shapes() {
        var random = SplitMix64(seed: 25)
        let prices: [Int64] = [0, 1, 7, 750, 1999, 1_000_000, Int64.max / 3, Int64.max]
        for _ in 0..<2_000 {
            let rule = Self.rule(&random)
            let promotion = Promotion(id: "x", name: "x", rule: rule, codes: ["A"])
            guard let shape = ShadowShape(promotion) else {
                #expect(rule.type.scope != .line)
                continue
            }
            let engine = LineDiscount(rule)
            for price in prices {
                for quantity in [0, 1, 2, 3, 4, 5, 8, 9, 60, 1_000, 1 << 40] as [Int64] {
                    #expect(
                        shape.discount(quantity: quantity, unitPrice: price)
                            == engine(quantity: quantity, unitPrice: price), "\(rule) \(quantity) × \(price)")
                }
                let probes = ShadowCheck.probes(shape, unitPrice: price)
                for lane in 0..<8 {
                    #expect(probes[lane] == Int32(clamping: engine(quantity: Int64(lane + 1), unitPrice: price)))
                }
            }
        }
    }

    /// When Q's profile at `price` outruns P's, whether Q gives more than P at each of
    /// `quantities(from)` (from the bound and every start on): true when it does at some, false
    /// when there is no bound or nothing to check, nil (and an issue recorded) when it does not.
    static func checkOutrun(
        _ q: ShadowShape, _ p: ShadowShape, price: Int64, _ quantities: (Int64) -> [Int64]
    ) -> Bool? {
        let (profileQ, profileP) = (q.profile(unitPrice: price), p.profile(unitPrice: price))
        guard let outrun = profileQ.outruns(profileP) else { return false }
        let from = max(outrun, profileQ.start, profileP.start, q.minimumQuantity, p.minimumQuantity, 1)
        let checked = quantities(from)
        for quantity in checked {
            let (dq, dp) = (
                q.discount(quantity: quantity, unitPrice: price), p.discount(quantity: quantity, unitPrice: price)
            )
            #expect(dq > dp, "\(q) over \(p) at \(quantity) × \(price) from \(from)")
            if dq <= dp { return nil }
        }
        return !checked.isEmpty
    }

    @Test("where a steeper discount has outrun another, it gives more at every quantity after")
    func outruns() {
        var random = SplitMix64(seed: 1_126)
        let prices: [Int64] = [0, 1, 7, 99, 750, 1999, 12_345, 1 << 30]
        var shortcuts = 0
        for _ in 0..<3_000 {
            let q = Promotion(id: "q", name: "q", rule: Self.rule(&random), codes: ["A"])
            let p = Promotion(id: "p", name: "p", rule: Self.rule(&random), codes: ["A"])
            guard let sq = ShadowShape(q), let sp = ShadowShape(p) else { continue }
            for price in prices {
                // Every quantity from there over several periods, and far beyond.
                let checked = Self.checkOutrun(sq, sp, price: price) {
                    Array($0..<($0 + 2_000)) + [$0 + 9_999, $0 + 100_000]
                }
                guard let checked else { return }
                if checked { shortcuts += 1 }
            }
        }
        #expect(shortcuts > 1_000)
    }

    @Test("the bound holds for shapes of every term at once, caps at or below 0, huge groups and prices")
    func outrunsAnyShape() {
        var random = SplitMix64(seed: 2_611)
        let prices: [Int64] = [0, 1, 3, 750, 12_345, 1 << 30, 1 << 40]
        func shape() -> ShadowShape {
            var shape = ShadowShape()
            shape.minimumQuantity = Int64(random.draw(0...6))
            if random.draw(0...1) == 0 {
                shape.groupSize = [1, 2, 3, 7, 1 << 40, Int64.max][random.draw(0...5)]
                shape.freeUnits = min(shape.groupSize, Int64(random.draw(1...3)))
            }
            if random.draw(0...1) == 0 {
                shape.hundredths = [1, 333, 1250, 5000, 10_000][random.draw(0...4)]
                if random.draw(0...1) == 0 {
                    shape.hasCap = true
                    shape.cap = [-5, 0, 1, 99, 5_000][random.draw(0...4)]
                }
            }
            if random.draw(0...1) == 0 {
                shape.savesPerUnit = true
                shape.lowestUnitPrice = [0, 500, 1 << 35][random.draw(0...2)]
                shape.offEachUnit = [1, 100, 1 << 36][random.draw(0...2)]
            }
            return shape
        }
        var shortcuts = 0
        for _ in 0..<4_000 {
            let (q, p) = (shape(), shape())
            for price in prices {
                // Made without a trap whatever the sizes (a combo of 10¹⁸ units once crashed here);
                // checked where the check walks: up to 100,000 units, at prices up to 2⁴⁰.
                let checked = Self.checkOutrun(q, p, price: price) { from in
                    from <= 100_000 ? Array(from..<min(from + 1_500, 100_001)) : []
                }
                guard let checked else { return }
                if checked { shortcuts += 1 }
            }
        }
        #expect(shortcuts > 1_000)
    }

    @Test("a combo of 10¹⁸ units is compared without a trap, and shadows nothing")
    func hugeCombo() {
        let catalog = try! Catalog(products: [Product(code: "A", name: "A", price: 1_999)])
        let promotions = [
            Promotion(
                id: "huge", name: "huge", rule: .combo(groupSize: 1_000_000_000_000_000_000, paid: 0), codes: ["A"]),
            Promotion(id: "two", name: "two", rule: .combo(groupSize: 2, paid: 0), codes: ["A"])
        ]
        var plain = PlainShadowCheck(catalog: catalog)
        #expect(plain.shadowed(promotions).isEmpty)
        #expect(ShadowCheck(promotions: promotions, catalog: catalog).shadowed().isEmpty)
    }

    @Test("the same warnings as the plain check, naming the same promotion, on thousands of random files")
    func differential() {
        var random = SplitMix64(seed: 2_511)
        var warned = 0
        for round in 0..<3_000 {
            let (catalog, promotions) = Self.shop(
                &random, promotions: random.draw(2...30), products: random.draw(1...6))
            var plain = PlainShadowCheck(catalog: catalog)
            let expected = plain.shadowed(promotions)
            let found = ShadowCheck(promotions: promotions, catalog: catalog).shadowed()
            #expect(found.map { [$0.promotion, $0.by] } == expected.map { [$0.promotion, $0.by] }, "round \(round)")
            // Gathered in parts (a large file's way), each numbering its own windows and coupons.
            let width = random.draw(2...4)
            let parted = ShadowCheck(
                promotions: promotions, catalog: catalog,
                parts: round % 2 == 0 ? PartRunner.backwards(width: width) : PartRunner.atOnce(width: width),
                promotionsPerPart: random.draw(1...5)
            ).shadowed()
            #expect(parted.map { [$0.promotion, $0.by] } == expected.map { [$0.promotion, $0.by] }, "round \(round)")
            warned += expected.count
        }
        #expect(warned > 3_000)
    }

    /// Random promotions on a catalog with brands and tags, a third of them on selectors (brands,
    /// tags, every product), so that many share one selector's products.
    static func selectorShop(
        _ random: inout SplitMix64, promotions count: Int, products: Int
    ) -> (Catalog, [Promotion]) {
        let prices: [Int64] = [0, 1, 99, 750, 750, 1999, 2000, 12_345]
        let catalog = try! Catalog(
            products: (0..<products).map {
                Product(
                    code: "P\($0)", name: "P\($0)", price: prices[random.draw(0...7)],
                    brand: ["Acme", "Zeta", nil][random.draw(0...2)], tags: random.draw(0...1) == 0 ? ["sale"] : [])
            })
        let selectors: [[ProductSelector]] = [
            [ProductSelector()], [ProductSelector(brands: ["Acme"])], [ProductSelector(tags: ["sale"])],
            [ProductSelector(brands: ["Acme"]), ProductSelector(tags: ["sale"])],
            [ProductSelector(excludeBrands: ["Zeta"])]
        ]
        var (_, promotions) = shop(&random, promotions: count, products: products)
        for index in promotions.indices where random.draw(0...2) == 0 {
            promotions[index].productSelectors = selectors[random.draw(0...4)]
            promotions[index].codes = []
        }
        return (catalog, promotions)
    }

    @Test("promotions on selectors, wide or narrow, in parts or not: the plain check's warnings, on thousands of files")
    func differentialWide() {
        var random = SplitMix64(seed: 14_125)
        var (warned, wideWarned) = (0, 0)
        for round in 0..<3_000 {
            let (catalog, promotions) = Self.selectorShop(
                &random, promotions: random.draw(2...40), products: random.draw(1...9))
            var plain = PlainShadowCheck(catalog: catalog)
            let expected = plain.shadowed(promotions).map { [$0.promotion, $0.by] }
            // Members of more than 0…3 products wide: a selector's share one set, and codes may too.
            let narrowAtMost = random.draw(0...3)
            let width = random.draw(1...4)
            let parts = round % 2 == 0 ? PartRunner.backwards(width: width) : PartRunner.atOnce(width: width)
            let check = ShadowCheck(
                promotions: promotions, catalog: catalog, parts: parts, promotionsPerPart: random.draw(1...40),
                narrowAtMost: narrowAtMost)
            #expect(check.shadowed().map { [$0.promotion, $0.by] } == expected, "round \(round)")
            let concurrent = check.shadowed { count, body in
                DispatchQueue.concurrentPerform(iterations: count, execute: body)
            }
            #expect(concurrent.map { [$0.promotion, $0.by] } == expected, "round \(round)")
            warned += expected.count
            wideWarned += expected.filter { promotions[$0[0]].productSelectors != nil }.count
        }
        #expect(warned > 3_000)
        #expect(wideWarned > 500)
    }

    @Test("a large file checked in parts, at once, gives what the plain check gives")
    func parts() {
        var random = SplitMix64(seed: 7)
        let (catalog, promotions) = Self.shop(&random, promotions: 3_000, products: 12)
        let check = ShadowCheck(promotions: promotions, catalog: catalog)
        #expect(check.parts > 1)
        var plain = PlainShadowCheck(catalog: catalog)
        let expected = plain.shadowed(promotions).map { [$0.promotion, $0.by] }
        let concurrent = check.shadowed { count, body in
            DispatchQueue.concurrentPerform(iterations: count, execute: body)
        }
        #expect(concurrent.map { [$0.promotion, $0.by] } == expected)
        #expect(check.shadowed().map { [$0.promotion, $0.by] } == expected)
        #expect(expected.count > 1_000)
    }
}
