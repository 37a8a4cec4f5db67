import BatchPricing
import InputFiles
import Platform
import Pricing
import PropertyBased
import Receipts
import SeededRandom
import StrictJSON
import Testing
import Workloads

/// Amounts of a JSON receipt, in minor units.
struct ReceiptNumbers {
    struct Line {
        var code: String, subtotal: Int64, discount: Int64, total: Int64, cartDiscount: Int64, promotionDiscount: Int64
    }
    var subtotal: Int64, itemDiscount: Int64, cartDiscount: Int64, discount: Int64, total: Int64
    var lines: [Line]

    init(_ json: String, digits: Int = 2) throws {
        let document = try JSONParser().parse(json)
        func amount(_ value: JSONValue?) -> Int64 {
            guard case .string(let text)? = value, case .success(let minor) = Amount.parse(text, minorDigits: digits)
            else {
                Issue.record("not an amount: \(String(describing: value))")
                return 0
            }
            return minor
        }
        subtotal = amount(document["subtotal"])
        itemDiscount = amount(document["item_discount"])
        cartDiscount = amount(document["cart_discount"])
        discount = amount(document["discount"])
        total = amount(document["total"])
        guard case .array(let items)? = document["lines"] else {
            throw JSONSyntaxError(message: "no lines", line: 0, column: 0, offset: 0)
        }
        lines = items.map { line in
            var code = ""
            if case .string(let text)? = line["code"] { code = text }
            var promotionDiscount: Int64 = 0
            if case .object? = line["promotion"] { promotionDiscount = amount(line["promotion"]?["discount"]) }
            return Line(
                code: code, subtotal: amount(line["subtotal"]), discount: amount(line["discount"]),
                total: amount(line["total"]),
                cartDiscount: amount(line["cart_discount"]), promotionDiscount: promotionDiscount)
        }
    }
}

@Suite("Pricing properties over random shops and carts")
struct PricingPropertyTests {
    @Test(
        "the receipt's amounts add up: total = subtotal − discount, 0 ≤ total ≤ subtotal, lines sum to the total, the allocation to the cart discount"
    )
    func amountsAddUp() async {
        await propertyCheck(count: 3_000, input: ShopGen.shop) { shop in
            let receipt = try shop.price(shop.cartJSON())
            let n = try ReceiptNumbers(ReceiptEncoder.render(receipt))
            #expect(n.total == n.subtotal - n.discount)
            #expect(n.discount == n.itemDiscount + n.cartDiscount)
            #expect(n.total >= 0 && n.total <= n.subtotal)
            #expect(n.lines.reduce(0) { $0 + $1.total } == n.total)
            #expect(n.lines.reduce(0) { $0 + $1.subtotal } == n.subtotal)
            #expect(n.lines.reduce(0) { $0 + $1.cartDiscount } == n.cartDiscount)
            #expect(n.lines.reduce(0) { $0 + $1.promotionDiscount } == n.itemDiscount)
            for line in n.lines {
                #expect(line.total == line.subtotal - line.discount)
                #expect(line.discount == line.promotionDiscount + line.cartDiscount)
                #expect(line.total >= 0 && line.total <= line.subtotal)
            }
        }
    }

    @Test("the receipt does not depend on the order of scans")
    func orderOfScans() async {
        await propertyCheck(count: 2_000, input: ShopGen.shop, Gen.int(in: 0...Int.max)) { shop, seed in
            var random = SplitMix64(seed: UInt64(seed))
            let shuffled = shop.items.indices.shuffled(using: &random)
            let a = try shop.price(shop.cartJSON())
            let b = try shop.price(shop.cartJSON(order: shuffled))
            #expect(
                a.total == b.total && a.subtotal == b.subtotal && a.itemDiscount == b.itemDiscount
                    && a.cartPromotion == b.cartPromotion)
            #expect(a.warnings == b.warnings)
            // Same lines, whatever their order; shares of the cart discount may move between equal remainders only.
            let key = { (line: Receipt.Line) in
                "\(line.code) \(line.quantity) \(line.subtotal) \(line.itemDiscount) \(String(describing: line.promotion?.id))"
            }
            #expect(a.lines.map(key).sorted() == b.lines.map(key).sorted())
        }
    }

    @Test("an inactive, disabled or unpresented-coupon promotion changes nothing")
    func inertPromotions() async {
        await propertyCheck(count: 2_000, input: ShopGen.shop, ShopGen.spec, Gen.int(in: 0...2)) { shop, spec, how in
            let base = try shop.price(shop.cartJSON())
            var promotions = shop.rules.promotions
            var extra = shop.promotion(spec, index: promotions.count)
            switch how {
            case 0:  // ended before the instant
                extra.start = nil
                extra.end = Instant(seconds: Shop.instant.seconds - 1)
            case 1:
                extra.isEnabled = false
            default:  // a coupon the cart does not present
                extra.coupon = "NEVER-PRESENTED"
            }
            promotions.insert(extra, at: 0)  // first: it would win every tie if it applied
            let withExtra = try shop.price(
                shop.cartJSON(), rules: RuleSet(promotions: promotions, catalog: shop.catalog))
            #expect(withExtra == base)
        }
    }

    @Test("a cart priced as one file and as a batch line gives the same receipt")
    func fileAndBatch() async {
        await propertyCheck(count: 1_000, input: ShopGen.shop.array(of: 1...5)) { shops in
            // Several carts of the first shop's rules, one per line.
            let shop = shops[0]
            let carts = shops.map {
                Shop(prices: shop.prices, promotions: shop.promotions, items: $0.items, coupons: $0.coupons).cartJSON()
            }
            let sink = Collector()
            let failures = BatchPricer(
                rules: shop.rules, instant: Shop.instant, now: Shop.instant, format: .json, workers: 2
            )
            .run(Array((carts.joined(separator: "\n") + "\n").utf8), name: "b.ndjson", to: sink)
            #expect(failures == 0)
            let lines = String(decoding: sink.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            let expected = try carts.map { ReceiptEncoder.render(try shop.price($0)) }
            #expect(lines == expected)
        }
    }
}

final class Collector: ByteSink {
    var bytes: [UInt8] = []
    func write(_ chunk: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: chunk) }
}
