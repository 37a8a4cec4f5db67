import Pricing
import Promotions
import Testing

/// Clothing at 20.00, 35.00 and 12.00, a mug at 7.50, and two free products.
private let shop = try! Catalog(products: [
    Product(code: "TSHIRT", name: "T-Shirt", price: 2000, category: ["Clothing", "Shirts"], tags: ["cotton"]),
    Product(code: "HOODIE", name: "Hoodie", price: 3500, category: ["Clothing", "Sweaters"]),
    Product(code: "CAP", name: "Cap", price: 1200, category: ["Clothing", "Hats"]),
    Product(code: "MUG", name: "Mug", price: 750, category: ["Home", "Kitchen"], tags: ["sale"]),
    Product(code: "STICKER", name: "Sticker", price: 0, tags: ["free"]),
    Product(code: "PIN", name: "Pin", price: 0, tags: ["free"]),
    Product(code: "CAF\u{C9}", name: "Coffee", price: 3000, category: ["Food"])
])

private let withShop = PromotionChecks(catalog: shop, checksProducts: true)

/// A promotion of `type` whose other keys are `body` (which carries its own markers).
private func promotion(_ type: String, _ body: String) -> String {
    arrayPlist("<dict><key>name</key><string>p</string><key>type</key><string>\(type)</string>\n" + body + "</dict>")
}

private let clothing = "<key>products</key><dict><key>categories</key><array><string>Clothing</string></array></dict>\n"

private func never(_ reason: String) -> String { reason + ": the promotion never lowers its price" }

/// `T01` to `T20`.
private func tool(_ n: Int) -> String { n < 10 ? "T0\(n)" : "T\(n)" }

/// A mug at 10.00, then twenty tools listed cheapest first: T20 at 1.00 up to T01 at 20.00 (more
/// tools than the 16 dearest the checks keep of a selection).
private let tools = try! Catalog(
    products: [Product(code: "MUG", name: "Mug", price: 1000, category: ["Home"])]
        + (1...20).reversed().map { n in
            Product(code: tool(n), name: "Tool \(n)", price: Int64(21 - n) * 100, category: ["Tools"])
        })

/// A bxgy named `name` of `products`, buy 1, reward price `price`, whose targets select the tools.
private func toolsBxgy(_ name: String, _ products: String, price: String) -> String {
    "<dict><key>name</key><string>\(name)</string><key>type</key><string>bxgy</string>\n" + products
        + "<key>quantity</key><integer>1</integer><key>price</key>\(price)\n"
        + "<key>targets</key><dict><key>categories</key><array><string>Tools</string></array></dict></dict>\n"
}

