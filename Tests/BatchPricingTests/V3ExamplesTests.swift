import InputFiles
import Pricing
import Promotions
import Receipts
import Testing

/// The worked examples (a)–(d) of docs/selectors.md (the department store's catalog, a promotion
/// each), read as users write them: the catalog through both of its readers, the promotions through
/// the plist decoder, the carts through the cart reader; each receipt's figures as worked by hand there.
@Suite("v3 worked examples: selectors and cart promotions on part of the cart, from the files")
struct V3ExamplesTests {
    static let catalogJSON = """
        {"currency": "EUR", "products": [
          {"code": "TSHIRT", "name": "T-Shirt", "price": 20,  "category": "Clothing > Shirts", "brand": "Cabify", "tags": ["sale"]},
          {"code": "HOODIE", "name": "Hoodie",  "price": 35,  "category": "Clothing > Sweaters"},
          {"code": "MUG",    "name": "Mug",     "price": 7.5, "category": "Home > Kitchen"},
          {"code": "CAP",    "name": "Cap",     "price": 12,  "category": "Clothing > Hats"}]}
        """

    static let percentClothing = """
        <dict>
          <key>name</key><string>20% Clothing</string>
          <key>type</key><string>percent</string>
          <key>percent</key><integer>20</integer>
          <key>products</key>
          <dict>
            <key>categories</key><array><string>Clothing</string></array>
            <key>exclude_tags</key><array><string>sale</string></array>
          </dict>
        </dict>
        """

    static let twoFor40 = """
        <dict>
          <key>name</key><string>2 for 40</string>
          <key>type</key><string>bundle</string>
          <key>quantity</key><integer>2</integer>
          <key>price</key><real>40.00</real>
          <key>products</key>
          <array>
            <dict><key>categories</key><array><string>Clothing &gt; Sweaters</string></array></dict>
            <dict><key>categories</key><array><string>Clothing>Hats</string></array></dict>
          </array>
        </dict>
        """

    static let buy2Get1 = """
        <dict>
          <key>name</key><string>Buy 2 get 1</string>
          <key>type</key><string>bxgy</string>
          <key>quantity</key><integer>2</integer>
          <key>products</key>
          <dict><key>categories</key><array><string>Clothing</string></array></dict>
          <key>targets</key>
          <dict><key>categories</key><array><string>Clothing &gt; Hats</string><string>Home</string></array></dict>
        </dict>
        """

    static func nonSale(minimum: String) -> String {
        """
        <dict>
          <key>name</key><string>15% non-sale</string>
          <key>type</key><string>cart</string>
          <key>percent</key><integer>15</integer>
          <key>minimum</key><real>\(minimum)</real>
          <key>products</key>
          <dict><key>exclude_tags</key><array><string>sale</string></array></dict>
        </dict>
        """
    }

    let now = try! Instant(rfc3339: "2026-11-21T12:00:00Z")

    func catalog() throws -> Catalog { try CatalogFile.decode(Array(Self.catalogJSON.utf8), name: "Products.json") }

    /// The promotions of `body` (promotion dicts) checked against the catalog: no diagnostic at all.
    func rules(_ body: String) throws -> RuleSet {
        let catalog = try catalog()
        let xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n\(body)\n</array>\n</plist>\n"
        let file = PromotionFile.load(
            bytes: Array(xml.utf8), name: "Promotions.plist",
            checks: PromotionChecks(catalog: catalog, checksProducts: true))
        #expect(file.diagnostics.map(\.message) == [])
        return RuleSet(promotions: file.promotions, catalog: catalog)
    }

    func price(_ cartJSON: String, _ rules: RuleSet) throws -> Receipt {
        var reader = CartReader(catalog: rules.catalog)
        let cart = try reader.read(Array(cartJSON.utf8), name: "cart.json")
        return try PricingEngine(rules: rules).price(cart, now: now)
    }

    /// A line as `CODE×q subtotal/discount/total [promotion discount units, …] cart_discount`.
    func lines(_ receipt: Receipt) -> [String] {
        receipt.lines.map { line in
            "\(line.code)×\(line.quantity) \(line.subtotal)/\(line.discount)/\(line.total) "
                + line.promotions.map { "\($0.id) \($0.discount) \($0.units)" }.description
                + " \(line.promotion?.id ?? "-") \(line.cartDiscount)"
        }
    }

