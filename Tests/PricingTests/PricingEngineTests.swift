import Pricing
import Testing

@Suite("The four published examples (docs/files.md#the-shipped-store)")
struct PublishedExamplesTests {
    @Test(
        "each cart costs what the original app charged",
        arguments: [
            (["VOUCHER", "TSHIRT", "MUG"], 3250),
            (["VOUCHER", "TSHIRT", "VOUCHER"], 2500),
            (["TSHIRT", "TSHIRT", "TSHIRT", "VOUCHER", "TSHIRT"], 8100),
            (["VOUCHER", "TSHIRT", "VOUCHER", "VOUCHER", "MUG", "TSHIRT", "TSHIRT"], 7450)
        ] as [([String], Int64)])
    func example(codes: [String], total: Int64) throws {
        let receipt = try price(cart(codes), [voucher2x1, tshirt3Plus])
        #expect(receipt.total == total)
    }

    @Test("the last example line by line")
    func lineByLine() throws {
        // VOUCHER ×3: ⌊3/2⌋ × (2−1) × 5.00 = 5.00 off; TSHIRT ×3 ≥ 3: 3 × (20.00 − 19.00) = 3.00 off.
        let receipt = try price(
            cart(["VOUCHER", "TSHIRT", "VOUCHER", "VOUCHER", "MUG", "TSHIRT", "TSHIRT"]), [voucher2x1, tshirt3Plus])
        #expect(receipt.lines.map(\.code) == ["VOUCHER", "TSHIRT", "MUG"])
        #expect(receipt.lines.map(\.quantity) == [3, 3, 1])
        #expect(receipt.lines.map(\.subtotal) == [1500, 6000, 750])
        #expect(receipt.lines.map(\.discount) == [500, 300, 0])
        #expect(receipt.lines.map(\.total) == [1000, 5700, 750])
        #expect(receipt.lines.map(\.promotion?.id) == ["VOUCHER 2x1", "TSHIRT 3+", nil])
        #expect(receipt.subtotal == 8250)
        #expect(receipt.itemDiscount == 800)
        #expect(receipt.cartDiscount == 0)
        #expect(receipt.cartPromotion == nil)
        #expect(receipt.warnings == [])
        #expect(receipt.at == noon)
    }
}

@Suite("Item promotions (docs/pricing.md#line-promotions-combo-bulk-percent-amount)")
struct ItemPromotionTests {
    @Test("combo: ⌊q/N⌋ × (N − M) × U")
    func combo() throws {
        let threeForTwo = Promotion(id: "3x2", name: "3x2", rule: .combo(groupSize: 3, paid: 2), codes: ["MUG"])
        // 7 mugs: ⌊7/3⌋ = 2 groups × 1 free × 7.50 = 15.00 off; 52.50 − 15.00 = 37.50.
        #expect(try price(cart(["MUG": 7]), [threeForTwo]).total == 3750)
        // 2 mugs: no complete group.
        #expect(try price(cart(["MUG": 2]), [threeForTwo]).lines[0].promotion == nil)
        // exactly 3: one group, 7.50 off.
        #expect(try price(cart(["MUG": 3]), [threeForTwo]).itemDiscount == 750)
        let allFree = Promotion(id: "free", name: "free", rule: .combo(groupSize: 2, paid: 0), codes: ["MUG"])
        #expect(try price(cart(["MUG": 5]), [allFree]).itemDiscount == 3000)  // ⌊5/2⌋ × 2 × 7.50
    }

    @Test("bulk: q × (U − P) from the threshold on, never when P ≥ U")
    func bulk() throws {
        #expect(try price(cart(["TSHIRT": 2]), [tshirt3Plus]).itemDiscount == 0)
        #expect(try price(cart(["TSHIRT": 3]), [tshirt3Plus]).itemDiscount == 300)  // exactly at the threshold
        #expect(try price(cart(["TSHIRT": 10]), [tshirt3Plus]).itemDiscount == 1000)
        let notCheaper = Promotion(id: "b", name: "b", rule: .bulk(threshold: 1, unitPrice: 2000), codes: ["TSHIRT"])
        let dearer = Promotion(id: "c", name: "c", rule: .bulk(threshold: 1, unitPrice: 2500), codes: ["TSHIRT"])
        let receipt = try price(cart(["TSHIRT": 4]), [notCheaper, dearer])
        #expect(receipt.total == 8000)
        #expect(receipt.lines[0].promotion == nil)
        let free = Promotion(id: "f", name: "f", rule: .bulk(threshold: 2, unitPrice: 0), codes: ["MUG"])
        #expect(try price(cart(["MUG": 2]), [free]).total == 0)
    }

