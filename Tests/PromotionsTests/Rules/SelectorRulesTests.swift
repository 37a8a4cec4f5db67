import Pricing
import Promotions
import Testing

/// A catalog with categories, brands and tags, for the two rules that only a catalog can check.
private let attributed = try! Catalog(products: [
    Product(
        code: "TSHIRT", name: "T-Shirt", price: 2000, category: ["Clothing", "Shirts"], brand: "Cabify",
        tags: ["cotton"]),
    Product(code: "MUG", name: "Mug", price: 750, category: ["Home", "Kitchen"], brand: "Cabify", tags: ["sale"]),
    Product(code: "VOUCHER", name: "Voucher", price: 500)
])

private let withCatalog = PromotionChecks(catalog: attributed, checksProducts: true)

/// A percent promotion whose `products` is `selector` (which carries its own markers).
private func percent(_ selector: String) -> String {
    arrayPlist(
        "<dict><key>name</key><string>p</string><key>type</key><string>percent</string><key>percent</key><integer>5</integer>\n"
            + "<key>products</key>" + selector + "</dict>")
}

@Suite("promotion.unknown-attribute") struct UnknownAttributeTests {
    @Test("each category, brand or tag no product has, at its string, with the catalog's closest value")
    func unknownValues() {
        assertDiagnostics(
            percent(
                "1️⃣<dict>\n<key>categories</key><array>2️⃣<string>Clothng</string></array>\n"
                    + "<key>brands</key><array>3️⃣<string>Cabfy</string></array>\n"
                    + "<key>exclude_tags</key><array>4️⃣<string>zzzzzzzzzzzz</string></array>\n</dict>"),
            [
                // In file order: Clothng selects nothing, so the whole selector does.
                ExpectedDiagnostic(
                    "1️⃣", "promotion.selects-nothing",
                    "`products` selects no product of the catalog: the promotion can never apply; check its categories, brands, tags and exclusions"
                ),
                ExpectedDiagnostic(
                    "2️⃣", "promotion.unknown-attribute",
                    #"no product of the catalog has the category "Clothng": it selects nothing; did you mean "Clothing"?"#
                ),
                ExpectedDiagnostic(
                    "3️⃣", "promotion.unknown-attribute",
                    #"no product of the catalog has the brand "Cabfy": it selects nothing; did you mean "Cabify"?"#),
                ExpectedDiagnostic(
                    "4️⃣", "promotion.unknown-attribute",
                    #"no product of the catalog has the tag "zzzzzzzzzzzz": it leaves nothing out"#)
            ],
            checks: withCatalog)
    }

    @Test("a value cut short suggests the catalog's value it begins, as `products --category` does")
    func cutShort() {
        // "Cloth" is three edits from "Clothing" (one allowed in five letters), "cab" three from
        // "Cabify": too far to be typos, but each begins a value of the catalog.
        assertDiagnostics(
            percent(
                "1️⃣<dict>\n<key>categories</key><array>2️⃣<string>Cloth</string></array>\n"
                    + "<key>brands</key><array>3️⃣<string>cab</string></array>\n</dict>"),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.selects-nothing",
                    "`products` selects no product of the catalog: the promotion can never apply; check its categories, brands, tags and exclusions"
                ),
                ExpectedDiagnostic(
                    "2️⃣", "promotion.unknown-attribute",
                    #"no product of the catalog has the category "Cloth": it selects nothing; did you mean "Clothing"?"#
                ),
                ExpectedDiagnostic(
                    "3️⃣", "promotion.unknown-attribute",
                    #"no product of the catalog has the brand "cab": it selects nothing; did you mean "Cabify"?"#)
            ],
            checks: withCatalog)
    }

    @Test("values the catalog has are silent, and without a catalog nothing is checked")
    func negatives() {
        let selector =
            "<dict><key>categories</key><array><string>Clothing</string></array><key>tags</key><array><string>cotton</string></array></dict>"
        assertDiagnostics(percent(selector), [], checks: withCatalog)
        let unknown = "<dict><key>brands</key><array><string>Cabfy</string></array></dict>"
        assertDiagnostics(percent(unknown), [])
        // A path and each of its prefixes are categories of the catalog; spaces around `>` do not count.
        assertDiagnostics(
            percent(
                "<dict><key>categories</key><array><string>Home  &gt;Kitchen</string><string>Home</string></array></dict>"
            ),
            [],
            checks: withCatalog)
    }
}

@Suite("promotion.selects-nothing") struct SelectsNothingTests {
    let message =
        "`products` selects no product of the catalog: the promotion can never apply; check its categories, brands, tags and exclusions"

