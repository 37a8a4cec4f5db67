import Pricing
import SeededRandom
import Testing

/// The workloads' seedable generator, with a range helper.
typealias TestRandom = SplitMix64

extension SplitMix64 {
    init(state: UInt64) { self.init(seed: state) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
}

/// Random catalogs, rule sets and carts for checks that must hold on every input.
struct RandomShop {
    let catalog: Catalog
    let promotions: [Promotion]
    let instant = Instant(seconds: 1_800_000_000)
    static let coupons = ["SPRING", "spring", "VIP", "WELCOME"]

    init(random: inout TestRandom) {
        let productCount = random.int(1...12)
        catalog = try! Catalog(
            products: (0..<productCount).map { index in
                Product(
                    code: "P\(index)", name: "Product \(index)",
                    price: Int64(random.int(0...4) == 0 ? 0 : random.int(1...5_000)))
            })
        var promotions: [Promotion] = []
        for index in 0..<random.int(0...40) {
            let codes = (0..<random.int(1...3)).map { _ in "P\(random.int(0...(productCount + 1)))" }
            let rule: Promotion.Rule
            switch random.int(0...5) {
            case 0:
                let n = Int64(random.int(2...5))
                rule = .combo(groupSize: n, paid: Int64(random.int(0...(Int(n) - 1))))
            case 1: rule = .bulk(threshold: Int64(random.int(1...20)), unitPrice: Int64(random.int(0...5_000)))
            case 2:
                rule = .percent(
                    minimumQuantity: Int64(random.int(1...20)),
                    hundredths: Int64([1, 333, 1000, 1250, 5000, 10_000][random.int(0...5)]))
            case 3: rule = .amount(minimumQuantity: Int64(random.int(1...20)), amountOff: Int64(random.int(1...3_000)))
            case 4:
                rule = .cartPercent(
                    minimum: Int64(random.int(0...20_000)),
                    hundredths: Int64([1, 500, 999, 1000, 10_000][random.int(0...4)]))
            default:
                rule = .cartAmount(
                    minimum: Int64(random.int(0...20_000)),
                    amountOff: Int64([1, 100, 500, 2_000, 100_000][random.int(0...4)]))
            }
            let offset = Int64(random.int(-3...3)) * 1_000
            promotions.append(
                Promotion(
                    id: "r\(index)", name: "Rule \(index)", rule: rule, codes: rule.isCartRule ? [] : codes,
                    start: random.int(0...2) == 0 ? Instant(seconds: 1_800_000_000 + offset) : nil,
                    end: random.int(0...2) == 0
                        ? Instant(seconds: 1_800_000_000 + offset + Int64(random.int(0...2)) * 1_000) : nil,
                    priority: Int64(random.int(-1...1)), isEnabled: random.int(0...6) != 0,
                    coupon: random.int(0...3) == 0 ? RandomShop.coupons[random.int(0...3)] : nil))
        }
        self.promotions = promotions
    }

    func cart(random: inout TestRandom) -> Cart {
        var merger = CartLineMerger(productCount: catalog.products.count)
        for _ in 0..<random.int(0...7) {
            _ = merger.add(
                random.int(0...(catalog.products.count - 1)),
                quantity: Int64(random.int(0...4) == 0 ? random.int(17...60) : random.int(1...16)))
        }
        let coupons = (0..<random.int(0...2)).map { _ in
            RandomShop.coupons[random.int(0...3)] + (random.int(0...5) == 0 ? "X" : "")
        }
        return Cart(lines: merger.takeLines(), coupons: coupons)
    }
}

@Suite("Indexed pricing")
struct IndexedPricingTests {
    @Test("gives the same receipts as checking every rule, on thousands of random shops and carts")
    func sameReceipts() throws {
        var random = TestRandom(state: 20_261_121)
        var compared = 0
        var itemPromotions = 0
        var cartPromotions = 0
        var couponPromotions = 0
        for _ in 0..<400 {
            let shop = RandomShop(random: &random)
            let rules = RuleSet(promotions: shop.promotions, catalog: shop.catalog)
            let engine = PricingEngine(rules: rules)
            let active = ActiveRules(rules: rules, at: shop.instant)
            // A batch worker's pricer, kept from cart to cart with its memory of best rules.
            let pricer = ActivePricer(engine: engine, active: active)
            var storage = ReceiptStorage()
            for _ in 0..<25 {
                let cart = shop.cart(random: &random)
                let linear = try engine.price(cart, at: shop.instant, now: shop.instant)
                let indexed = try pricer.price(cart, at: shop.instant, now: shop.instant)
                #expect(indexed == linear, "\(shop.promotions) \(cart)")
                // The same again in the storage of the last receipt, as a batch prices.
                let reusing = try pricer.price(cart, at: shop.instant, now: shop.instant, storage: &storage)
                #expect(reusing == linear, "\(shop.promotions) \(cart)")
                storage.recycle(reusing)
                compared += 1
                if linear.itemDiscount > 0 { itemPromotions += 1 }
                if linear.cartPromotion != nil { cartPromotions += 1 }
                let applied = linear.lines.compactMap(\.promotion) + [linear.cartPromotion].compactMap { $0 }
                if applied.contains(where: { id in shop.promotions.first { $0.id == id.id }?.coupon != nil }) {
                    couponPromotions += 1
                }
            }
        }
        #expect(compared == 10_000)
        // The comparison covers what matters: item, cart and coupon promotions applied.
        #expect(itemPromotions > 3_000)
        #expect(cartPromotions > 1_000)
        #expect(couponPromotions > 300)
        print(
            "indexed pricing: \(itemPromotions) carts with item promotions, \(cartPromotions) with a cart promotion, \(couponPromotions) with a coupon's"
        )
    }

    @Test("a cart priced at another instant takes the general path")
    func otherInstant() throws {
        let rules = RuleSet(
            promotions: [percent("dec", 1000, codes: ["MUG"], start: "2026-12-01T00:00:00Z")], catalog: store)
        let engine = PricingEngine(rules: rules)
        let active = ActiveRules(rules: rules, at: try Instant(rfc3339: "2026-11-01T00:00:00Z"))
        var c = cart(["MUG"])
        c.at = try Instant(rfc3339: "2026-12-05T00:00:00Z")
        #expect(try ActivePricer(engine: engine, active: active).price(c, now: noon).itemDiscount == 75)
        // At the index's own instant the promotion has not started.
        #expect(
            try ActivePricer(engine: engine, active: active).price(cart(["MUG"]), at: active.instant, now: noon)
                .itemDiscount == 0)
    }
}
