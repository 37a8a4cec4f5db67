import Pricing
import ReferenceModels
import Testing

extension Receipt {
    /// The receipt in the reference model's terms.
    var referenceResult: ReferenceModel.Result {
        ReferenceModel.Result(
            lines: lines.map {
                $0.promotions.map { ReferenceModel.Entry(id: $0.id, discount: $0.discount, units: $0.units) }
            },
            cartPromotion: cartPromotion?.id, cartDiscount: cartDiscount, cartShares: lines.map(\.cartDiscount),
            total: total, warnings: warnings.map(\.description))
    }
}

@Suite("The engine against the reference model (docs/pricing.md)")
struct ReferenceModelTests {
    @Test("the same promotions, units, discounts and totals on thousands of random shops and carts, both choosers")
    func differential() throws {
        var random = TestRandom(seed: 10_2026)
        var compared = 0
        var withGroups = 0
        var large = 0
        for shopIndex in 0..<2_500 {
            let shop = RandomV2Shop(random: &random)
            let rules = RuleSet(promotions: shop.promotions, catalog: shop.catalog)
            let engine = PricingEngine(rules: rules)
            let model = ReferenceModel(catalog: shop.catalog, promotions: shop.promotions)
            let active = ActiveRules(rules: rules, at: shop.instant)
            let pricer = ActivePricer(engine: engine, active: active)
            for cartIndex in 0..<4 {
                let isLarge = (shopIndex * 4 + cartIndex) % 12 == 0
                let cart = shop.cart(random: &random, large: isLarge)
                let expected = model.price(cart, at: shop.instant)
                let linear = try engine.price(cart, at: shop.instant, now: shop.instant)
                let indexed = try pricer.price(cart, at: shop.instant, now: shop.instant)
                #expect(
                    linear.referenceResult == expected,
                    "shop \(shopIndex) cart \(cartIndex): \(shop.promotions) \(cart)")
                #expect(indexed == linear)
                if linear.lines.contains(where: { $0.promotions.contains { $0.type == .bundle || $0.type == .bxgy } }) {
                    withGroups += 1
                }
                if isLarge { large += 1 }
                compared += 1
                if linear.referenceResult != expected { return }
            }
        }
        #expect(compared == 10_000)
        #expect(withGroups > 2_000)
        #expect(large > 800)
    }

    @Test(
        "v3: selectors, cart promotions on part of the cart, customer groups and used-up limits, on thousands of random shops, both choosers"
    )
    func differentialV3() throws {
        var random = TestRandom(seed: 14_2026)
        var compared = 0
        var counts: [String: Int] = [:]
        for shopIndex in 0..<5_000 {
            let shop = RandomV2Shop(random: &random, v3: true)
            let rules = RuleSet(promotions: shop.promotions, catalog: shop.catalog)
            var engine = PricingEngine(rules: rules)
            engine.ledger = shop.ledger
            let model = ReferenceModel(catalog: shop.catalog, promotions: shop.promotions, ledger: shop.ledger)
            let pricer = ActivePricer(engine: engine, active: ActiveRules(rules: rules, at: shop.instant))
            var storage = ReceiptStorage()
            for cartIndex in 0..<4 {
                let cart = shop.cart(random: &random, large: (shopIndex * 4 + cartIndex) % 16 == 0)
                let expected = model.price(cart, at: shop.instant)
                let linear = try engine.price(cart, at: shop.instant, now: shop.instant)
                #expect(
                    linear.referenceResult == expected,
                    "shop \(shopIndex) cart \(cartIndex): \(shop.catalog.products) \(shop.promotions) \(cart) \(String(describing: shop.ledger))"
                )
                let indexed = try pricer.price(cart, at: shop.instant, now: shop.instant, storage: &storage)
                #expect(indexed == linear, "indexed, shop \(shopIndex) cart \(cartIndex)")
                storage.recycle(indexed)
                compared += 1
                if linear.referenceResult != expected { return }
                // What the comparison covered.
                let applied = Set(linear.lines.flatMap { $0.promotions.compactMap(\.ruleIndex) })
                for index in applied {
                    let p = shop.promotions[index]
                    if p.productSelectors != nil { counts["item promotion by selector", default: 0] += 1 }
                    if p.targetSelectors != nil { counts["bxgy with target selectors", default: 0] += 1 }
                    if p.customerGroups != nil { counts["item promotion for customer groups", default: 0] += 1 }
                    if p.isLimited { counts["limited item promotion", default: 0] += 1 }
                }
                if let index = linear.cartPromotion?.ruleIndex, shop.promotions[index].productSelectors != nil {
                    counts["cart promotion on part of the cart", default: 0] += 1
                    if linear.lines.contains(where: { $0.cartDiscount == 0 && $0.total > 0 }) {
                        counts["... with a line left out", default: 0] += 1
                    }
                }
                for promotion in shop.promotions where promotion.isEnabled && promotion.isActive(at: shop.instant) {
                    switch model.standing(of: promotion, in: cart) {
                    case .notEligible: counts["not eligible", default: 0] += 1
                    case .exhausted: counts["used up", default: 0] += 1
                    case .eligible: break
                    }
                }
                for warning in linear.warnings {
                    if case .couponLimitReached = warning { counts["coupon limit warning", default: 0] += 1 }
                    if case .unmatchedCoupon = warning { counts["unmatched coupon warning", default: 0] += 1 }
                }
            }
        }
        #expect(compared == 20_000)
        print("v3 differential: \(counts.sorted { $0.key < $1.key })")
        for (what, least) in [
            ("item promotion by selector", 4_000), ("bxgy with target selectors", 150),
            ("item promotion for customer groups", 450), ("limited item promotion", 1_500),
            ("cart promotion on part of the cart", 1_000), ("... with a line left out", 400), ("not eligible", 10_000),
            ("used up", 1_500), ("coupon limit warning", 50), ("unmatched coupon warning", 2_000)
        ] {
            #expect(counts[what, default: 0] >= least, "\(what): \(counts[what, default: 0])")
        }
    }

    @Test("the reference model itself gives v3-examples (a)–(d), worked by hand")
    func referenceOnV3Examples() {
        let catalog = try! Catalog(products: [
            Product(code: "TSHIRT", name: "T-Shirt", price: 2000, category: ["Clothing", "Shirts"], tags: ["sale"]),
            Product(code: "HOODIE", name: "Hoodie", price: 3500, category: ["Clothing", "Sweaters"]),
            Product(code: "MUG", name: "Mug", price: 750, category: ["Home", "Kitchen"]),
            Product(code: "CAP", name: "Cap", price: 1200, category: ["Clothing", "Hats"])
        ])
        func model(_ rule: Promotion.Rule, _ products: [ProductSelector], targets: [ProductSelector]? = nil)
            -> ReferenceModel
        {
            var p = Promotion(id: "p", name: "p", rule: rule)
            p.productSelectors = products
            p.targetSelectors = targets
            return ReferenceModel(catalog: catalog, promotions: [p])
        }
        func cart(_ items: KeyValuePairs<String, Int64>) -> Cart {
            Cart(lines: items.map { Cart.Line(product: catalog.productID(for: $0.key)!, quantity: $0.value) })
        }
        let at = Instant(seconds: 0)
        let a = model(
            .percent(minimumQuantity: 1, hundredths: 2000),
            [ProductSelector(categories: [["Clothing"]], excludeTags: ["sale"])]
        ).price(cart(["TSHIRT": 1, "HOODIE": 1, "CAP": 2, "MUG": 1]), at: at)
        #expect(a.lines.map { $0.map(\.discount) } == [[], [700], [480], []])
        #expect(a.total == 7470)
        let b = model(
            .bundle(size: 2, offer: .price(4000)),
            [
                ProductSelector(categories: [["Clothing", "Sweaters"]]),
                ProductSelector(categories: [["Clothing", "Hats"]])
            ]
        ).price(cart(["TSHIRT": 1, "HOODIE": 1, "CAP": 2]), at: at)
        #expect(b.lines == [[], [.init(id: "p", discount: 521, units: 1)], [.init(id: "p", discount: 179, units: 1)]])
        #expect(b.total == 7200)
        let c = model(
            .bxgy(buy: 2), [ProductSelector(categories: [["Clothing"]])],
            targets: [ProductSelector(categories: [["Clothing", "Hats"], ["Home"]])])
        #expect(c.price(cart(["HOODIE": 1, "CAP": 2]), at: at).total == 5900)
        let c2 = c.price(cart(["HOODIE": 1, "CAP": 2, "MUG": 1]), at: at)
        #expect(
            c2.lines == [
                [.init(id: "p", discount: 0, units: 1)], [.init(id: "p", discount: 0, units: 1)],
                [.init(id: "p", discount: 750, units: 1)]
            ])
        #expect(c2.total == 5900)
        let d = model(.cartPercent(minimum: 5000, hundredths: 1500), [ProductSelector(excludeTags: ["sale"])])
            .price(cart(["TSHIRT": 2, "HOODIE": 1, "MUG": 1, "CAP": 1]), at: at)
        #expect(d.cartDiscount == 818)
        #expect(d.cartShares == [0, 525, 113, 180])
        #expect(d.total == 8632)
    }

    @Test(
        "per line the promotions use at most its units; the totals add up; scan order does not matter with distinct prices"
    )
    func properties() throws {
        var random = TestRandom(seed: 77)
        for _ in 0..<1_500 {
            let shop = RandomV2Shop(random: &random, distinctPrices: true)
            let engine = PricingEngine(rules: RuleSet(promotions: shop.promotions, catalog: shop.catalog))
            let cart = shop.cart(random: &random, large: random.int(0...9) == 0)
            let receipt = try engine.price(cart, at: shop.instant, now: shop.instant)
            for line in receipt.lines {
                #expect(line.promotions.reduce(0) { $0 + $1.units } <= line.quantity)
                #expect(line.total >= 0)
                #expect(line.discount == line.promotions.reduce(0) { $0 + $1.discount } + line.cartDiscount)
            }
            #expect(receipt.itemDiscount == receipt.lines.reduce(0) { $0 + $1.itemDiscount })
            #expect(receipt.cartDiscount == receipt.lines.reduce(0) { $0 + $1.cartDiscount })
            #expect(receipt.total == receipt.lines.reduce(0) { $0 + $1.total })
            #expect(receipt.total >= 0)
            var reversed = cart
            reversed.lines.reverse()
            let other = try engine.price(reversed, at: shop.instant, now: shop.instant)
            #expect(other.total == receipt.total)
            #expect(other.cartDiscount == receipt.cartDiscount)
        }
    }
}
