import Pricing
import SeededRandom

/// Random shops with promotions of every type, v2 included; with `v3`, catalogs with attributes,
/// promotions with selectors, customer groups and usage limits, carts with customers and a ledger.
public struct RandomV2Shop {
    public let catalog: Catalog
    public let promotions: [Promotion]
    public let instant = Instant(seconds: 1_800_000_000)
    public static let coupons = ["SPRING", "vip"]
    /// Whether the shop uses the v3 keys (its carts then have customers).
    public let isV3: Bool
    /// The store's counts of redemptions, for some v3 shops; nil: no limit binds.
    public let ledger: RedemptionCounts?

    /// `distinctPrices`: no two products share a list price. Without `v3`, the shops are drawn
    /// exactly as before v3 (the same seed gives the same shop).
    public init(random: inout SplitMix64, distinctPrices: Bool = false, v3: Bool = false) {
        isV3 = v3
        let count = v3 ? random.draw(2...9) : random.draw(2...7)
        var prices: [Int64] = [0, 1, 99, 250, 500, 750, 750, 1200, 2000, 2000, 4999]
        if distinctPrices { prices = [1, 99, 250, 500, 750, 1200, 2000, 4999, 333, 1234] }
        prices.shuffle(using: &random)
        if v3 {
            catalog = V3Vocabulary.catalog(count: count, prices: prices, random: &random)
        } else {
            catalog = try! Catalog(
                products: (0..<count).map { Product(code: "P\($0)", name: "Product \($0)", price: prices[$0]) })
        }
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
            var promotion = Promotion(
                id: "r\(index)", name: "Rule \(index)", rule: rule, codes: rule.isCartRule ? [] : codes,
                targets: targets,
                start: random.draw(0...5) == 0 ? Instant(seconds: 1_800_000_001) : nil,
                end: random.draw(0...6) == 0
                    ? Instant(seconds: 1_800_000_000 + Int64(random.draw(0...1)) * 60) : nil,
                priority: Int64(random.draw(-1...1)), isEnabled: random.draw(0...9) != 0,
                coupon: random.draw(0...5) == 0 ? RandomV2Shop.coupons[random.draw(0...1)] : nil)
            if v3 { V3Vocabulary.extend(&promotion, productCount: count, random: &random) }
            promotions.append(promotion)
        }
        self.promotions = promotions
        ledger = v3 && random.draw(0...1) == 0 ? V3Vocabulary.ledger(promotions, random: &random) : nil
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
        var cart = Cart(lines: merger.takeLines(), coupons: coupons)
        if isV3, random.draw(0...2) != 0 {
            cart.customer = Cart.Customer(
                id: V3Vocabulary.customers[random.draw(0...(V3Vocabulary.customers.count - 1))],
                groups: (0..<random.draw(0...2)).map { _ in V3Vocabulary.groups.randomElement(using: &random)! })
        }
        return cart
    }
}

/// What v3 shops are made of: a small vocabulary of category names (paths of 1 to 3 levels that
/// share prefixes, a name that is another's prefix as text but not as a path), brands and tags
/// (two differing in case, two canonically equivalent but different bytes), customer groups, and
/// customer ids (none, and two canonically equivalent ids, which are two customers).
public enum V3Vocabulary {
    static let customers: [String?] = [nil, "C1", "C2", "C3", "Jos\u{E9}", "Jose\u{301}"]
    static let top = ["Clothing", "Home", "Clothingware", "D\u{E9}cor"]
    static let middle = ["Shirts", "Hats", "Kitchen", "Sale"]
    static let bottom = ["Cotton", "Wool"]
    /// "Café" composed and decomposed: equal as Swift strings, not byte for byte.
    static let brands = ["Acme", "acme", "Cabify", "Caf\u{E9}", "Cafe\u{301}"]
    static let tags = ["sale", "Sale", "new", "eco", "caf\u{E9}", "cafe\u{301}"]
    public static let groups = ["members", "staff", "\u{E9}quipe", "e\u{301}quipe"]
    /// A product code with a decomposed twin ("É" and "E" + U+0301).
    static let composedCode = "\u{C9}"
    static let decomposedCode = "E\u{301}"

    static func path(_ random: inout SplitMix64) -> [String] {
        var path = [top.randomElement(using: &random)!]
        if random.draw(0...2) != 0 { path.append(middle.randomElement(using: &random)!) }
        if path.count == 2, random.draw(0...1) == 0 { path.append(bottom.randomElement(using: &random)!) }
        return path
    }

