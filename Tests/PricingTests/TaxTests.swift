import Pricing
import ReferenceModels
import SeededRandom
import Testing

/// v3-examples (e)'s and (f)'s catalog: TSHIRT 20.00, HOODIE 35.00, MUG 7.50, CAP 12.00.
func exampleCatalog(rootRate: Int64?, mugRate: Int64? = nil, pricesIncludeTax: Bool = true) throws -> Catalog {
    try Catalog(
        products: [
            Product(
                code: "TSHIRT", name: "T-Shirt", price: 2000, category: ["Clothing", "Shirts"], brand: "Cabify",
                tags: ["sale"]),
            Product(code: "HOODIE", name: "Hoodie", price: 3500, category: ["Clothing", "Sweaters"]),
            Product(code: "MUG", name: "Mug", price: 750, category: ["Home", "Kitchen"], taxRate: mugRate),
            Product(code: "CAP", name: "Cap", price: 1200, category: ["Clothing", "Hats"])
        ], pricesIncludeTax: pricesIncludeTax, taxRate: rootRate)
}

@Suite("Taxes (docs/taxes.md)")
struct TaxTests {
    @Test("v3-examples (e) at the receipt level: (d)'s lines taxed at 10 % and 21 %, prices including tax")
    func exampleE() throws {
        // (d)'s receipt: the 15 % cart promotion on the non-sale lines, 8.18 shared HOODIE 5.25,
        // MUG 1.13, CAP 1.80, TSHIRT nothing (its figures are worked in v3-examples.md).
        let catalog = try exampleCatalog(rootRate: 2100, mugRate: 1000)
        func line(_ code: String, _ quantity: Int64, share: Int64) -> Receipt.Line {
            let id = catalog.productID(for: code)!
            let price = catalog[id].price
            return Receipt.Line(
                product: id, code: code, name: catalog[id].name, quantity: quantity, unitPrice: price,
                subtotal: quantity * price, cartDiscount: share)
        }
        let receipt = Receipt(
            currency: .euro, at: noon,
            lines: [
                line("TSHIRT", 2, share: 0), line("HOODIE", 1, share: 525), line("MUG", 1, share: 113),
                line("CAP", 1, share: 180)
            ],
            cartPromotion: AppliedPromotion(id: "15% non-sale", name: "15% non-sale", type: .cart, discount: 818),
            subtotal: 9450, itemDiscount: 0, cartDiscount: 818, warnings: [])
        let taxed = try catalog.taxed(receipt)
        #expect(taxed.lines.map(\.taxRate) == [2100, 2100, 1000, 2100])
        // 10 %: G = 6.37, tax = round(637 × 1000 / 11000) = round(57.91) = 0.58, base 5.79.
        // 21 %: G = 40.00 + 29.75 + 10.20 = 79.95, tax = round(7995 × 2100 / 12100) = round(1387.56) = 13.88.
        #expect(
            taxed.taxes?.rates == [
                TaxAmount(rate: 1000, base: 579, tax: 58), TaxAmount(rate: 2100, base: 6607, tax: 1388)
            ])
        #expect(taxed.tax == 1446)
        #expect(taxed.total == 8632)  // unchanged: prices include the tax
        #expect(taxed.linesTotal == 8632)
        // Everything else is the receipt as priced.
        var untaxed = taxed
        untaxed.taxes = nil
        for index in untaxed.lines.indices { untaxed.lines[index].taxRate = nil }
        #expect(untaxed == receipt)
    }

    @Test("(e) end to end without a selector: HOODIE, MUG, CAP and 15 % off the cart from 50.00")
    func exampleEWithoutSelector() throws {
        let catalog = try exampleCatalog(rootRate: 2100, mugRate: 1000)
        let spend = Promotion(
            id: "15% from 50", name: "15% from 50", rule: .cartPercent(minimum: 5000, hundredths: 1500), codes: [])
        let receipt = try price(cart(["HOODIE", "MUG", "CAP"], in: catalog), [spend], catalog: catalog)
        // S = 54.50, D = round(8.175) = 8.18, shared as in (d): HOODIE 5.25, MUG 1.13, CAP 1.80.
        #expect(receipt.lines.map(\.cartDiscount) == [525, 113, 180])
        #expect(receipt.lines.map(\.total) == [2975, 637, 1020])
        // 10 %: 6.37 → 0.58 and 5.79 as in (e). 21 %: G = 29.75 + 10.20 = 39.95,
        // tax = round(3995 × 2100 / 12100) = round(693.35) = 6.93, base 33.02.
        #expect(
            receipt.taxes?.rates == [
                TaxAmount(rate: 1000, base: 579, tax: 58), TaxAmount(rate: 2100, base: 3302, tax: 693)
            ])
        #expect(receipt.tax == 751)
        #expect(receipt.total == 4632)
    }

    @Test("v3-examples (f): net prices at 7.25 %, the half cent rounded away from zero, the tax added to the total")
    func exampleF() throws {
        let catalog = try exampleCatalog(rootRate: 725, pricesIncludeTax: false)
        // Promotion (a) selects HOODIE and CAP: the same as codes [HOODIE, CAP].
        let clothing = percent("20% Clothing", 2000, codes: ["HOODIE", "CAP"])
        let receipt = try price(cart(["HOODIE": 1, "MUG": 4], in: catalog), [clothing], catalog: catalog)
        #expect(receipt.lines.map(\.total) == [2800, 3000])
        #expect(receipt.lines.map(\.taxRate) == [725, 725])
        #expect(receipt.subtotal == 6500)
        #expect(receipt.discount == 700)
        // round(5800 × 725 / 10000) = round(420.5) = 421.
        #expect(receipt.taxes?.rates == [TaxAmount(rate: 725, base: 5800, tax: 421)])
        #expect(receipt.total == 6221)
        #expect(receipt.linesTotal == 5800)
    }

    @Test("an empty cart: no entries, no tax; a rate whose lines total 0 keeps its entry; 0 % and 100 %")
    func edges() throws {
        let catalog = try Catalog(
            products: [
                Product(code: "FREE", name: "Free", price: 0, taxRate: 400),
                Product(code: "BOOK", name: "Book", price: 1000, taxRate: 0),
                Product(code: "ALL", name: "All", price: 1000, taxRate: 10_000),
                Product(code: "ODD", name: "Odd", price: 1, taxRate: 5000)
            ], taxRate: 2100)
        let empty = try price(Cart(lines: []), [], catalog: catalog)
        #expect(empty.taxes == ReceiptTaxes(pricesIncludeTax: true, rates: []))
        #expect(empty.tax == 0 && empty.total == 0)
        let receipt = try price(cart(["FREE", "BOOK", "ALL", "ODD"], in: catalog), [], catalog: catalog)
        #expect(
            receipt.taxes?.rates == [
                TaxAmount(rate: 0, base: 1000, tax: 0), TaxAmount(rate: 400, base: 0, tax: 0),
                // 1 × 5000 / 15000 = 0.33 → 0.
                TaxAmount(rate: 5000, base: 1, tax: 0),
                // 1000 × 10000 / 20000 = 500: half of a gross price at 100 %.
                TaxAmount(rate: 10_000, base: 500, tax: 500)
            ])
        let net = try Catalog(products: catalog.products, pricesIncludeTax: false)
        let netReceipt = try price(cart(["ODD", "ALL"], in: net), [], catalog: net)
        // ODD: 1 × 5000 / 10000 = 0.5 → 1 (half away from zero); ALL: 1000 × 100 % = 1000.
        #expect(
            netReceipt.taxes?.rates == [
                TaxAmount(rate: 5000, base: 1, tax: 1), TaxAmount(rate: 10_000, base: 1000, tax: 1000)
            ])
        #expect(netReceipt.total == 1001 + 1001)
    }

    @Test("net prices: a total with tax beyond 64 bits is an error, never a trap")
    func overflow() throws {
        let catalog = try Catalog(
            products: [Product(code: "GOLD", name: "Gold", price: Int64.max / 2 + 1)], pricesIncludeTax: false,
            taxRate: 10_000)
        #expect(throws: PricingError.totalOverflow(currency: .euro)) {
            try price(cart(["GOLD"], in: catalog), [], catalog: catalog)
        }
        // With tax included the total is the lines' total: no overflow.
        let gross = try Catalog(products: catalog.products, taxRate: 10_000)
        #expect(try price(cart(["GOLD"], in: gross), [], catalog: gross).total == Int64.max / 2 + 1)
    }

    @Test("catalog rates: the root's fills in, a missing one is a problem naming the product, 0 % counts")
    func catalogRates() throws {
        let plain = try exampleCatalog(rootRate: nil)
        #expect(!plain.isTaxed && plain.products.allSatisfy { $0.taxRate == nil } && plain.taxRates.isEmpty)
        let zero = try exampleCatalog(rootRate: 0)
        #expect(zero.isTaxed && zero.products.allSatisfy { $0.taxRate == 0 })
        let mixed = try exampleCatalog(rootRate: 2100, mugRate: 1000)
        #expect(mixed.products.map(\.taxRate) == [2100, 2100, 1000, 2100])
        #expect(mixed.taxRates == [1000, 2100])
        #expect(throws: Catalog.Problem.missingTaxRate("TSHIRT", index: 0)) {
            try exampleCatalog(rootRate: nil, mugRate: 1000)
        }
        #expect(throws: Catalog.Problem.taxRateOutOfRange(10_001, code: nil, index: nil)) {
            try exampleCatalog(rootRate: 10_001)
        }
        #expect(throws: Catalog.Problem.taxRateOutOfRange(-1, code: "MUG", index: 2)) {
            try exampleCatalog(rootRate: 2100, mugRate: -1)
        }
        // An untaxed catalog's receipts have no taxes and no line rates.
        let receipt = try price(cart(["MUG"], in: plain), [], catalog: plain)
        #expect(receipt.taxes == nil && receipt.lines[0].taxRate == nil)
    }

    @Test("the engine against the reference model on thousands of random taxed shops, both bases, both choosers")
    func differential() throws {
        var random = TestRandom(seed: 16_2026)
        var compared = 0
        var refused = 0
        var severalRates = 0
        var sharedCartDiscounts = 0
        var net = 0
        for shopIndex in 0..<2_500 {
            let taxed = RandomTaxedShop(random: &random)
            let shop = taxed.shop
            guard let catalog = taxed.catalog else {
                let index = try #require(taxed.taxes.productWithoutRate)
                #expect(throws: Catalog.Problem.missingTaxRate(shop.catalog[index].code, index: index)) {
                    try Catalog(
                        products: zip(shop.catalog.products, taxed.taxes.productRates).map {
                            var product = $0
                            product.taxRate = $1
                            return product
                        }, pricesIncludeTax: taxed.taxes.pricesIncludeTax, taxRate: taxed.taxes.rootRate)
                }
                refused += 1
                continue
            }
            #expect(taxed.taxes.productWithoutRate == nil)
            let rules = RuleSet(promotions: shop.promotions, catalog: catalog)
            let engine = PricingEngine(rules: rules)
            let model = ReferenceModel(catalog: shop.catalog, promotions: shop.promotions)
            let pricer = ActivePricer(engine: engine, active: ActiveRules(rules: rules, at: shop.instant))
            var storage = ReceiptStorage()
            let prices = shop.catalog.products.map(\.price)
            for cartIndex in 0..<4 {
                let cart = shop.cart(random: &random, large: (shopIndex + cartIndex) % 16 == 0)
                let expected = model.price(cart, at: shop.instant)
                let expectedTaxes = try #require(taxed.taxes.taxes(of: cart, result: expected, prices: prices))
                let receipt = try engine.price(cart, at: shop.instant, now: shop.instant)
                var lines = receipt.referenceResult
                lines.total = receipt.linesTotal
                #expect(lines == expected, "shop \(shopIndex) cart \(cartIndex)")
                let got = ReferenceTaxes.Result(
                    lineRates: receipt.lines.map { $0.taxRate ?? -1 },
                    entries: (receipt.taxes?.rates ?? []).map {
                        ReferenceTaxes.Entry(rate: $0.rate, base: $0.base, tax: $0.tax)
                    }, tax: receipt.tax, total: receipt.total)
                #expect(got == expectedTaxes, "shop \(shopIndex) cart \(cartIndex): \(taxed.taxes) \(cart)")
                #expect(receipt.taxes?.pricesIncludeTax == taxed.taxes.pricesIncludeTax)
                let indexed = try pricer.price(cart, at: shop.instant, now: shop.instant, storage: &storage)
                #expect(indexed == receipt)
                storage.recycle(indexed)
                if expectedTaxes.entries.count > 1 {
                    severalRates += 1
                    if receipt.cartDiscount > 0 { sharedCartDiscounts += 1 }
                }
                if !taxed.taxes.pricesIncludeTax { net += 1 }
                compared += 1
                if got != expectedTaxes || lines != expected { return }
            }
        }
        #expect(compared + refused * 4 == 10_000)
        #expect(refused > 50)
        #expect(severalRates > 2_000)
        #expect(sharedCartDiscounts > 300)
        #expect(net > 3_000)
    }

    @Test(
        "more rates than the tax step keeps by position (64), exactly 64, a few; totals on both sides of its 32-bit division; both bases",
        arguments: [3, 64, 65, 150])
    func manyRates(rateCount: Int) throws {
        var random = TestRandom(seed: UInt64(rateCount))
        // Product i's rate: distinct for the first `rateCount` products (0 %, 100 % and fractional
        // rates among them), then repeated; prices up to 9,999.99 so that some rates' totals pass
        // 42,949.67, beyond which G × rate no longer fits in 32 bits.
        let rates = (0..<rateCount).map { Int64($0 == 1 ? 10_000 : ($0 * 9_973) % 10_000) }
        let products = (0..<200).map { index in
            Product(
                code: "P\(index)", name: "p", price: Int64(random.draw(0...999_999)),
                taxRate: rates[index % rateCount])
        }
        for pricesIncludeTax in [true, false] {
            let catalog = try Catalog(products: products, pricesIncludeTax: pricesIncludeTax)
            #expect(catalog.taxRates == Set(rates).sorted())
            let engine = PricingEngine(rules: RuleSet(promotions: [], catalog: catalog))
            let instant = Instant(seconds: 0)
            let pricer = ActivePricer(engine: engine, active: ActiveRules(rules: engine.rules, at: instant))
            var storage = ReceiptStorage()
            var beyond32Bits = 0
            for _ in 0..<300 {
                var picked = Set<Int>()
                for _ in 0..<random.draw(0...12) { picked.insert(random.draw(0...199)) }
                let lines = picked.sorted().map { Cart.Line(product: $0, quantity: Int64(random.draw(1...9))) }
                let cart = Cart(lines: lines)
                // The naive sums: per distinct rate, ascending, rounded half away from zero once.
                var sums: [Int64: Int64] = [:]
                for line in lines {
                    sums[products[line.product].taxRate!, default: 0] += line.quantity * products[line.product].price
                }
                let expected = sums.keys.sorted().map { rate -> TaxAmount in
                    let g = sums[rate]!
                    if g * rate > Int64(UInt32.max) { beyond32Bits += 1 }
                    let divisor = Int128(pricesIncludeTax ? 10_000 + rate : 10_000)
                    let tax = Int64((2 * Int128(g) * Int128(rate) + divisor) / (2 * divisor))
                    return TaxAmount(rate: rate, base: pricesIncludeTax ? g - tax : g, tax: tax)
                }
                let receipt = try pricer.price(cart, now: instant, storage: &storage)
                #expect(receipt.taxes?.rates == expected)
                #expect(receipt.tax == expected.reduce(0) { $0 + $1.tax })
                let plain = try engine.price(cart, now: instant)
                #expect(receipt == plain)
                storage.recycle(receipt)
            }
            #expect(beyond32Bits > 10)
        }
    }
}