    @Test("percent: round(q × U × p / 100), from the minimum quantity on")
    func percentRule() throws {
        // 3 mugs at 7.50, 15 %: 22.50 × 0.15 = 3.375 → 3.38 (half away from zero).
        #expect(try price(cart(["MUG": 3]), [percent("p", 1500, codes: ["MUG"])]).itemDiscount == 338)
        // minimum quantity 2: one mug gets nothing, two get 15 % of 15.00 = 2.25.
        #expect(try price(cart(["MUG": 1]), [percent("p", 1500, codes: ["MUG"], minimum: 2)]).itemDiscount == 0)
        #expect(try price(cart(["MUG": 2]), [percent("p", 1500, codes: ["MUG"], minimum: 2)]).itemDiscount == 225)
        // 100 %: free.
        #expect(try price(cart(["MUG": 2]), [percent("p", 10_000, codes: ["MUG"])]).total == 0)
        // 0.01 %: 7.50 × 0.0001 = 0.00075 → 0.00: a zero discount is no promotion.
        #expect(try price(cart(["MUG": 1]), [percent("p", 1, codes: ["MUG"])]).lines[0].promotion == nil)
    }

    @Test("a half cent rounds away from zero, once per line, never per unit")
    func roundingHalfCents() throws {
        let penny = try Catalog(products: [Product(code: "P", name: "P", price: 5)])
        // 1 × 0.05 × 10 % = 0.005 → 0.01.
        #expect(
            try price(cart(["P": 1], in: penny), [percent("p", 1000, codes: ["P"])], catalog: penny).itemDiscount == 1)
        // 3 × 0.05 × 10 % = 0.015 → 0.02 (per unit would give 3 × 0.01 = 0.03).
        #expect(
            try price(cart(["P": 3], in: penny), [percent("p", 1000, codes: ["P"])], catalog: penny).itemDiscount == 2)
        // 0.04 × 12.5 % = 0.005 → 0.01; 0.04 × 12.49 % = 0.004996 → 0.00.
        let four = try Catalog(products: [Product(code: "F", name: "F", price: 4)])
        #expect(
            try price(cart(["F": 1], in: four), [percent("p", 1250, codes: ["F"])], catalog: four).itemDiscount == 1)
        #expect(
            try price(cart(["F": 1], in: four), [percent("p", 1249, codes: ["F"])], catalog: four).itemDiscount == 0)
    }

    @Test("amount: q × min(A, U), never below zero")
    func amountRule() throws {
        let oneOff = Promotion(id: "a", name: "a", rule: .amount(minimumQuantity: 2, amountOff: 100), codes: ["MUG"])
        #expect(try price(cart(["MUG": 1]), [oneOff]).itemDiscount == 0)
        #expect(try price(cart(["MUG": 2]), [oneOff]).itemDiscount == 200)
        let tooMuch = Promotion(id: "a", name: "a", rule: .amount(minimumQuantity: 1, amountOff: 1000), codes: ["MUG"])
        #expect(try price(cart(["MUG": 3]), [tooMuch]).total == 0)  // 3 × min(10.00, 7.50)
    }

    @Test("one promotion per line: the largest discount wins, whatever the priority")
    func largestWins() throws {
        // On 3 T-shirts: bulk saves 3.00, 10 % saves 6.00, 20 % saves 12.00.
        let receipt = try price(
            cart(["TSHIRT": 3]),
            [
                tshirt3Plus, percent("ten", 1000, codes: ["TSHIRT"], priority: 9),
                percent("twenty", 2000, codes: ["TSHIRT"])
            ])
        #expect(
            receipt.lines[0].promotion
                == AppliedPromotion(id: "twenty", name: "twenty", type: .percent, discount: 1200, units: 3))
        #expect(receipt.total == 4800)
    }

    @Test("equal discounts: the higher priority wins, then the first defined")
    func ties() throws {
        let a = percent("a", 1000, codes: ["MUG"])
        let b = percent("b", 1000, codes: ["MUG"], priority: 1)
        let c = percent("c", 1000, codes: ["MUG"], priority: 1)
        #expect(try price(cart(["MUG": 2]), [a, b, c]).lines[0].promotion?.id == "b")
        #expect(try price(cart(["MUG": 2]), [c, b, a]).lines[0].promotion?.id == "c")
        #expect(try price(cart(["MUG": 2]), [a, percent("d", 1000, codes: ["MUG"])]).lines[0].promotion?.id == "a")
        #expect(
            try price(cart(["MUG": 2]), [percent("neg", 1000, codes: ["MUG"], priority: -1), a]).lines[0].promotion?.id
                == "a")
    }

    @Test("a promotion for several codes applies to each line on its own")
    func severalCodes() throws {
        let both = percent("both", 5000, codes: ["MUG", "TSHIRT", "UNKNOWN"])
        let receipt = try price(cart(["MUG", "TSHIRT"]), [both])
        #expect(receipt.lines.map(\.discount) == [375, 1000])
    }
}