    /// `count` products with attributes (some without), the last one sometimes coded "É".
    static func catalog(count: Int, prices: [Int64], random: inout SplitMix64) -> Catalog {
        let products = (0..<count).map { index in
            let code = index == count - 1 && random.draw(0...3) == 0 ? composedCode : "P\(index)"
            var tags: [String] = []
            for _ in 0..<random.draw(0...3) {
                let tag = Self.tags.randomElement(using: &random)!
                if !tags.contains(where: { Array($0.utf8) == Array(tag.utf8) }) { tags.append(tag) }
            }
            return Product(
                code: code, name: "Product \(index)", price: prices[index],
                category: random.draw(0...3) != 0 ? path(&random) : nil,
                brand: random.draw(0...2) != 0 ? brands.randomElement(using: &random)! : nil, tags: tags)
        }
        return try! Catalog(products: products)
    }

    /// 1 or 2 values of `values`, or now and then one no product has.
    static func some(_ values: [String], missing: String, _ random: inout SplitMix64) -> [String] {
        if random.draw(0...7) == 0 { return [missing] }
        return (0..<random.draw(1...2)).map { _ in values.randomElement(using: &random)! }
    }

    static func paths(_ random: inout SplitMix64) -> [[String]] {
        if random.draw(0...7) == 0 { return [["Clothing", "Nowhere"]] }
        return (0..<random.draw(1...2)).map { _ in path(&random) }
    }

    /// A selector with each key now and then (every key, exclusions included); none at all selects
    /// the whole catalog.
    static func selector(productCount: Int, _ random: inout SplitMix64) -> ProductSelector {
        let codes = (0...productCount).map { "P\($0)" } + [decomposedCode, composedCode]
        var selector = ProductSelector()
        if random.draw(0...4) == 0 { selector.codes = some(codes, missing: "NOPE", &random) }
        if random.draw(0...2) == 0 { selector.categories = paths(&random) }
        if random.draw(0...3) == 0 { selector.brands = some(brands, missing: "Nobody", &random) }
        if random.draw(0...3) == 0 { selector.tags = some(tags, missing: "gone", &random) }
        if random.draw(0...5) == 0 { selector.excludeCodes = some(codes, missing: "NOPE", &random) }
        if random.draw(0...4) == 0 { selector.excludeCategories = paths(&random) }
        if random.draw(0...5) == 0 { selector.excludeBrands = some(brands, missing: "Nobody", &random) }
        if random.draw(0...3) == 0 { selector.excludeTags = some(tags, missing: "gone", &random) }
        return selector
    }

    /// One selector, or an array of two or three.
    static func selectors(productCount: Int, _ random: inout SplitMix64) -> [ProductSelector] {
        (0..<(random.draw(0...3) == 0 ? random.draw(2...3) : 1)).map { _ in
            selector(productCount: productCount, &random)
        }
    }

    /// Adds v3 keys to a promotion drawn the v2 way: its products or targets as selectors, a cart
    /// promotion on part of the cart, customer groups, usage limits.
    static func extend(_ promotion: inout Promotion, productCount: Int, random: inout SplitMix64) {
        if promotion.rule.isCartRule {
            if random.draw(0...1) == 0 { promotion.productSelectors = selectors(productCount: productCount, &random) }
        } else {
            if random.draw(0...1) == 0 {
                promotion.productSelectors = selectors(productCount: productCount, &random)
                promotion.codes = []
            }
            if promotion.rule.type == .bxgy, random.draw(0...1) == 0 {
                promotion.targetSelectors = selectors(productCount: productCount, &random)
                promotion.targets = nil
            }
        }
        if random.draw(0...3) == 0 {
            promotion.customerGroups = (0..<random.draw(1...2)).map { _ in groups.randomElement(using: &random)! }
        }
        // A coupon's promotion more often, so that coupons run out.
        if random.draw(0...(promotion.coupon == nil ? 5 : 1)) == 0 { promotion.uses = Int64(random.draw(1...3)) }
        if random.draw(0...5) == 0 { promotion.usesPerCustomer = Int64(random.draw(1...2)) }
    }

    /// Orders that redeemed some of the promotions, all customers together and per customer id.
    static func ledger(_ promotions: [Promotion], random: inout SplitMix64) -> RedemptionCounts {
        var counts = RedemptionCounts()
        for promotion in promotions where random.draw(0...1) == 0 {
            counts.orders[promotion.id] = Int64(random.draw(0...3))
            for customer in V3Vocabulary.customers.compactMap({ $0 }) where random.draw(0...1) == 0 {
                counts.ordersByCustomer[ExactText(customer), default: [:]][promotion.id] = Int64(random.draw(0...2))
            }
        }
        return counts
    }
}

extension SplitMix64 {
    /// A uniform draw from `range`.
    public mutating func draw(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
}
