import Pricing
import Testing

/// The worked examples of docs/pricing.md#worked-examples (EUR; TSHIRT 20.00, MUG 7.50, VOUCHER 5.00, CAP 12.00).
@Suite("Promotions v2: the worked examples")
struct WorkedExamplesTests {
    let shop = try! Catalog(products: [
        Product(code: "TSHIRT", name: "Cabify T-Shirt", price: 2000),
        Product(code: "MUG", name: "Cabify Coffee Mug", price: 750),
        Product(code: "VOUCHER", name: "Cabify Voucher", price: 500),
        Product(code: "CAP", name: "Cabify Cap", price: 1200)
    ])

    func entries(_ line: Receipt.Line) -> [String] {
        line.promotions.map { "\($0.id) \($0.discount)/\($0.units)" }
    }

    @Test("bxgy MUG, buy 2 get 1: 3 MUG → one free, 15.00")
    func mugs() throws {
        let p = Promotion(id: "m", name: "m", rule: .bxgy(buy: 2), codes: ["MUG"])
        let r = try price(cart(["MUG": 3], in: shop), [p], catalog: shop)
        #expect(r.total == 1500)
        #expect(entries(r.lines[0]) == ["m 750/3"])
    }

    @Test("bxgy TSHIRT → MUG: 2 TSHIRT + 3 MUG → two MUGs free; the TSHIRT line lists it at 0.00 for 2 units")
    func shirtGetsMug() throws {
        let p = Promotion(id: "s", name: "s", rule: .bxgy(buy: 1), codes: ["TSHIRT"], targets: ["MUG"])
        let r = try price(cart(["TSHIRT": 2, "MUG": 3], in: shop), [p], catalog: shop)
        #expect(r.itemDiscount == 1500)
        #expect(r.total == 4750)
        #expect(entries(r.lines[0]) == ["s 0/2"])
        #expect(entries(r.lines[1]) == ["s 1500/2"])
        #expect(r.lines[0].promotion == nil)
        #expect(r.lines[1].promotion?.discount == 1500)
    }

    @Test("bxgy over TSHIRT, CAP, MUG, buy 2: the two MUGs free, TSHIRTs and CAPs the triggers")
    func cheapestFree() throws {
        let p = Promotion(id: "x", name: "x", rule: .bxgy(buy: 2), codes: ["TSHIRT", "CAP", "MUG"])
        let r = try price(cart(["TSHIRT": 2, "CAP": 2, "MUG": 2], in: shop), [p], catalog: shop)
        #expect(r.itemDiscount == 1500)
        #expect(r.lines.map(entries) == [["x 0/2"], ["x 0/2"], ["x 1500/2"]])
    }

    @Test("bundle of 3 for 30.00: the three dearest units, 22.00 off shared 16.92 / 5.08; the MUG stays free")
    func bundle() throws {
        let p = Promotion(
            id: "b", name: "b", rule: .bundle(size: 3, offer: .price(3000)), codes: ["TSHIRT", "CAP", "MUG"])
        let r = try price(cart(["TSHIRT": 2, "CAP": 1, "MUG": 1], in: shop), [p], catalog: shop)
        #expect(r.itemDiscount == 2200)
        #expect(r.lines.map(entries) == [["b 1692/2"], ["b 508/1"], []])
    }

    @Test("bulk TSHIRT 3+ with bxgy TSHIRT → MUG: the bxgy first, then the bulk on the 3 free shirts: 77.00")
    func bulkAfterBxgy() throws {
        let bxgy = Promotion(id: "g", name: "g", rule: .bxgy(buy: 1), codes: ["TSHIRT"], targets: ["MUG"])
        let r = try price(cart(["TSHIRT": 4, "MUG": 1], in: shop), [tshirt3Plus, bxgy], catalog: shop)
        #expect(r.total == 7700)
        #expect(r.lines.map(entries) == [["g 0/1", "TSHIRT 3+ 300/3"], ["g 750/1"]])
        #expect(r.lines[0].promotion?.id == "TSHIRT 3+")
    }

    @Test("cap: a percent line discount and a percent cart discount are bounded; limit bounds groups")
    func capAndLimit() throws {
        let capped = Promotion(
            id: "c", name: "c", rule: .percent(minimumQuantity: 1, hundredths: 5000, cap: 1000), codes: ["TSHIRT"])
        // 30.00 capped at 10.00
        #expect(try price(cart(["TSHIRT": 3], in: shop), [capped], catalog: shop).itemDiscount == 1000)
        let cartCap = Promotion(id: "cc", name: "cc", rule: .cartPercent(minimum: 0, hundredths: 2000, cap: 500))
        // 12.00 capped at 5.00
        #expect(try price(cart(["TSHIRT": 3], in: shop), [cartCap], catalog: shop).cartDiscount == 500)
        let twice = Promotion(id: "l", name: "l", rule: .bundle(size: 2, offer: .amount(100), limit: 2), codes: ["MUG"])
        let r = try price(cart(["MUG": 9], in: shop), [twice], catalog: shop)
        #expect(r.itemDiscount == 200)
        #expect(entries(r.lines[0]) == ["l 200/4"])
    }

    @Test("a quantity of 10⁹ is counted, not expanded")
    func hugeQuantity() throws {
        let p = Promotion(id: "b", name: "b", rule: .bundle(size: 3, offer: .price(1000)), codes: ["MUG", "VOUCHER"])
        let q = Promotion(id: "g", name: "g", rule: .bxgy(buy: 2, get: 1), codes: ["TSHIRT"])
        let r = try price(
            cart(["MUG": 1_000_000_000, "VOUCHER": 1_000_000_000, "TSHIRT": 999_999_999], in: shop), [p, q],
            catalog: shop)
        // bxgy: k = ⌊999,999,999 / 3⌋ = 333,333,333 free TSHIRTs: 6,666,666,660.00.
        // bundle, most expensive first: 333,333,333 groups of 3 MUGs (22.50 → 12.50 off each), one mixed group of
        // the last MUG and 2 VOUCHERs (17.50 → 7.50 off), 333,333,332 groups of 3 VOUCHERs (15.00 → 5.00 off);
        // 2 VOUCHERs are left: D = 4,166,666,662.50 + 7.50 + 1,666,666,660.00 = 5,833,333,330.00.
        // Shared by grouped value: MUG 7,500,000,000.00, VOUCHER 999,999,998 × 5.00 = 4,999,999,990.00, V = 12,499,999,990.00:
        // MUG ⌊D × 7.5e11 / V⌋ = 350,000,000,080 (remainder 80,000), VOUCHER 233,333,332,919 (remainder 1,249,999,919,000):
        // the leftover cent goes to VOUCHER.
        #expect(r.lines[2].promotions.map(\.discount) == [666_666_666_000])
        #expect(r.lines[0].promotions.map(\.discount) == [350_000_000_080])
        #expect(r.lines[1].promotions.map(\.discount) == [233_333_332_920])
        #expect(r.lines[0].promotions.first?.units == 1_000_000_000)
        #expect(r.lines[1].promotions.first?.units == 999_999_998)
    }
}