@Suite("Activation, coupons and enabling (docs/pricing.md#candidates-and-coupons)")
struct ActivationTests {
    let december = percent("dec", 1000, codes: ["MUG"], start: "2026-12-01T00:00:00Z", end: "2027-01-01T00:00:00Z")

    @Test(
        "start is inclusive and end exclusive, at the exact second",
        arguments: [
            ("2026-11-30T23:59:59Z", false), ("2026-11-30T23:59:59.999Z", false), ("2026-12-01T00:00:00Z", true),
            ("2026-12-01T01:00:00+01:00", true), ("2026-12-31T23:59:59Z", true),
            ("2026-12-31T23:59:59.999999999Z", true),
            ("2027-01-01T00:00:00Z", false), ("2027-01-01T00:00:01Z", false)
        ])
    func window(at: String, applies: Bool) throws {
        let receipt = try price(cart(["MUG"]), [december], at: Instant(rfc3339: at))
        #expect((receipt.lines[0].promotion != nil) == applies)
    }

    @Test("the instant: the caller's, else the cart's, else now")
    func instantPrecedence() throws {
        let engine = PricingEngine(rules: RuleSet(promotions: [december], catalog: store))
        var c = cart(["MUG"])
        let inDecember = try Instant(rfc3339: "2026-12-15T00:00:00Z")
        #expect(try engine.price(c, now: noon).at == noon)
        c.at = inDecember
        #expect(try engine.price(c, now: noon).at == inDecember)
        #expect(try engine.price(c, now: noon).itemDiscount == 75)
        #expect(try engine.price(c, at: noon, now: inDecember).at == noon)
        #expect(try engine.price(c, at: noon, now: inDecember).itemDiscount == 0)
    }

    @Test("a disabled promotion never applies")
    func disabled() throws {
        #expect(try price(cart(["MUG"]), [percent("off", 5000, codes: ["MUG"], enabled: false)]).total == 750)
    }

    @Test("coupons match in any letter case, from the cart or the caller")
    func coupons() throws {
        let spring = percent("spring", 2000, codes: ["MUG"], coupon: "Spring")
        #expect(try price(cart(["MUG"]), [spring]).itemDiscount == 0)
        #expect(try price(cart(["MUG"], coupons: ["sPRING"]), [spring]).itemDiscount == 150)
        #expect(try price(cart(["MUG"]), [spring], coupons: ["SPRING"]).itemDiscount == 150)
        #expect(try price(cart(["MUG"], coupons: ["spring"]), [spring]).warnings == [])
    }

    @Test("only ASCII letters fold; every other byte must match: no Unicode equivalence, no other case folding")
    func couponsByBytes() throws {
        // CAFÉ with É as one code point (U+00C9); K as the letter K.
        let cafe = percent("cafe", 1000, codes: ["MUG"], coupon: "CAF\u{C9}")
        let kelvin = percent("k", 1000, codes: ["MUG"], coupon: "K")
        for presented in ["caf\u{E9}", "CAFE\u{301}", "cafe\u{301}"] {
            let receipt = try price(cart(["MUG"], coupons: [presented]), [cafe])
            #expect(receipt.total == 750, "\(presented.unicodeScalars.map(\.value))")
            #expect(receipt.warnings == [.unmatchedCoupon(presented)])
        }
        #expect(try price(cart(["MUG"], coupons: ["caf\u{C9}"]), [cafe]).total == 675)
        // The Kelvin sign (U+212A) is canonically equivalent to K, but another coupon.
        #expect(try price(cart(["MUG"], coupons: ["\u{212A}"]), [kelvin]).total == 750)
        #expect(try price(cart(["MUG"], coupons: ["k"]), [kelvin]).total == 675)
        // Repeats are found byte for byte too: two spellings that look alike are two coupons.
        let receipt = try price(cart(["MUG"], coupons: ["CAFE\u{301}", "CAF\u{C9}", "caf\u{C9}"]), [cafe])
        #expect(receipt.total == 675)
        #expect(receipt.warnings == [.unmatchedCoupon("CAFE\u{301}")])
    }