/// `promotion.no-discount` for promotions whose products are selected (docs/selectors.md): said
/// once, when the promotion can lower none of the prices of the products it selects; silent when it
/// can lower one of them.
@Suite("promotion.no-discount with selectors") struct SelectedNoDiscountTests {
    @Test("a bulk price at or above every selected list price, at the price, naming the dearest")
    func bulkAboveAll() {
        // TSHIRT 20.00, HOODIE 35.00, CAP 12.00: 35.00 is not below the dearest.
        assertDiagnostics(
            promotion("bulk", clothing + "<key>quantity</key><integer>2</integer><key>price</key>1️⃣<real>35</real>"),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.no-discount",
                    never(
                        "bulk price 35.00 is not below the list price of any product it selects (the dearest, `HOODIE`, is 35.00)"
                    ))
            ], checks: withShop)
        // 34.99 lowers the hoodie's price (not the others'): nothing to say, as with a code list
        // that names one product the promotion can make cheaper.
        assertDiagnostics(
            promotion("bulk", clothing + "<key>quantity</key><integer>2</integer><key>price</key><real>34.99</real>"),
            [], checks: withShop)
    }

    @Test("one product selected reads as its code would")
    func oneSelected() {
        assertDiagnostics(
            promotion(
                "bulk",
                "<key>products</key><dict><key>codes</key><array><string>CAP</string></array></dict>\n"
                    + "<key>quantity</key><integer>3</integer><key>price</key>1️⃣<real>15</real>"),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.no-discount", never("bulk price 15.00 is not below the list price of `CAP` (12.00)")
                )
            ], checks: withShop)
    }

    @Test("a percentage of free products only, at the selector")
    func freeOnly() {
        assertDiagnostics(
            promotion(
                "percent",
                "<key>percent</key><integer>50</integer>\n"
                    + "<key>products</key>1️⃣<dict><key>tags</key><array><string>free</string></array></dict>"),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.no-discount", never("every product it selects is free (list price 0.00)"))
            ], checks: withShop)
        assertDiagnostics(
            promotion(
                "amount",
                "<key>amount</key><integer>1</integer>\n"
                    + "<key>products</key>1️⃣<dict><key>tags</key><array><string>free</string></array>"
                    + "<key>exclude_codes</key><array><string>PIN</string></array></dict>"),
            [ExpectedDiagnostic("1️⃣", "promotion.no-discount", never("`STICKER` is free (list price 0.00)"))],
            checks: withShop)
        // One product that is not free is enough.
        assertDiagnostics(
            promotion(
                "percent",
                "<key>percent</key><integer>50</integer>\n"
                    + "<key>products</key><dict><key>tags</key><array><string>free</string><string>sale</string></array></dict>"
            ),
            [], checks: withShop)
    }

    @Test("a bundle price not below N × the dearest selected price")
    func bundle() {
        // 2 × 35.00 = 70.00.
        assertDiagnostics(
            promotion("bundle", clothing + "<key>quantity</key><integer>2</integer><key>price</key>1️⃣<real>70</real>"),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.no-discount",
                    never("bundle price 70.00 is not below 2 × the highest list price of its products (70.00)"))
            ], checks: withShop)
        assertDiagnostics(
            promotion("bundle", clothing + "<key>quantity</key><integer>2</integer><key>price</key><real>69.99</real>"),
            [], checks: withShop)
    }

    @Test("a bxgy's reward price against the dearest product its targets select that it does not buy")
    func bxgyRewards() {
        let reason = never("reward price 7.50 is not below the list price of any unit it could reward (at most 7.50)")
        // Cotton or sale: TSHIRT (20.00) is one of its products, so it is no reward; MUG (7.50) is.
        assertDiagnostics(
            promotion(
                "bxgy",
                clothing + "<key>quantity</key><integer>1</integer><key>price</key>1️⃣<real>7.5</real>\n"
                    + "<key>targets</key><dict><key>tags</key><array><string>cotton</string><string>sale</string></array></dict>"
            ),
            [ExpectedDiagnostic("1️⃣", "promotion.no-discount", reason)], checks: withShop)
        // Codes as targets: the same, TSHIRT left out as one it buys.
        assertDiagnostics(
            promotion(
                "bxgy",
                clothing + "<key>quantity</key><integer>1</integer><key>price</key>1️⃣<real>7.5</real>\n"
                    + "<key>targets</key><array><string>TSHIRT</string><string>MUG</string></array>"),
            [ExpectedDiagnostic("1️⃣", "promotion.no-discount", reason)], checks: withShop)
        // Products by code, targets by selector: the same again.
        assertDiagnostics(
            promotion(
                "bxgy",
                "<key>code</key><string>TSHIRT</string><key>quantity</key><integer>1</integer><key>price</key>1️⃣<real>7.5</real>\n"
                    + "<key>targets</key><dict><key>tags</key><array><string>cotton</string><string>sale</string></array></dict>"
            ),
            [ExpectedDiagnostic("1️⃣", "promotion.no-discount", reason)], checks: withShop)
        // A cent less rewards the mug.
        assertDiagnostics(
            promotion(
                "bxgy",
                clothing + "<key>quantity</key><integer>1</integer><key>price</key><real>7.49</real>\n"
                    + "<key>targets</key><dict><key>tags</key><array><string>cotton</string><string>sale</string></array></dict>"
            ),
            [], checks: withShop)
    }

    @Test(
        "codes as targets are found as pricing finds them (another spelling of the same text); a code the catalog lacks is reported"
    )
    func targetCodes() {
        // CAFÉ (30.00) is in the catalog with É as one code point; the targets write it as E and a
        // combining accent, which pricing takes for CAFÉ: a reward at 15.00 is then worth something.
        assertDiagnostics(
            promotion(
                "bxgy",
                "<key>products</key><dict><key>categories</key><array><string>Home</string></array></dict>\n"
                    + "<key>quantity</key><integer>1</integer><key>price</key><real>15</real>\n"
                    + "<key>targets</key><array><string>CAP</string><string>CAFE\u{301}</string></array>"),
            [], checks: withShop)
        assertDiagnostics(
            promotion(
                "bxgy",
                "<key>products</key><dict><key>categories</key><array><string>Home</string></array></dict>\n"
                    + "<key>quantity</key><integer>1</integer>\n"
                    + "<key>targets</key><array>1️⃣<string>NOPE</string><string>CAP</string></array>"),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.unknown-code", "unknown product code `NOPE`: the catalog has no such product")
            ], checks: withShop)
    }

    @Test(
        "a bxgy that buys the dearest few its targets select: its reward price against the dearest of the others, once per pair"
    )
    func bxgyBuysTheDearestFew() {
        // It buys T01 to T17, the 17 dearest tools: the dearest tool it could reward is T18 (3.00),
        // past the dearest 16 kept in short; the mug (10.00) is no tool. At 2.99 the reward lowers
        // T18's price; at 3.00 it lowers none. The second promotion's dearest reward is the first's
        // (the same targets and products), worked out once.
        let reason = never("reward price 3.00 is not below the list price of any unit it could reward (at most 3.00)")
        let dearest17 = "<array>" + (1...17).map { "<string>\(tool($0))</string>" }.joined() + "</array>"
        let checks = PromotionChecks(catalog: tools, checksProducts: true)
        // Its products by code, then by a selector.
        for products in [
            "<key>codes</key>\(dearest17)\n", "<key>products</key><dict><key>codes</key>\(dearest17)</dict>\n"
        ] {
            assertDiagnostics(
                arrayPlist(
                    toolsBxgy("a", products, price: "<real>2.99</real>")
                        + toolsBxgy("b", products, price: "1️⃣<real>3</real>")),
                [ExpectedDiagnostic("1️⃣", "promotion.no-discount", reason)], checks: checks)
        }
    }

    @Test("targets that select only products the promotion buys, at the targets")
    func targetsOnlyOwn() {
        let message =
            "`targets` selects only products the promotion buys, and a product it buys is never its reward: the promotion can never apply; target other products"
        assertDiagnostics(
            promotion(
                "bxgy",
                clothing + "<key>quantity</key><integer>1</integer>\n"
                    + "<key>targets</key>1️⃣<dict><key>categories</key><array><string>Clothing &gt; Hats</string></array></dict>"
            ),
            [ExpectedDiagnostic("1️⃣", "promotion.selects-nothing", message)], checks: withShop)
        assertDiagnostics(
            promotion(
                "bxgy",
                "<key>codes</key><array><string>TSHIRT</string><string>CAP</string></array><key>quantity</key><integer>1</integer>\n"
                    + "<key>targets</key>1️⃣<dict><key>categories</key><array><string>Clothing &gt; Hats</string></array></dict>"
            ),
            [ExpectedDiagnostic("1️⃣", "promotion.selects-nothing", message)], checks: withShop)
    }

    @Test("a cart promotion on free products only, at its products; without products, nothing to say")
    func cartOnFreeProducts() {
        assertDiagnostics(
            promotion(
                "cart",
                "<key>percent</key><integer>10</integer>\n"
                    + "<key>products</key>1️⃣<dict><key>tags</key><array><string>free</string></array></dict>"),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.no-discount", never("every product it selects is free (list price 0.00)"))
            ], checks: withShop)
        assertDiagnostics(
            promotion("cart", "<key>amount</key><integer>5</integer>"), [], checks: withShop)
    }
}

