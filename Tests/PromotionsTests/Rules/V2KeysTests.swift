import Pricing
import Promotions
import Testing

/// The v2 keys and types (docs/promotions-file.md#the-types): what each requires and forbids, ranges, and `targets`.
@Suite("promotions v2: bundle, bxgy, limit, cap, get, targets") struct V2KeysTests {
    func dict(_ body: String) -> String { arrayPlist("<dict><key>name</key><string>p</string>\n" + body + "\n</dict>") }

    @Test("valid v2 promotions decode to their rules")
    func valid() {
        let file = load(
            arrayPlist(
                """
                <dict><key>name</key><string>Any 3 for 30</string><key>type</key><string>bundle</string><key>codes</key><array><string>TSHIRT</string><string>MUG</string></array>
                <key>quantity</key><integer>3</integer><key>price</key><real>30</real><key>limit</key><integer>2</integer></dict>
                <dict><key>name</key><string>Shirt gets mug</string><key>type</key><string>bxgy</string><key>code</key><string>TSHIRT</string>
                <key>targets</key><array><string>MUG</string></array><key>quantity</key><integer>1</integer><key>get</key><integer>2</integer><key>percent</key><real>50</real></dict>
                <dict><key>name</key><string>3 for 2</string><key>type</key><string>bxgy</string><key>code</key><string>MUG</string><key>quantity</key><integer>2</integer></dict>
                <dict><key>name</key><string>20% max 10</string><key>type</key><string>percent</string><key>code</key><string>MUG</string><key>percent</key><integer>20</integer><key>cap</key><string>10</string></dict>
                <dict><key>name</key><string>cart</string><key>type</key><string>cart</string><key>percent</key><integer>5</integer><key>cap</key><integer>3</integer></dict>
                <dict><key>name</key><string>b%</string><key>type</key><string>bundle</string><key>code</key><string>MUG</string><key>quantity</key><integer>2</integer><key>percent</key><real>12.5</real></dict>
                <dict><key>name</key><string>bx price</string><key>type</key><string>bxgy</string><key>code</key><string>MUG</string><key>quantity</key><integer>1</integer><key>price</key><real>1</real><key>limit</key><integer>1</integer></dict>
                """))
        #expect(file.diagnostics == [])
        #expect(
            file.promotions.map(\.rule) == [
                .bundle(size: 3, offer: .price(3000), limit: 2),
                .bxgy(buy: 1, get: 2, reward: .percent(5000), limit: nil),
                .bxgy(buy: 2, get: 1, reward: .percent(10_000), limit: nil),
                .percent(minimumQuantity: 1, hundredths: 2000, cap: 1000),
                .cartPercent(minimum: 0, hundredths: 500, cap: 300),
                .bundle(size: 2, offer: .percent(1250)),
                .bxgy(buy: 1, reward: .price(100), limit: 1)
            ])
        #expect(file.promotions[1].targets == ["MUG"])
        #expect(file.promotions[2].targets == nil)
    }

    @Test("required keys, at the dict")
    func required() {
        assertDiagnostics(
            arrayPlist(
                "1️⃣<dict><key>name</key><string>p</string><key>type</key><string>bundle</string><key>code</key><string>MUG</string></dict>"
            ),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.missing-key",
                    "missing key `quantity`: a bundle needs `quantity`, the number of units in a group (≥ 2)"),
                ExpectedDiagnostic(
                    "1️⃣", "promotion.missing-key",
                    "missing key `price`, `percent` or `amount`: a bundle takes a price for its group, or a percentage or an amount off it"
                )
            ])
        assertDiagnostics(
            arrayPlist(
                "1️⃣<dict><key>name</key><string>p</string><key>type</key><string>bxgy</string><key>code</key><string>MUG</string></dict>"
            ),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.missing-key",
                    "missing key `quantity`: a buy-X-get-Y needs `quantity`, the units to buy (≥ 1)")
            ])
    }

    @Test("ranges and exclusive keys, at the value written last")
    func ranges() {
        assertDiagnostics(
            dict(
                "<key>type</key><string>bundle</string><key>code</key><string>MUG</string><key>quantity</key>1️⃣<integer>1</integer><key>amount</key><real>2</real>"
            ),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.invalid-value",
                    "`quantity` of a bundle is the group size and must be at least 2, not 1")
            ])
        assertDiagnostics(
            dict(
                "<key>type</key><string>bundle</string><key>code</key><string>MUG</string><key>quantity</key><integer>2</integer><key>price</key><real>2</real>\n<key>percent</key>1️⃣<real>5</real>"
            ),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.invalid-value",
                    "a bundle takes one of `price`, `percent` or `amount`, not several; remove one")
            ])
        assertDiagnostics(
            dict(
                "<key>type</key><string>bxgy</string><key>code</key><string>MUG</string><key>quantity</key><integer>2</integer><key>price</key><real>2</real><key>percent</key>1️⃣<real>5</real><key>get</key>2️⃣<integer>0</integer><key>limit</key>3️⃣<integer>-1</integer>"
            ),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.invalid-value",
                    "a buy-X-get-Y takes at most one of `percent` or `price`, not several; remove one"),
                ExpectedDiagnostic(
                    "2️⃣", "promotion.invalid-value",
                    "`get` is the units rewarded per application and must be at least 1, not 0"),
                ExpectedDiagnostic(
                    "3️⃣", "promotion.invalid-value",
                    "`limit` is the most applications per cart and must be at least 1, not -1")
            ])
        assertDiagnostics(
            dict(
                "<key>type</key><string>percent</string><key>code</key><string>MUG</string><key>percent</key><real>5</real><key>cap</key>1️⃣<real>0</real>"
            ),
            [
                ExpectedDiagnostic("1️⃣", "promotion.invalid-value", "`cap` must be greater than 0, not 0")
            ])
        assertDiagnostics(
            dict("<key>type</key><string>cart</string><key>amount</key><real>5</real><key>cap</key>1️⃣<real>2</real>"),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.invalid-value",
                    "`cap` bounds a percentage; a cart promotion with `amount` cannot take it; remove it")
            ])
    }

    @Test("keys a type does not take: limit on v1 types, cap beyond percentages, targets beyond bxgy")
    func forbidden() {
        assertDiagnostics(
            dict(
                "<key>type</key><string>combo</string><key>code</key><string>MUG</string><key>quantity</key><integer>2</integer><key>paid</key><integer>1</integer><key>limit</key>1️⃣<integer>1</integer>"
            ),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.invalid-value", "`limit` is not allowed in a combo promotion; remove it")
            ])
        assertDiagnostics(
            dict(
                "<key>type</key><string>bulk</string><key>code</key><string>MUG</string><key>quantity</key><integer>2</integer><key>price</key><integer>1</integer><key>cap</key>1️⃣<integer>1</integer>"
            ),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.invalid-value", "`cap` is not allowed in a bulk promotion; remove it")
            ])
        // "an" before a vowel.
        assertDiagnostics(
            dict(
                "<key>type</key><string>amount</string><key>code</key><string>MUG</string><key>amount</key><integer>1</integer><key>cap</key>1️⃣<integer>1</integer>"
            ),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.invalid-value", "`cap` is not allowed in an amount promotion; remove it")
            ])
        assertDiagnostics(
            dict(
                "<key>type</key><string>bundle</string><key>code</key><string>MUG</string><key>quantity</key><integer>2</integer><key>price</key><integer>1</integer><key>targets</key>1️⃣<array><string>CAP</string></array><key>get</key>2️⃣<integer>1</integer><key>cap</key>3️⃣<integer>1</integer><key>paid</key>4️⃣<integer>1</integer>"
            ),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.invalid-value", "`targets` is not allowed in a bundle promotion; remove it"),
                ExpectedDiagnostic(
                    "2️⃣", "promotion.invalid-value", "`get` is not allowed in a bundle promotion; remove it"),
                ExpectedDiagnostic(
                    "3️⃣", "promotion.invalid-value", "`cap` is not allowed in a bundle promotion; remove it"),
                ExpectedDiagnostic(
                    "4️⃣", "promotion.invalid-value", "`paid` is not allowed in a bundle promotion; remove it")
            ])
        assertDiagnostics(
            dict(
                "<key>type</key><string>bxgy</string><key>code</key><string>MUG</string><key>quantity</key><integer>2</integer><key>amount</key>1️⃣<integer>1</integer>"
            ),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.invalid-value", "`amount` is not allowed in a bxgy promotion; remove it")
            ])
    }

    @Test("targets: an array of codes, none of them also a code of the promotion")
    func targets() {
        assertDiagnostics(
            dict(
                "<key>type</key><string>bxgy</string><key>codes</key><array><string>MUG</string><string>CAP</string></array><key>quantity</key><integer>1</integer>\n<key>targets</key><array><string>TSHIRT</string>1️⃣<string>CAP</string>2️⃣<string></string></array>"
            ),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.invalid-value",
                    "`CAP` is both bought (`code`/`codes`) and rewarded (`targets`); a code may be in only one of them"),
                ExpectedDiagnostic("2️⃣", "promotion.invalid-value", "a product code in `targets` must not be empty")
            ])
        assertDiagnostics(
            dict(
                "<key>type</key><string>bxgy</string><key>code</key><string>MUG</string><key>quantity</key><integer>1</integer><key>targets</key>1️⃣<string>CAP</string>"
            ),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.invalid-value", "`targets` must be an <array> of <string>s, not a <string>")
            ])
        assertDiagnostics(
            dict(
                "<key>type</key><string>bxgy</string><key>code</key><string>MUG</string><key>quantity</key><integer>1</integer><key>targets</key>1️⃣<array/>"
            ),
            [
                ExpectedDiagnostic("1️⃣", "promotion.invalid-value", "`targets` must list at least one product code")
            ])
    }

    @Test("with a catalog: unknown target codes; bundles and rewards that can never cost less")
    func withCatalog() {
        let checks = PromotionChecks(catalog: store, checksProducts: true)
        assertDiagnostics(
            dict(
                "<key>type</key><string>bxgy</string><key>code</key><string>MUG</string><key>quantity</key><integer>1</integer><key>targets</key><array>1️⃣<string>HAT</string></array>"
            ),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.unknown-code", "unknown product code `HAT`: the catalog has no such product")
            ], checks: checks)
        // 2 × the dearest (TSHIRT 20.00) = 40.00: a group can never cost less than 40.00 at most.
        assertDiagnostics(
            dict(
                "<key>type</key><string>bundle</string><key>codes</key><array><string>TSHIRT</string><string>MUG</string></array><key>quantity</key><integer>2</integer><key>price</key>1️⃣<real>40</real>"
            ),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.no-discount",
                    "bundle price 40.00 is not below 2 × the highest list price of its products (40.00): the promotion never lowers its price"
                )
            ], checks: checks)
        assertDiagnostics(
            dict(
                "<key>type</key><string>bundle</string><key>codes</key><array><string>TSHIRT</string><string>MUG</string></array><key>quantity</key><integer>2</integer><key>price</key><real>39.99</real>"
            ), [], checks: checks)
        // Rewards MUG (7.50) and VOUCHER (5.00): a price of 7.50 lowers neither.
        assertDiagnostics(
            dict(
                "<key>type</key><string>bxgy</string><key>code</key><string>TSHIRT</string><key>targets</key><array><string>MUG</string><string>VOUCHER</string></array><key>quantity</key><integer>1</integer><key>price</key>1️⃣<real>7.5</real>"
            ),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.no-discount",
                    "reward price 7.50 is not below the list price of any unit it could reward (at most 7.50): the promotion never lowers its price"
                )
            ], checks: checks)
        assertDiagnostics(
            dict(
                "<key>type</key><string>bxgy</string><key>code</key><string>TSHIRT</string><key>targets</key><array><string>MUG</string></array><key>quantity</key><integer>1</integer><key>price</key><real>7.49</real>"
            ), [], checks: checks)
    }
}
