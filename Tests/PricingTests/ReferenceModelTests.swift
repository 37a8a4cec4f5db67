import Pricing
import Testing
import Workloads

/// Random shops with promotions of every type, v2 included.
struct RandomV2Shop {
    let catalog: Catalog
    let promotions: [Promotion]
    let instant = Instant(seconds: 1_800_000_000)
    static let coupons = ["SPRING", "vip"]

    /// `distinctPrices`: no two products share a list price.
    init(random: inout TestRandom, distinctPrices: Bool = false) {
        let count = random.int(2...7)
        var prices: [Int64] = [0, 1, 99, 250, 500, 750, 750, 1200, 2000, 2000, 4999]
        if distinctPrices { prices = [1, 99, 250, 500, 750, 1200, 2000, 4999, 333, 1234] }
        prices.shuffle(using: &random)
        catalog = try! Catalog(products: (0..<count).map { Product(code: "P\($0)", name: "Product \($0)", price: prices[$0]) })
        func codes() -> [String] {
            Array(Set((0..<random.int(1...3)).map { _ in "P\(random.int(0...count))" })).sorted()  // P<count> is not sold
        }
        var promotions: [Promotion] = []
        for index in 0..<random.int(0...12) {
            var targets: [String]?
            var rule: Promotion.Rule
            var codes = codes()
            let limit: Int64? = random.int(0...3) == 0 ? Int64(random.int(1...3)) : nil
            switch random.int(0...9) {
            case 0: let n = Int64(random.int(2...4)); rule = .combo(groupSize: n, paid: Int64(random.int(0...(Int(n) - 1))))
            case 1: rule = .bulk(threshold: Int64(random.int(1...6)), unitPrice: Int64([0, 100, 450, 700, 1500][random.int(0...4)]))
            case 2:
                rule = .percent(minimumQuantity: Int64(random.int(1...4)), hundredths: Int64([1, 333, 1000, 1250, 5000, 10_000][random.int(0...5)]),
                                cap: random.int(0...2) == 0 ? Int64([1, 150, 999][random.int(0...2)]) : nil)
            case 3: rule = .amount(minimumQuantity: Int64(random.int(1...4)), amountOff: Int64([1, 100, 300, 3_000][random.int(0...3)]))
            case 4, 5:
                let offer: Promotion.GroupOffer
                switch random.int(0...2) {
                case 0: offer = .price(Int64([0, 500, 1000, 2500, 6000][random.int(0...4)]))
                case 1: offer = .percent(Int64([1, 1250, 3333, 5000, 10_000][random.int(0...4)]))
                default: offer = .amount(Int64([1, 200, 700, 5000][random.int(0...3)]))
                }
                rule = .bundle(size: Int64(random.int(2...4)), offer: offer, limit: limit)
            case 6, 7:
                let reward: Promotion.Reward = random.int(0...2) == 0 ? .price(Int64([0, 100, 600][random.int(0...2)]))
                    : .percent(Int64([10_000, 5000, 1250, 1][random.int(0...3)]))
                rule = .bxgy(buy: Int64(random.int(1...3)), get: Int64(random.int(1...2)), reward: reward, limit: limit)
                if random.int(0...1) == 0 {
                    let rewards = codes.filter { _ in random.int(0...1) == 0 }
                    codes.removeAll { rewards.contains($0) }
                    if codes.isEmpty { codes = ["P\(count)"] }
                    targets = rewards.isEmpty ? ["P\(random.int(0...count))"].filter { !codes.contains($0) } : rewards
                    if targets!.isEmpty { targets = nil }
                }
            case 8:
                rule = .cartPercent(minimum: Int64(random.int(0...3) * 1000), hundredths: Int64([500, 1000, 10_000][random.int(0...2)]),
                                    cap: random.int(0...1) == 0 ? Int64([1, 250, 2000][random.int(0...2)]) : nil)
            default: rule = .cartAmount(minimum: Int64(random.int(0...3) * 1000), amountOff: Int64([1, 500, 100_000][random.int(0...2)]))
            }
            promotions.append(Promotion(
                id: "r\(index)", name: "Rule \(index)", rule: rule, codes: rule.isCartRule ? [] : codes, targets: targets,
                start: random.int(0...5) == 0 ? Instant(seconds: 1_800_000_001) : nil, end: nil,
                priority: Int64(random.int(-1...1)), isEnabled: random.int(0...9) != 0,
                coupon: random.int(0...5) == 0 ? RandomV2Shop.coupons[random.int(0...1)] : nil))
        }
        self.promotions = promotions
    }

    /// Up to 6 items, a quantity of 1,000 or more now and then.
    func cart(random: inout TestRandom, large: Bool) -> Cart {
        var merger = CartLineMerger(productCount: catalog.products.count)
        for _ in 0..<random.int(0...6) {
            _ = merger.add(random.int(0...(catalog.products.count - 1)), quantity: Int64(random.int(1...8)))
        }
        if large { _ = merger.add(random.int(0...(catalog.products.count - 1)), quantity: Int64(random.int(1000...1400))) }
        let coupons = random.int(0...2) == 0 ? [RandomV2Shop.coupons[random.int(0...1)].lowercased()] : []
        return Cart(lines: merger.takeLines(), coupons: coupons)
    }
}

extension Receipt {
    /// The receipt in the reference model's terms.
    var referenceResult: ReferenceModel.Result {
        ReferenceModel.Result(
            lines: lines.map { $0.promotions.map { ReferenceModel.Entry(id: $0.id, discount: $0.discount, units: $0.units) } },
            cartPromotion: cartPromotion?.id, cartDiscount: cartDiscount, cartShares: lines.map(\.cartDiscount), total: total)
    }
}

@Suite("The engine against the reference model (SPEC §10)")
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
            var cache = BestItemRuleCache(productCount: shop.catalog.products.count)
            for cartIndex in 0..<4 {
                let isLarge = (shopIndex * 4 + cartIndex) % 12 == 0
                let cart = shop.cart(random: &random, large: isLarge)
                let expected = model.price(cart, at: shop.instant)
                let linear = try engine.price(cart, at: shop.instant, now: shop.instant)
                let indexed = try engine.price(cart, at: shop.instant, now: shop.instant, active: active, cache: &cache)
                #expect(linear.referenceResult == expected, "shop \(shopIndex) cart \(cartIndex): \(shop.promotions) \(cart)")
                #expect(indexed == linear)
                if linear.lines.contains(where: { $0.promotions.contains { $0.type == .bundle || $0.type == .bxgy } }) { withGroups += 1 }
                if isLarge { large += 1 }
                compared += 1
                if linear.referenceResult != expected { return }
            }
        }
        #expect(compared == 10_000)
        #expect(withGroups > 2_000)
        #expect(large > 800)
    }

    @Test("per line the promotions use at most its units; the totals add up; scan order does not matter with distinct prices")
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
