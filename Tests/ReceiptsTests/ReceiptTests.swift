import BatchPricing
import InputFiles
import Pricing
import Receipts
import Testing

/// VOUCHER ×3, TSHIRT ×3, MUG with the shipped promotions and a 10 % cart promotion from 50.00:
/// items 82.50 − 8.00 = 74.50; cart 7.45, allocated 1.00, 5.70 and 0.75 (exact shares); total 67.05.
func goldenReceipt() throws -> Receipt {
    let promotions = [
        Promotion(id: "VOUCHER 2x1", name: "VOUCHER 2x1", rule: .combo(groupSize: 2, paid: 1), codes: ["VOUCHER"]),
        Promotion(id: "TSHIRT 3+", name: "TSHIRT 3+", rule: .bulk(threshold: 3, unitPrice: 1900), codes: ["TSHIRT"]),
        Promotion(id: "big", name: "Big basket", rule: .cartPercent(minimum: 5000, hundredths: 1000))
    ]
    let cart = try readCart(
        #"{"coupons": ["WINTER"], "items": ["VOUCHER", "TSHIRT", "VOUCHER", "VOUCHER", "MUG", "TSHIRT", "TSHIRT"]}"#)
    let at = try Instant(rfc3339: "2026-11-21T10:00:00Z")
    return try PricingEngine(rules: RuleSet(promotions: promotions, catalog: shippedCatalog)).price(
        cart, at: at, now: at)
}

@Suite("Receipts (docs/receipts.md)")
struct ReceiptTests {
    @Test("JSON, one line, keys in the documented order")
    func compactJSON() throws {
        #expect(
            try ReceiptEncoder.render(goldenReceipt()) == #"""
                {"currency":"EUR","at":"2026-11-21T10:00:00Z","lines":[{"code":"VOUCHER","name":"Cabify Voucher","quantity":3,"unit_price":"5.00","subtotal":"15.00","discount":"6.00","total":"9.00","promotion":{"id":"VOUCHER 2x1","name":"VOUCHER 2x1","type":"combo","discount":"5.00"},"cart_discount":"1.00","promotions":[{"id":"VOUCHER 2x1","name":"VOUCHER 2x1","type":"combo","discount":"5.00","units":3}]},{"code":"TSHIRT","name":"Cabify T-Shirt","quantity":3,"unit_price":"20.00","subtotal":"60.00","discount":"8.70","total":"51.30","promotion":{"id":"TSHIRT 3+","name":"TSHIRT 3+","type":"bulk","discount":"3.00"},"cart_discount":"5.70","promotions":[{"id":"TSHIRT 3+","name":"TSHIRT 3+","type":"bulk","discount":"3.00","units":3}]},{"code":"MUG","name":"Cabify Coffee Mug","quantity":1,"unit_price":"7.50","subtotal":"7.50","discount":"0.75","total":"6.75","promotion":null,"cart_discount":"0.75","promotions":[]}],"cart_promotion":{"id":"big","name":"Big basket","type":"cart","discount":"7.45"},"subtotal":"82.50","item_discount":"8.00","cart_discount":"7.45","discount":"15.45","total":"67.05","warnings":["coupon \"WINTER\" matches no active promotion"]}
                """#)
    }

    @Test("JSON, indented")
    func prettyJSON() throws {
        var receipt = try goldenReceipt()
        receipt.lines.removeLast(2)
        receipt.warnings = []
        #expect(
            ReceiptEncoder.render(receipt, indented: true) == #"""
                {
                  "currency": "EUR",
                  "at": "2026-11-21T10:00:00Z",
                  "lines": [
                    {
                      "code": "VOUCHER",
                      "name": "Cabify Voucher",
                      "quantity": 3,
                      "unit_price": "5.00",
                      "subtotal": "15.00",
                      "discount": "6.00",
                      "total": "9.00",
                      "promotion": {
                        "id": "VOUCHER 2x1",
                        "name": "VOUCHER 2x1",
                        "type": "combo",
                        "discount": "5.00"
                      },
                      "cart_discount": "1.00",
                      "promotions": [
                        {
                          "id": "VOUCHER 2x1",
                          "name": "VOUCHER 2x1",
                          "type": "combo",
                          "discount": "5.00",
                          "units": 3
                        }
                      ]
                    }
                  ],
                  "cart_promotion": {
                    "id": "big",
                    "name": "Big basket",
                    "type": "cart",
                    "discount": "7.45"
                  },
                  "subtotal": "82.50",
                  "item_discount": "8.00",
                  "cart_discount": "7.45",
                  "discount": "15.45",
                  "total": "67.05",
                  "warnings": []
                }
                """#)
    }

    @Test("JSON strings are escaped")
    func escaping() throws {
        let catalog = try Catalog(
            currency: Currency(code: "JPY")!, products: [Product(code: "T\"1", name: "Tea \\ \n\t\u{1}☕", price: 1200)])
        var reader = CartReader(catalog: catalog)
        let cart = try reader.read(Array(#"["T\"1"]"#.utf8), name: "c")
        let receipt = try PricingEngine(rules: RuleSet(promotions: [], catalog: catalog)).price(
            cart, now: Instant(seconds: 0))
        #expect(
            ReceiptEncoder.render(receipt).contains(
                #""code":"T\"1","name":"Tea \\ \n\t\u0001☕","quantity":1,"unit_price":"1200""#))
        #expect(ReceiptEncoder.renderError(line: 3, message: "a \"b\"") == #"{"line":3,"error":"a \"b\""}"#)
        #expect(
            ReceiptEncoder.renderError(line: 3, id: .string("A\n"), message: "x")
                == #"{"id":"A\n","line":3,"error":"x"}"#)
        #expect(
            ReceiptEncoder.renderError(line: 4, id: .integer("-0"), message: "x") == #"{"id":-0,"line":4,"error":"x"}"#)
    }

    @Test("text, a till-style table")
    func text() throws {
        #expect(
            try ReceiptText.render(goldenReceipt()) == """
                Receipt 2026-11-21T10:00:00Z (EUR)
                ========================================================
                VOUCHER  Cabify Voucher            3 ×  5.00 €   15.00 €
                           VOUCHER 2x1 (combo)                   -5.00 €
                TSHIRT   Cabify T-Shirt            3 × 20.00 €   60.00 €
                           TSHIRT 3+ (bulk price)                -3.00 €
                MUG      Cabify Coffee Mug         1 ×  7.50 €    7.50 €
                --------------------------------------------------------
                Subtotal                                         82.50 €
                Item discounts                                   -8.00 €
                Big basket (cart)                                -7.45 €
                Total                                            67.05 €
                You saved 15.45 €.
                warning: coupon "WINTER" matches no active promotion

                """)
    }

    @Test("text in a terminal narrower than the receipt: names shorter than six characters are not widened")
    func shortNamesInANarrowTerminal() throws {
        // 1,000,000,000 × A at 0.01 € = 10,000,000.00 €: code 1 + 2 + name 1 + 2 + "1000000000 ×"
        // 12 + 1 + "0.01 €" 6, the labels' column 26, then 2 + the amounts' 13: 41 columns, and
        // nothing in it can give way to fit 40 (the name is shorter than six already).
        let catalog = try Catalog(products: [Product(code: "A", name: "A", price: 1)])
        let at = try Instant(rfc3339: "2026-11-21T10:00:00Z")
        let receipt = try PricingEngine(rules: RuleSet(promotions: [], catalog: catalog)).price(
            Cart(lines: [Cart.Line(product: 0, quantity: 1_000_000_000)]), at: at, now: at)
        let expected = """
            Receipt 2026-11-21T10:00:00Z (EUR)
            =========================================
            A  A  1000000000 × 0.01 €   10000000.00 €
            -----------------------------------------
            Subtotal                    10000000.00 €
            Total                       10000000.00 €

            """
        #expect(ReceiptText.render(receipt) == expected)
        #expect(ReceiptText.render(receipt, style: TextStyle(width: 40)) == expected)
    }

    @Test("text, an empty cart in yen")
    func emptyText() throws {
        let catalog = try Catalog(currency: Currency(code: "JPY")!, products: [])
        let receipt = try PricingEngine(rules: RuleSet(promotions: [], catalog: catalog)).price(
            Cart(), now: Instant(seconds: 0))
        #expect(
            ReceiptText.render(receipt) == """
                Receipt 1970-01-01T00:00:00Z (JPY)
                ===================
                (the cart is empty)
                -------------------
                Subtotal         ¥0
                Total            ¥0

                """)
    }

    @Test("money with symbols")
    func moneyStyle() {
        #expect(MoneyStyle(currency: .euro).format(-750) == "-7.50 €")
        #expect(MoneyStyle(currency: Currency(code: "USD")!).format(750) == "$7.50")
        #expect(MoneyStyle(currency: Currency(code: "KWD")!).format(3375) == "3.375 KWD")
    }
}

/// The shipped store's catalog.
let shippedCatalog = try! CatalogFile.decode(Array(ShippedStore.productsJSON.utf8), name: "Products.json")

func readCart(_ json: String) throws(InputError) -> Cart {
    var reader = CartReader(catalog: shippedCatalog)
    return try reader.read(Array(json.utf8), name: "cart.json")
}