    @Test("both catalog readers read the attributes: paths trimmed name by name, no brand or tags where none")
    func catalogAttributes() throws {
        let bytes = Array(Self.catalogJSON.utf8)
        let scanned = try #require(CatalogFile.scan(bytes))
        let tree = try CatalogFile.decodeTree(bytes, name: "Products.json")
        #expect(scanned.products == tree.products)
        #expect(
            tree.products.map(\.category) == [
                ["Clothing", "Shirts"], ["Clothing", "Sweaters"], ["Home", "Kitchen"], ["Clothing", "Hats"]
            ])
        #expect(tree.products.map(\.brand) == ["Cabify", nil, nil, nil])
        #expect(tree.products.map(\.tags) == [["sale"], [], [], []])
        #expect(tree.products.map(\.price) == [2000, 3500, 750, 1200])
    }

    @Test("both catalog readers keep attribute text as its bytes, never normalized (selectors compare bytes)")
    func attributeBytes() throws {
        // "Café" precomposed (as an escape) and decomposed (raw bytes), and the same for a tag and a category name.
        let json =
            #"{"products": [{"code": "A", "price": 1, "brand": "Caf\u00e9", "tags": ["caf\u00e9", "cafe\#u{301}"], "#
            + #""category": "D\u00e9cor > x"}, {"code": "B", "price": 1, "brand": "Cafe\#u{301}", "#
            + #""category": "De\#u{301}cor"}]}"#
        let bytes = Array(json.utf8)
        let tree = try CatalogFile.decodeTree(bytes, name: "Products.json")
        #expect(CatalogFile.scan(bytes)?.products ?? tree.products == tree.products)
        func utf8(_ text: String?) -> [UInt8] { Array((text ?? "").utf8) }
        #expect(tree.products.map { utf8($0.brand) } == [utf8("Caf\u{E9}"), utf8("Cafe\u{301}")])
        #expect(tree.products[0].tags.map { utf8($0) } == [utf8("caf\u{E9}"), utf8("cafe\u{301}")])
        #expect(tree.products.map { utf8($0.category?.first) } == [utf8("D\u{E9}cor"), utf8("De\u{301}cor")])
    }

    @Test("(a) 20 % off Clothing except sale items: HOODIE and CAP, 7.00 + 4.80 off, total 74.70")
    func a() throws {
        let rules = try rules(Self.percentClothing)
        #expect(rules.products.products(of: 0).map { rules.catalog[$0].code } == ["HOODIE", "CAP"])
        let receipt = try price(#"["TSHIRT", "HOODIE", {"code": "CAP", "quantity": 2}, "MUG"]"#, rules)
        #expect(
            lines(receipt) == [
                "TSHIRT×1 2000/0/2000 [] - 0",
                "HOODIE×1 3500/700/2800 [\"20% Clothing 700 1\"] 20% Clothing 0",
                "CAP×2 2400/480/1920 [\"20% Clothing 480 2\"] 20% Clothing 0",
                "MUG×1 750/0/750 [] - 0"
            ])
        #expect([receipt.subtotal, receipt.discount, receipt.total] == [8650, 1180, 7470])
        #expect(receipt.cartPromotion == nil)
        #expect(receipt.warnings == [])
    }

    @Test("(b) a bundle over two categories: HOODIE + CAP for 40.00, 7.00 shared 5.21 and 1.79, total 72.00")
    func b() throws {
        let rules = try rules(Self.twoFor40)
        #expect(rules.products.products(of: 0).map { rules.catalog[$0].code } == ["HOODIE", "CAP"])
        let receipt = try price(#"["TSHIRT", "HOODIE", {"code": "CAP", "quantity": 2}]"#, rules)
        #expect(
            lines(receipt) == [
                "TSHIRT×1 2000/0/2000 [] - 0",
                "HOODIE×1 3500/521/2979 [\"2 for 40 521 1\"] 2 for 40 0",
                "CAP×2 2400/179/2221 [\"2 for 40 179 1\"] 2 for 40 0"
            ])
        #expect([receipt.subtotal, receipt.discount, receipt.total] == [7900, 700, 7200])
    }

    @Test("(c) bxgy whose targets overlap its products: CAP counts as a product only; a MUG is free once there")
    func c() throws {
        let rules = try rules(Self.buy2Get1)
        #expect(rules.products.products(of: 0).map { rules.catalog[$0].code } == ["TSHIRT", "HOODIE", "CAP"])
        #expect(rules.products.rewards(of: 0)?.map { rules.catalog[$0].code } == ["MUG"])
        // (c1) k = min(⌊3/2⌋, ⌊0/1⌋) = 0: nothing off (keeping CAP as a target would free a CAP).
        let c1 = try price(#"["HOODIE", {"code": "CAP", "quantity": 2}]"#, rules)
        #expect(lines(c1) == ["HOODIE×1 3500/0/3500 [] - 0", "CAP×2 2400/0/2400 [] - 0"])
        #expect(c1.total == 5900)
        // (c2) k = 1: the MUG rewarded, HOODIE and one CAP the triggers.
        let c2 = try price(#"["HOODIE", {"code": "CAP", "quantity": 2}, "MUG"]"#, rules)
        #expect(
            lines(c2) == [
                "HOODIE×1 3500/0/3500 [\"Buy 2 get 1 0 1\"] - 0",
                "CAP×2 2400/0/2400 [\"Buy 2 get 1 0 1\"] - 0",
                "MUG×1 750/750/0 [\"Buy 2 get 1 750 1\"] Buy 2 get 1 0"
            ])
        #expect([c2.subtotal, c2.discount, c2.total] == [6650, 750, 5900])
        // The receipt as JSON: a line that only gave triggers lists the promotion at 0.00.
        let json = ReceiptEncoder.render(c2)
        #expect(
            json.contains(
                #"{"code":"MUG","name":"Mug","quantity":1,"unit_price":"7.50","subtotal":"7.50","discount":"7.50","total":"0.00","promotion":{"id":"Buy 2 get 1","name":"Buy 2 get 1","type":"bxgy","discount":"7.50"},"cart_discount":"0.00","promotions":[{"id":"Buy 2 get 1","name":"Buy 2 get 1","type":"bxgy","discount":"7.50","units":1}]}"#
            ), "\(json)")
        #expect(
            json.contains(
                #""total":"24.00","promotion":null,"cart_discount":"0.00","promotions":[{"id":"Buy 2 get 1","name":"Buy 2 get 1","type":"bxgy","discount":"0.00","units":1}]}"#
            ), "\(json)")
        #expect(
            json.hasSuffix(
                #""cart_promotion":null,"subtotal":"66.50","item_discount":"7.50","cart_discount":"0.00","discount":"7.50","total":"59.00","warnings":[]}"#
            ), "\(json)")
    }

    @Test(
        "(d) 15 % off the non-sale lines from 50.00: S = 54.50, 8.18 shared HOODIE 5.25, MUG 1.13, CAP 1.80, TSHIRT 0")
    func d() throws {
        let cartJSON = #"[{"code": "TSHIRT", "quantity": 2}, "HOODIE", "MUG", "CAP"]"#
        let rules = try rules(Self.nonSale(minimum: "50.00"))
        #expect(rules.products.products(of: 0).map { rules.catalog[$0].code } == ["HOODIE", "MUG", "CAP"])
        let receipt = try price(cartJSON, rules)
        #expect(
            lines(receipt) == [
                "TSHIRT×2 4000/0/4000 [] - 0", "HOODIE×1 3500/525/2975 [] - 525", "MUG×1 750/113/637 [] - 113",
                "CAP×1 1200/180/1020 [] - 180"
            ])
        #expect(receipt.cartPromotion?.id == "15% non-sale")
        #expect([receipt.subtotal, receipt.cartDiscount, receipt.discount, receipt.total] == [9450, 818, 818, 8632])
        // With a minimum of 60.00 nothing applies, although the whole cart is 94.50.
        let above = try price(cartJSON, try self.rules(Self.nonSale(minimum: "60.00")))
        #expect(above.cartPromotion == nil)
        #expect(above.total == 9450)
        // A cart of sale items only: S = 0, so no discount whatever the minimum.
        let saleOnly = try price(#"[{"code": "TSHIRT", "quantity": 9}]"#, try self.rules(Self.nonSale(minimum: "0")))
        #expect(saleOnly.cartPromotion == nil)
        #expect(saleOnly.total == 18_000)
    }
}
