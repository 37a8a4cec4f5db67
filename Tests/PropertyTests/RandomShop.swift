import BatchPricing
import InputFiles
import Platform
import Pricing
import PropertyBased
import Receipts

/// One promotion, as drawn: its type, target, parameters and conditions.
struct PromotionSpec: Sendable, CustomStringConvertible {
    var kind: Int, target: Int, a: Int, b: Int, priority: Int, coupon: Int, window: Int

    var description: String {
        "(\(kind) on P\(target): \(a), \(b); prio \(priority), coupon \(coupon), window \(window))"
    }
}

/// A catalog, a rule set and a cart, drawn together.
struct Shop: Sendable, CustomStringConvertible {
    var prices: [Int]
    var promotions: [PromotionSpec]
    /// (product index, quantity) per scanned item.
    var items: [(Int, Int)]
    /// Indexes into `couponCodes`; 4 is a coupon no promotion carries.
    var coupons: [Int]

    static let couponCodes = ["SPRING", "vip", "Welcome", "BLACKFRIDAY", "NOPE"]
    static let instant = Instant(seconds: 1_800_000_000)

    var description: String { "prices \(prices), promotions \(promotions), items \(items), coupons \(coupons)" }

    var catalog: Catalog {
        try! Catalog(
            products: prices.enumerated().map {
                Product(code: "P\($0.offset)", name: "Product \($0.offset)", price: Int64($0.element))
            })
    }

    func promotion(_ spec: PromotionSpec, index: Int) -> Promotion {
        let rule: Promotion.Rule
        switch spec.kind {
        case 0: rule = .combo(groupSize: Int64(2 + spec.a % 4), paid: Int64(spec.b % (2 + spec.a % 4)))
        case 1: rule = .bulk(threshold: Int64(1 + spec.a % 10), unitPrice: Int64(spec.b))
        case 2: rule = .percent(minimumQuantity: Int64(1 + spec.a % 10), hundredths: Int64(1 + spec.b * 2))
        case 3: rule = .amount(minimumQuantity: Int64(1 + spec.a % 10), amountOff: Int64(1 + spec.b))
        case 4: rule = .cartPercent(minimum: Int64(spec.b * 3), hundredths: Int64(1 + (spec.a * 331) % 10_000))
        default: rule = .cartAmount(minimum: Int64(spec.b * 3), amountOff: Int64(1 + spec.a * 97))
        }
        let seconds = Shop.instant.seconds
        let (start, end): (Instant?, Instant?) =
            switch spec.window {
            case 1: (Instant(seconds: seconds - 3_600), Instant(seconds: seconds + 3_600))
            case 2: (Instant(seconds: seconds), nil)  // starts exactly now: active
            case 3: (nil, Instant(seconds: seconds))  // ended exactly now: inactive
            default: (nil, nil)
            }
        return Promotion(
            id: "r\(index)", name: "Rule \(index)", rule: rule,
            codes: rule.isCartRule ? [] : ["P\(spec.target % max(prices.count, 1))"],
            start: start, end: end, priority: Int64(spec.priority),
            coupon: spec.coupon < 4 ? Shop.couponCodes[spec.coupon] : nil)
    }

    var rules: RuleSet {
        RuleSet(promotions: promotions.enumerated().map { promotion($0.element, index: $0.offset) }, catalog: catalog)
    }

    /// The cart as a user would write it, items in the given order.
    func cartJSON(order: [Int]? = nil) -> String {
        let items = (order ?? Array(self.items.indices)).map { self.items[$0] }
        let list = items.map { item in
            item.1 == 1
                ? "\"P\(item.0 % prices.count)\"" : "{\"code\": \"P\(item.0 % prices.count)\", \"quantity\": \(item.1)}"
        }
        let coupons = self.coupons.map { "\"\(Shop.couponCodes[$0])\"" }
        return "{\"coupons\": [\(coupons.joined(separator: ", "))], \"items\": [\(list.joined(separator: ", "))]}"
    }

    func price(_ json: String, rules: RuleSet? = nil) throws -> Receipt {
        var pricer = CartPricer(rules: rules ?? self.rules, instant: Shop.instant, now: Shop.instant)
        return try pricer.price(Array(json.utf8), name: "cart.json").get()
    }
}

enum ShopGen {
    static let spec = zip(
        Gen.int(in: 0...5), Gen.int(in: 0...9), Gen.int(in: 0...40), Gen.int(in: 0...4_999), Gen.int(in: -1...1),
        Gen.int(in: 0...6), Gen.int(in: 0...3)
    )
    .map { PromotionSpec(kind: $0, target: $1, a: $2, b: $3, priority: $4, coupon: $5, window: $6) }

    static let shop = zip(
        Gen.int(in: 0...5_000).array(of: 1...10),
        spec.array(of: 0...25),
        zip(Gen.int(in: 0...9), Gen.int(in: 1...30)).array(of: 0...14),
        Gen.int(in: 0...4).array(of: 0...3)
    ).map { Shop(prices: $0, promotions: $1, items: $2, coupons: $3) }
}
