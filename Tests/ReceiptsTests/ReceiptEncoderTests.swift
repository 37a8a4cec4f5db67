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

    @Test("copies fragments of every length from 34 to 342 bytes as the reference writes them")
    func fragmentLengths() throws {
        // Product i's prefix `{"code":"Pi","name":"…","quantity":` is 34–36 bytes + its name's i
        // letters (every ninth of two bytes), 19 more with its `"tax_rate"`, and promotion i's
        // fragment 49–51 + its name's: every length around the fixed copies' edges (96 and 128
        // bytes) and past them, each fragment written once and then copied from the cache, among
        // fragments written later.
        let letters = Array("abcdefghé")
        let names = (0..<260).map { (length: Int) -> String in
            String((0..<length).map { (position: Int) -> Character in letters[position % letters.count] })
        }
        let products = names.enumerated().map { index, name in
            Product(code: "P\(index)", name: name, price: Int64(100 + index))
        }
        let promotions = names.enumerated().map { index, name in
            Promotion(
                id: "p\(index)", name: name, rule: .percent(minimumQuantity: 1, hundredths: 1000),
                codes: ["P\(index)"])
        }
        let rules = RuleSet(promotions: promotions, catalog: try Catalog(currency: .euro, products: products))
        let engine = PricingEngine(rules: rules)
        var encoder = ReceiptEncoder()
        var state: UInt64 = 64
        for round in 0..<(2 * products.count + 100) {
            let taxed = (round / products.count) % 2 == 1
            var merger = CartLineMerger(productCount: products.count)
            _ = merger.add(round % products.count, quantity: 1)  // every product, untaxed then taxed
            for _ in 0..<(round % 5) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                _ = merger.add(Int(state >> 33) % products.count, quantity: 1)
            }
            var receipt = try engine.price(Cart(lines: merger.takeLines()), now: Instant(seconds: 0))
            if taxed {
                for index in receipt.lines.indices { receipt.lines[index].taxRate = 2100 }
                receipt.taxes = ReceiptTaxes(
                    pricesIncludeTax: true,
                    rates: [TaxAmount(rate: 2100, total: receipt.linesTotal, pricesIncludeTax: true)])
            }
            var bytes: [UInt8] = []
            encoder.encode(receipt, into: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == ReferenceReceiptJSON.render(receipt))
        }
    }

    @Test("formats amounts as the reference does at every length, both signs, and 0, 2 and 3 decimals")
    func amounts() throws {
        var values: [Int64] = [0, Int64.max, Int64.min, Int64.min + 1]
        var power: Int64 = 1
        for _ in 0...18 {
            values += [power - 1, power, power + 1, 99_999_999, 100_000_000, -power, -(power - 1), -(power + 1)]
            if power <= Int64.max / 10 { power *= 10 }
        }
        for code in ["EUR", "JPY", "KWD"] {
            var encoder = ReceiptEncoder()
            for value in values {
                let line = Receipt.Line(
                    product: 0, code: "A", name: "a", quantity: 1, unitPrice: value, subtotal: value, taxRate: 2100)
                let receipt = Receipt(
                    currency: Currency(code: code)!, at: Instant(seconds: 0), lines: [line], cartPromotion: nil,
                    subtotal: value, itemDiscount: 0, cartDiscount: 0, warnings: [],
                    taxes: ReceiptTaxes(pricesIncludeTax: true, rates: [TaxAmount(rate: 2100, base: value, tax: value)])
                )
                var bytes: [UInt8] = []
                encoder.encode(receipt, into: &bytes)
                #expect(String(decoding: bytes, as: UTF8.self) == ReferenceReceiptJSON.render(receipt))
            }
        }
        // By hand: the two-decimal writer's edges.
        let cases: [(Int64, String)] = [
            (0, "0.00"), (5, "0.05"), (-5, "-0.05"), (100, "1.00"), (99_999_999, "999999.99"),
            (100_000_000, "1000000.00"), (-100_000_000, "-1000000.00"), (1_234_567, "12345.67")
        ]
        for (value, text) in cases {
            let line = Receipt.Line(product: 0, code: "A", name: "a", quantity: 1, unitPrice: value, subtotal: 0)
            let receipt = Receipt(
                currency: .euro, at: Instant(seconds: 0), lines: [line], cartPromotion: nil, subtotal: 0,
                itemDiscount: 0, cartDiscount: 0, warnings: [])
            #expect(ReceiptEncoder.render(receipt).contains(#""unit_price":"\#(text)","#))
        }
    }

    @Test("a rate outside 0…100 %, given through the API, is written as the reference writes it")
    func ratesOutsideCatalogRange() throws {
        var encoder = ReceiptEncoder()
        for rate: Int64 in [100_000, -9_999, 123_456_789_012, -1] {
            let line = Receipt.Line(
                product: 0, code: "A", name: "a", quantity: 1, unitPrice: 100, subtotal: 100, taxRate: rate)
            let receipt = Receipt(
                currency: .euro, at: Instant(seconds: 0), lines: [line], cartPromotion: nil, subtotal: 100,
                itemDiscount: 0, cartDiscount: 0, warnings: [],
                taxes: ReceiptTaxes(pricesIncludeTax: true, rates: [TaxAmount(rate: rate, base: 100, tax: 1)]))
            var bytes: [UInt8] = []
            encoder.encode(receipt, into: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == ReferenceReceiptJSON.render(receipt))
        }
    }

    @Test("writes every rate's line and tax entry as the reference does, more rates than the table's slots")
    func manyRates() throws {
        // 0 %, 100 %, the fractional rates and ~270 others: rates share slots and are written again.
        var rates: [Int64] = [0, 10_000, 5, 550, 725, 2100, 1000]
        rates += Array(stride(from: 1, through: 9_999, by: 37)).map(Int64.init)
        var encoder = ReceiptEncoder()
        for round in 0..<400 {
            // Spread over the rates, the same rate twice in some carts.
            let picked = (0..<(1 + round % 7)).map { rates[(round * 13 + $0 * ($0 % 3 == 2 ? 0 : 101)) % rates.count] }
            let lines = picked.enumerated().map { index, rate in
                Receipt.Line(
                    product: index, code: "P\(index)", name: "p", quantity: 1, unitPrice: 1_999, subtotal: 1_999,
                    taxRate: rate)
            }
            let entries = Set(picked).sorted().map { rate in
                TaxAmount(rate: rate, total: 1_999 * Int64(picked.filter { $0 == rate }.count), pricesIncludeTax: true)
            }
            let receipt = Receipt(
                currency: .euro, at: Instant(seconds: 0), lines: lines, cartPromotion: nil,
                subtotal: 1_999 * Int64(lines.count), itemDiscount: 0, cartDiscount: 0, warnings: [],
                taxes: ReceiptTaxes(pricesIncludeTax: true, rates: entries))
            var bytes: [UInt8] = []
            encoder.encode(receipt, into: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == ReferenceReceiptJSON.render(receipt))
        }
        // By hand: the rates' three lengths.
        let line = { (rate: Int64) in
            Receipt.Line(product: 0, code: "A", name: "a", quantity: 1, unitPrice: 0, subtotal: 0, taxRate: rate)
        }
        let receipt = Receipt(
            currency: .euro, at: Instant(seconds: 0), lines: [line(550), line(2100), line(10_000)], cartPromotion: nil,
            subtotal: 0, itemDiscount: 0, cartDiscount: 0, warnings: [],
            taxes: ReceiptTaxes(
                pricesIncludeTax: true,
                rates: [
                    TaxAmount(rate: 550, base: 0, tax: 0), TaxAmount(rate: 2100, base: 0, tax: 0),
                    TaxAmount(rate: 10_000, base: 0, tax: 0)
                ]))
        let text = ReceiptEncoder.render(receipt)
        for rate in ["5.50", "21.00", "100.00"] {
            #expect(text.contains(#""name":"a","tax_rate":"\#(rate)","quantity":1,"#))
            #expect(text.contains(#"{"rate":"\#(rate)","base":"0.00","tax":"0.00"}"#))
        }
        #expect(text.contains(#""tax":"0.00","taxes":[{"rate":"5.50","#))
    }
}