    @Test("a coupon that no candidate carries is a warning, once, in its first spelling")
    func unmatchedCoupon() throws {
        let spring = percent("spring", 2000, codes: ["MUG"], coupon: "SPRING", end: "2026-01-01T00:00:00Z")
        let offCoupon = percent("off", 2000, codes: ["MUG"], coupon: "OFF", enabled: false)
        let receipt = try price(
            cart(["MUG"], coupons: ["winter", "WINTER", "spring", "off"]), [spring, offCoupon], coupons: ["Winter"])
        #expect(
            receipt.warnings == [.unmatchedCoupon("winter"), .unmatchedCoupon("spring"), .unmatchedCoupon("off")])
        #expect(
            receipt.warnings.map(\.description) == [
                "coupon \"winter\" matches no active promotion",
                "coupon \"spring\" matches no active promotion",
                "coupon \"off\" matches no active promotion"
            ])
        #expect(receipt.total == 750)
    }

    @Test("a coupon carried by a candidate that targets no line of the cart is no warning")
    func couponForOtherProducts() throws {
        let receipt = try price(
            cart(["MUG"], coupons: ["TEE"]), [percent("tee", 1000, codes: ["TSHIRT"], coupon: "tee")])
        #expect(receipt.warnings == [])
    }
}

@Suite("Cart promotions and allocation (docs/pricing.md#cart-promotions–5.5)")
struct CartPromotionTests {
    func cartPercent(_ id: String, _ hundredths: Int64, minimum: Int64 = 0, priority: Int64 = 0) -> Promotion {
        Promotion(id: id, name: id, rule: .cartPercent(minimum: minimum, hundredths: hundredths), priority: priority)
    }

    func cartAmount(_ id: String, _ amount: Int64, minimum: Int64 = 0) -> Promotion {
        Promotion(id: id, name: id, rule: .cartAmount(minimum: minimum, amountOff: amount))
    }

    @Test("the minimum is on the total after item promotions, inclusive")
    func minimum() throws {
        // VOUCHER ×2 + TSHIRT: 30.00 − 5.00 (2x1) = 25.00.
        let items = cart(["VOUCHER", "VOUCHER", "TSHIRT"])
        #expect(try price(items, [voucher2x1, cartAmount("five", 500, minimum: 2500)]).cartDiscount == 500)
        #expect(try price(items, [voucher2x1, cartAmount("five", 500, minimum: 2501)]).cartDiscount == 0)
        #expect(try price(items, [voucher2x1, cartAmount("five", 500, minimum: 2501)]).cartPromotion == nil)
    }

    @Test("percent rounds once per cart; amount never exceeds the cart; the largest wins")
    func cartRules() throws {
        // 7.50 × 3 = 22.50; 15 % = 3.375 → 3.38.
        #expect(try price(cart(["MUG": 3]), [cartPercent("p", 1500)]).cartDiscount == 338)
        #expect(try price(cart(["MUG": 1]), [cartAmount("big", 10_000)]).total == 0)
        let receipt = try price(
            cart(["MUG": 3]), [cartAmount("three", 300), cartPercent("p", 1500), cartAmount("two", 200)])
        #expect(receipt.cartPromotion == AppliedPromotion(id: "p", name: "p", type: .cart, discount: 338))
        #expect(receipt.total == 2250 - 338)
        // Equal: priority, then file order.
        let tie = try price(
            cart(["MUG": 2]), [cartAmount("a", 150), cartPercent("b", 1000, priority: 1), cartAmount("c", 150)])
        #expect(tie.cartPromotion?.id == "b")
        let firstWins = try price(cart(["MUG": 2]), [cartAmount("a", 150), cartAmount("c", 150)])
        #expect(firstWins.cartPromotion?.id == "a")
    }

