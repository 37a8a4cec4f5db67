import BatchPricing
import InputFiles
import Pricing
import Promotions
import Receipts
import Testing
import Workloads

@Suite("The fast receipt encoder")
struct ReceiptEncoderTests {
    @Test("writes exactly what the reference writer writes, on a generated batch with promotions of every kind")
    func sameBytes() throws {
        let workload = Workload(.init(products: 60, promotions: 400, lines: 0, batchCarts: 3_000, seed: 9))
        let catalog = try CatalogFile.decode(workload.catalogJSON(), name: "Products.json")
        let file = PromotionFile.load(
            bytes: workload.promotionsPlist(), name: "Promotions.plist", checks: PromotionChecks(catalog: catalog))
        #expect(file.diagnostics == [])
        let rules = RuleSet(promotions: file.promotions, catalog: catalog)
        let at = try Instant(rfc3339: "2026-06-01T12:00:00Z")
        var pricer = CartPricer(rules: rules, instant: at, now: at)
        var encoder = ReceiptEncoder()
        var withPromotions = 0
        let batch = workload.batchNDJSON()
        for (_, range) in BatchLines(batch) {
            let receipt = try batch.withUnsafeBufferPointer {
                pricer.price(UnsafeBufferPointer(rebasing: $0[range]), name: "b")
            }.get()
            var bytes: [UInt8] = []
            encoder.encode(receipt, into: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == ReferenceReceiptJSON.render(receipt))
            #expect(
                String(decoding: encoder.encodeIndented(receipt), as: UTF8.self)
                    == ReferenceReceiptJSON.render(receipt, pretty: true))
            if receipt.discount > 0 { withPromotions += 1 }
        }
        #expect(withPromotions > 500)
    }

    @Test("escapes names as the reference writer does, and formats every currency's amounts")
    func escapingAndCurrencies() throws {
        for (code, price) in [("EUR", Int64(5)), ("JPY", 0), ("KWD", 1_234_567), ("EUR", Int64.max / 4)] {
            let catalog = try Catalog(
                currency: Currency(code: code)!,
                products: [
                    Product(code: "Q\"\\", name: "Tea\n\t\u{1}\u{7F}\u{2028}é☕ \"x\"", price: price),
                    Product(code: "B", name: "plain", price: 100)
                ])
            let promotion = Promotion(
                id: "id \"1\"", name: "50% \\ off\u{2029}", rule: .percent(minimumQuantity: 1, hundredths: 5000),
                codes: ["Q\"\\"])
            let rules = RuleSet(
                promotions: [promotion, Promotion(id: "c", name: "c", rule: .cartAmount(minimum: 0, amountOff: 1))],
                catalog: catalog)
            var merger = CartLineMerger(productCount: 2)
            _ = merger.add(0, quantity: 3)
            _ = merger.add(1, quantity: 1)
            let cart = Cart(lines: merger.takeLines(), coupons: ["nope\"\n"])
            let receipt = try PricingEngine(rules: rules).price(cart, now: Instant(seconds: 86_399))
            var encoder = ReceiptEncoder()
            var bytes: [UInt8] = []
            encoder.encode(receipt, into: &bytes)
            encoder.encode(receipt, into: &bytes)  // cached fragments reused
            let expected = ReferenceReceiptJSON.render(receipt)
            #expect(String(decoding: bytes, as: UTF8.self) == expected + expected)
            #expect(
                String(decoding: encoder.encodeIndented(receipt), as: UTF8.self)
                    == ReferenceReceiptJSON.render(receipt, pretty: true))
        }
    }
}
