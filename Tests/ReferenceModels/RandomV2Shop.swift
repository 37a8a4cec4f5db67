import Pricing
import SeededRandom

/// Random shops with promotions of every type, v2 included.
public struct RandomV2Shop {
    public let catalog: Catalog
    public let promotions: [Promotion]
    public let instant = Instant(seconds: 1_800_000_000)
    public static let coupons = ["SPRING", "vip"]

    /// `distinctPrices`: no two products share a list price.
    public init(random: inout SplitMix64, distinctPrices: Bool = false) {
        let count = random.draw(2...7)
        var prices: [Int64] = [0, 1, 99, 250, 500, 750, 750, 1200, 2000, 2000, 4999]
        if distinctPrices { prices = [1, 99, 250, 500, 750, 1200, 2000, 4999, 333, 1234] }
        prices.shuffle(using: &random)
        catalog = try! Catalog(
            products: (0..<count).map { Product(code: "P\($0)", name: "Product \($0)", price: prices[$0]) })
        func codes() -> [String] {
            // P<count> is not sold.
            Array(Set((0..<random.draw(1...3)).map { _ in "P\(random.draw(0...count))" })).sorted()
        }
        var promotions: [Promotion] = []
        for index in 0..<random.draw(0...12) {
            var targets: [String]?
            var rule: Promotion.Rule
            var codes = codes()
            let limit: Int64? = random.draw(0...3) == 0 ? Int64(random.draw(1...3)) : nil
            switch random.draw(0...9) {
            case 0:
                let n = Int64(random.draw(2...4))
                rule = .combo(groupSize: n, paid: Int64(random.draw(0...(Int(n) - 1))))
            case 1:
                rule = .bulk(
                    threshold: Int64(random.draw(1...6)), unitPrice: Int64([0, 100, 450, 700, 1500][random.draw(0...4)])
                )
            case 2:
                rule = .percent(
                    minimumQuantity: Int64(random.draw(1...4)),
                    hundredths: Int64([1, 333, 1000, 1250, 5000, 10_000][random.draw(0...5)]),
                    cap: random.draw(0...2) == 0 ? Int64([1, 150, 999][random.draw(0...2)]) : nil)
            case 3:
                rule = .amount(
                    minimumQuantity: Int64(random.draw(1...4)),
                    amountOff: Int64([1, 100, 300, 3_000][random.draw(0...3)]))
            case 4, 5:
                let offer: ProductBundle.Offer
                switch random.draw(0...2) {
                case 0: offer = .price(Int64([0, 500, 1000, 2500, 6000][random.draw(0...4)]))
                case 1: offer = .percent(Int64([1, 1250, 3333, 5000, 10_000][random.draw(0...4)]))
                default: offer = .amount(Int64([1, 200, 700, 5000][random.draw(0...3)]))
                }
                rule = .bundle(size: Int64(random.draw(2...4)), offer: offer, limit: limit)
            case 6, 7:
                let reward: BuyXGetY.Reward =
                    random.draw(0...2) == 0
                    ? .price(Int64([0, 100, 600][random.draw(0...2)]))
                    : .percent(Int64([10_000, 5000, 1250, 1][random.draw(0...3)]))
                rule = .bxgy(
                    buy: Int64(random.draw(1...3)), get: Int64(random.draw(1...2)), reward: reward, limit: limit)
                if random.draw(0...1) == 0 {
                    let rewards = codes.filter { _ in random.draw(0...1) == 0 }
                    codes.removeAll { rewards.contains($0) }
                    if codes.isEmpty { codes = ["P\(count)"] }
                    targets = rewards.isEmpty ? ["P\(random.draw(0...count))"].filter { !codes.contains($0) } : rewards
                    if targets!.isEmpty { targets = nil }
                }
            case 8:
                rule = .cartPercent(
                    minimum: Int64(random.draw(0...3) * 1000),
                    hundredths: Int64([500, 1000, 10_000][random.draw(0...2)]),
                    cap: random.draw(0...1) == 0 ? Int64([1, 250, 2000][random.draw(0...2)]) : nil)
            default:
                rule = .cartAmount(
                    minimum: Int64(random.draw(0...3) * 1000), amountOff: Int64([1, 500, 100_000][random.draw(0...2)]))
            }
            promotions.append(
                Promotion(
                    id: "r\(index)", name: "Rule \(index)", rule: rule, codes: rule.isCartRule ? [] : codes,
                    targets: targets,
                    start: random.draw(0...5) == 0 ? Instant(seconds: 1_800_000_001) : nil,
                    end: random.draw(0...6) == 0
                        ? Instant(seconds: 1_800_000_000 + Int64(random.draw(0...1)) * 60) : nil,
                    priority: Int64(random.draw(-1...1)), isEnabled: random.draw(0...9) != 0,
                    coupon: random.draw(0...5) == 0 ? RandomV2Shop.coupons[random.draw(0...1)] : nil))
        }
        self.promotions = promotions
    }

    /// Up to 6 items, a quantity of 1,000 or more now and then.
    public func cart(random: inout SplitMix64, large: Bool) -> Cart {
        var merger = CartLineMerger(productCount: catalog.products.count)
        for _ in 0..<random.draw(0...6) {
            _ = merger.add(random.draw(0...(catalog.products.count - 1)), quantity: Int64(random.draw(1...8)))
        }
        if large {
            _ = merger.add(random.draw(0...(catalog.products.count - 1)), quantity: Int64(random.draw(1000...1400)))
        }
        let coupons = random.draw(0...2) == 0 ? [RandomV2Shop.coupons[random.draw(0...1)].lowercased()] : []
        return Cart(lines: merger.takeLines(), coupons: coupons)
    }
}

extension SplitMix64 {
    /// A uniform draw from `range`.
    public mutating func draw(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
}