    @Test("three equal lines: ⌊D·t/S⌋ each, the leftover cent to the earliest")
    func allocationEqualRemainders() throws {
        let catalog = try Catalog(products: (1...3).map { Product(code: "P\($0)", name: "P\($0)", price: 100) })
        // D = 1.00 over 1.00 + 1.00 + 1.00: 33 each (remainder 100 each), 1 left → the first line.
        let receipt = try price(cart(["P1", "P2", "P3"], in: catalog), [cartAmount("one", 100)], catalog: catalog)
        #expect(receipt.lines.map(\.cartDiscount) == [34, 33, 33])
        #expect(receipt.lines.map(\.total) == [66, 67, 67])
        #expect(receipt.total == 200)
    }

    @Test("three unequal lines: the leftover cent goes to the largest remainder")
    func allocationLargestRemainder() throws {
        let catalog = try Catalog(products: [
            Product(code: "A", name: "A", price: 100), Product(code: "B", name: "B", price: 200),
            Product(code: "C", name: "C", price: 400)
        ])
        // D = 1.00, S = 7.00: A 100·100/700 = 14 r 200, B 28 r 400, C 57 r 100; 99 given, 1 left → B.
        let receipt = try price(cart(["A", "B", "C"], in: catalog), [cartAmount("one", 100)], catalog: catalog)
        #expect(receipt.lines.map(\.cartDiscount) == [14, 29, 57])
        #expect(receipt.lines.map(\.cartDiscount).reduce(0, +) == 100)
    }

    @Test("lines made free by an item promotion get no share")
    func freeLinesGetNoShare() throws {
        let freeMug = Promotion(id: "free", name: "free", rule: .bulk(threshold: 1, unitPrice: 0), codes: ["MUG"])
        let receipt = try price(cart(["MUG", "VOUCHER", "TSHIRT"]), [freeMug, cartAmount("three", 300)])
        // S = 25.00: VOUCHER 300·500/2500 = 60, TSHIRT 300·2000/2500 = 240.
        #expect(receipt.lines.map(\.cartDiscount) == [0, 60, 240])
        #expect(receipt.lines.map(\.discount) == [750, 60, 240])
        #expect(receipt.total == 2200)
    }

    @Test("an empty cart prices to zero with no lines and no promotion")
    func emptyCart() throws {
        let receipt = try price(Cart(), [voucher2x1, cartAmount("five", 500), cartPercent("ten", 1000)])
        #expect(receipt.lines == [])
        #expect(receipt.total == 0)
        #expect(receipt.cartPromotion == nil)
    }
}

@Suite("Currencies and overflow (docs/money.md)")
struct CurrencyTests {
    @Test("JPY has no minor digits")
    func yen() throws {
        let catalog = try Catalog(
            currency: Currency(code: "JPY")!, products: [Product(code: "TEA", name: "Tea", price: 999)])
        // 999 × 15 % = 149.85 → 150.
        let receipt = try price(cart(["TEA"], in: catalog), [percent("p", 1500, codes: ["TEA"])], catalog: catalog)
        #expect(receipt.total == 849)
        #expect(receipt.currency.code == "JPY")
    }

    @Test("KWD has three")
    func dinar() throws {
        let catalog = try Catalog(
            currency: Currency(code: "KWD")!, products: [Product(code: "DATES", name: "Dates", price: 1250)])
        // 3 × 1.250 = 3.750; 10 % = 0.375.
        let receipt = try price(
            cart(["DATES": 3], in: catalog), [percent("p", 1000, codes: ["DATES"])], catalog: catalog)
        #expect(receipt.itemDiscount == 375)
        #expect(receipt.total == 3375)
    }

    @Test("a cart in another currency is refused")
    func currencyMismatch() throws {
        var c = cart(["MUG"])
        c.currency = Currency(code: "USD")
        #expect(throws: PricingError.currencyMismatch(cart: "USD", catalog: "EUR")) { try price(c, []) }
        c.currency = .euro
        #expect(try price(c, []).total == 750)
    }