@Suite("promotion.unknown-attribute: exclusions and repeats") struct UnknownExclusionTests {
    @Test("a value of an exclude_ key no product has leaves nothing out; a repeated value is reported once")
    func exclusionAndRepeats() {
        assertDiagnostics(
            promotion(
                "percent",
                "<key>percent</key><integer>10</integer>\n"
                    + "<key>products</key><dict><key>categories</key><array><string>Clothing</string></array>"
                    + "<key>exclude_tags</key><array>1️⃣<string>Sale</string></array>"
                    + "<key>tags</key><array><string>cotton</string>2️⃣<string>nope</string><string>nope</string></array>"
                    + "<key>exclude_categories</key><array>3️⃣<string>Nope&gt;Shoes</string><string> Nope &gt; Shoes</string></array></dict>"
            ),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.unknown-attribute",
                    #"no product of the catalog has the tag "Sale": it leaves nothing out; did you mean "sale"?"#),
                ExpectedDiagnostic(
                    "2️⃣", "promotion.unknown-attribute",
                    #"no product of the catalog has the tag "nope": it selects nothing"#),
                // One path, written two ways: once.
                ExpectedDiagnostic(
                    "3️⃣", "promotion.unknown-attribute",
                    #"no product of the catalog has the category "Nope>Shoes": it leaves nothing out"#)
            ], checks: withShop)
    }
}