    @Test("exclusions that leave nothing, and an array of selectors each selecting nothing, at the selector")
    func nothingLeft() {
        // Both branded products are excluded by brand, the voucher by code.
        assertDiagnostics(
            percent(
                "1️⃣<dict><key>exclude_brands</key><array><string>Cabify</string></array>"
                    + "<key>exclude_codes</key><array><string>VOUCHER</string></array></dict>"),
            [ExpectedDiagnostic("1️⃣", "promotion.selects-nothing", message)], checks: withCatalog)
        // Known values that no one product has together: cotton things in the kitchen.
        assertDiagnostics(
            percent(
                "1️⃣<array><dict><key>categories</key><array><string>Home</string></array>"
                    + "<key>tags</key><array><string>cotton</string></array></dict>"
                    + "<dict><key>brands</key><array><string>Cabify</string></array>"
                    + "<key>exclude_categories</key><array><string>Clothing</string><string>Home</string></array></dict></array>"
            ),
            [ExpectedDiagnostic("1️⃣", "promotion.selects-nothing", message)], checks: withCatalog)
    }

    @Test("one product selected is enough")
    func somethingLeft() {
        // The voucher has no brand, so excluding the brand leaves it.
        assertDiagnostics(
            percent("<dict><key>exclude_brands</key><array><string>Cabify</string></array></dict>"), [],
            checks: withCatalog)
        assertDiagnostics(
            percent(
                "<array><dict><key>tags</key><array><string>sale</string></array></dict>"
                    + "<dict><key>codes</key><array>1️⃣<string>NOPE</string></array></dict></array>"),
            // NOPE is an unknown code (a warning in a selector); the first selector still selects the mug.
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.unknown-code", "unknown product code `NOPE`: the catalog has no such product")
            ], checks: withCatalog)
    }
}

@Suite("bxgy: products by code, targets by selector") struct CodesWithSelectorTargetsTests {
    /// A bxgy on TSHIRT whose reward price (50.00) is above every list price, with `targets` given.
    private func bxgy(targets: String, price: String = "<real>50</real>") -> String {
        arrayPlist(
            "<dict><key>name</key><string>b</string><key>type</key><string>bxgy</string><key>quantity</key><integer>1</integer>\n"
                + "<key>code</key><string>TSHIRT</string><key>price</key>" + price + "\n"
                + "<key>targets</key>" + targets + "</dict>")
    }

    @Test(
        "a selector of known values is no code: its reward price is compared with the dearest product it selects that TSHIRT is not"
    )
    func knownSelector() {
        // Cabify: TSHIRT (its own product, no reward) and MUG 7.50; with VOUCHER 5.00 too.
        let never = ExpectedDiagnostic(
            "1️⃣", "promotion.no-discount",
            "reward price 50.00 is not below the list price of any unit it could reward (at most 7.50): the promotion never lowers its price"
        )
        assertDiagnostics(
            bxgy(
                targets: "<dict><key>brands</key><array><string>Cabify</string></array></dict>",
                price: "1️⃣<real>50</real>"), [never], checks: withCatalog)
        assertDiagnostics(
            bxgy(
                targets: "<array><dict><key>brands</key><array><string>Cabify</string></array></dict>"
                    + "<dict><key>codes</key><array><string>VOUCHER</string></array></dict></array>",
                price: "1️⃣<real>50</real>"),
            [never], checks: withCatalog)
        // Below the mug's price: a reward.
        assertDiagnostics(
            bxgy(
                targets: "<dict><key>brands</key><array><string>Cabify</string></array></dict>",
                price: "<real>7.49</real>"), [], checks: withCatalog)
    }

    @Test("an invalid selector as targets is its error alone: its reward price is not compared with its own products")
    func invalidSelector() {
        assertDiagnostics(
            bxgy(targets: "<dict><key>brands</key>1️⃣<string>Cabify</string></dict>"),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.invalid-value", "`brands` must be an <array> of <string>s, not a <string>")
            ],
            checks: withCatalog)
    }

    @Test("a selector's unknown code is a warning at its string; codes as targets still compare prices")
    func unknownCodeInSelector() {
        assertDiagnostics(
            bxgy(targets: "1️⃣<dict><key>codes</key><array>2️⃣<string>NOPE</string></array></dict>"),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.selects-nothing",
                    "`targets` selects no product of the catalog: the promotion can never apply; check its categories, brands, tags and exclusions"
                ),
                ExpectedDiagnostic(
                    "2️⃣", "promotion.unknown-code", "unknown product code `NOPE`: the catalog has no such product")
            ],
            checks: withCatalog)
        assertDiagnostics(
            arrayPlist(
                "<dict><key>name</key><string>b</string><key>type</key><string>bxgy</string><key>quantity</key><integer>1</integer>\n"
                    + "<key>code</key><string>TSHIRT</string><key>price</key>1️⃣<real>50</real>\n"
                    + "<key>targets</key><array><string>MUG</string></array></dict>"),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.no-discount",
                    "reward price 50.00 is not below the list price of any unit it could reward (at most 7.50): the promotion never lowers its price"
                )
            ],
            checks: withCatalog)
    }
}