    @Test("a line beyond 64 bits is an error, not a trap")
    func lineOverflow() throws {
        let catalog = try Catalog(products: [Product(code: "GOLD", name: "Gold", price: Int64.max / 2)])
        #expect(throws: PricingError.lineOverflow(code: "GOLD", quantity: 3, unitPrice: Int64.max / 2, currency: .euro))
        {
            try price(cart(["GOLD": 3], in: catalog), [], catalog: catalog)
        }
        // Twice fits, and a percentage on it computes in 128 bits: 50 % of (2^63 − 2) = 2^62 − 1.
        let receipt = try price(
            cart(["GOLD": 2], in: catalog), [percent("half", 5000, codes: ["GOLD"])], catalog: catalog)
        #expect(receipt.total == Int64.max / 2)
    }

    @Test("a subtotal beyond 64 bits is an error")
    func subtotalOverflow() throws {
        let catalog = try Catalog(products: [
            Product(code: "A", name: "A", price: Int64.max / 2), Product(code: "B", name: "B", price: Int64.max / 2 + 2)
        ])
        #expect(throws: PricingError.subtotalOverflow(currency: .euro)) {
            try price(cart(["A", "B"], in: catalog), [], catalog: catalog)
        }
    }

    @Test("merging refuses a quantity beyond 64 bits")
    func mergeOverflow() {
        var merger = CartLineMerger(productCount: 1)
        let first = merger.add(0, quantity: Int64.max)
        let second = merger.add(0, quantity: 1)
        #expect(first)
        #expect(!second)
        #expect(merger.takeLines() == [Cart.Line(product: 0, quantity: Int64.max)])
    }

    @Test("a catalog refuses duplicate codes, empty codes and negative prices")
    func catalogProblems() {
        #expect(throws: Catalog.Problem.duplicateCode("A", index: 1, firstIndex: 0)) {
            try Catalog(products: [Product(code: "A", name: "A", price: 1), Product(code: "A", name: "A2", price: 2)])
        }
        #expect(throws: Catalog.Problem.negativePrice("A", index: 0)) {
            try Catalog(products: [Product(code: "A", name: "A", price: -1)])
        }
        #expect(throws: Catalog.Problem.emptyCode(index: 0)) {
            try Catalog(products: [Product(code: "", name: "A", price: 1)])
        }
    }

    @Test("codes are case-sensitive")
    func caseSensitiveCodes() throws {
        let catalog = try Catalog(products: [
            Product(code: "mug", name: "small", price: 1), Product(code: "MUG", name: "big", price: 2)
        ])
        #expect(catalog.productID(for: "MUG") == 1)
        #expect(catalog.productID(for: "Mug") == nil)
    }
}

@Suite("Interned lines")
struct InternedLinesTests {
    @Test("units of interned ids merge like scanned items, in order of first appearance")
    func addUnits() {
        let ids: [Int32] = [2, 0, 2, 2, 1, 0]
        var fast = CartLineMerger(productCount: 3)
        var slow = CartLineMerger(productCount: 3)
        _ = slow.add(1, quantity: 5)
        _ = fast.add(1, quantity: 5)
        let added = ids.withUnsafeBufferPointer { fast.addUnits($0) }
        #expect(added)
        for id in ids { _ = slow.add(Int(id), quantity: 1) }
        #expect(
            fast.takeLines() == [
                Cart.Line(product: 1, quantity: 6), Cart.Line(product: 2, quantity: 3),
                Cart.Line(product: 0, quantity: 2)
            ])
        #expect(
            slow.takeLines() == [
                Cart.Line(product: 1, quantity: 6), Cart.Line(product: 2, quantity: 3),
                Cart.Line(product: 0, quantity: 2)
            ])
    }

    @Test("an id outside the catalog or an overflowing quantity adds nothing")
    func refusals() {
        var merger = CartLineMerger(productCount: 2)
        let outside: [Int32] = [0, 2]
        let negative: [Int32] = [-1]
        #expect(!outside.withUnsafeBufferPointer { merger.addUnits($0) })
        #expect(!negative.withUnsafeBufferPointer { merger.addUnits($0) })
        #expect(merger.takeLines() == [])
        _ = merger.add(0, quantity: Int64.max)
        let one: [Int32] = [1, 0]
        #expect(!one.withUnsafeBufferPointer { merger.addUnits($0) })
        #expect(merger.takeLines() == [Cart.Line(product: 0, quantity: Int64.max)])
    }
}
