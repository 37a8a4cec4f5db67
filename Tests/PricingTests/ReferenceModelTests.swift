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
            total: total)
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
