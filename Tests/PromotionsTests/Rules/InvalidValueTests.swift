import Promotions
import Testing

@Suite("promotion.invalid-value") struct InvalidValueTests {
    /// A bulk promotion with one key replaced; the changed value is on line 5 of the file.
    func bulk(_ key: String, _ value: String) -> String {
        var keys: [(String, String)] = [
            ("name", "<string>b</string>"), ("type", "<string>bulk</string>"), ("code", "<string>TSHIRT</string>"),
            ("quantity", "<integer>3</integer>"), ("price", "<real>19.00</real>")
        ]
        keys.removeAll { $0.0 == key }
        return arrayPlist(
            "<dict>" + keys.map { "<key>\($0.0)</key>\($0.1)" }.joined() + "\n<key>\(key)</key>  \(value)\n</dict>")
    }

    @Test(
        "each invalid value, at its element",
        arguments: [
            ("quantity", "<string>3</string>", "`quantity` must be an <integer>, not a <string>"),
            ("quantity", "<integer>0</integer>", "`quantity` must be at least 1, not 0"),
            ("quantity", "<integer>2.5</integer>", "`quantity` must be a whole number, not \"2.5\""),
            ("quantity", "<integer>99999999999999999999</integer>", "`quantity` 99999999999999999999 is out of range"),
            (
                "price", "<real>19.999</real>",
                "`price` 19.999 is not a whole number of minor units of EUR (2 decimal places)"
            ),
            ("price", "<real>-1</real>", "`price` must not be negative, not -1"),
            ("price", "<real>NaN</real>", "`price` must be a decimal amount such as 19.99, not \"NaN\""),
            (
                "price", "<real>1e400</real>",
                "`price` 1e400 is out of range (the largest amount is 92233720368547758.07)"
            ),
            ("price", "<true/>", "`price` must be an amount (<real>, <integer> or <string>), not a <true>"),
            ("name", "<string></string>", "`name` must not be empty"),
            ("percent", "<real>10</real>", "`percent` is not allowed in a bulk promotion; remove it"),
            ("enabled", "<string>yes</string>", "`enabled` must be <true/> or <false/>, not a <string>"),
            (
                "start", "<date>2026-02-30T00:00:00Z</date>",
                "`start`: \"2026-02-30T00:00:00Z\" is not an RFC 3339 date-time (day 30 does not exist in that month; expected e.g. 2026-11-21T10:00:00Z)"
            ),
            ("priority", "<real>1.5</real>", "`priority` must be an <integer>, not a <real>"),
            ("coupon", "<string></string>", "`coupon` must not be empty"),
            ("codes", "<array><string>A</string></array>", "give `code` or `codes`, not both; remove one")
        ])
    func invalid(key: String, value: String, message: String) {
        let xml = bulk(key, value)
        let diagnostics = load(xml).diagnostics
        #expect(diagnostics.map(\.id) == ["promotion.invalid-value"])
        #expect(diagnostics.first?.location.line == 5)
        #expect(diagnostics.first?.location.column == key.count + 14)
        #expect(diagnostics.first?.message == message)
    }

    @Test("money is read by its text whatever its element (docs/money.md): an <integer> may hold 19.5")
    func moneyWhateverItsType() {
        for value in [
            "<integer>19.5</integer>", "<real>19.50</real>", "<string>1.95e1</string>", "<integer> 19.5 </integer>"
        ] {
            let file = load(bulk("price", value))
            #expect(file.diagnostics.isEmpty, "\(value)")
            #expect(file.promotions.first?.rule == .bulk(threshold: 3, unitPrice: 1950), "\(value)")
        }
    }

    @Test("combo ranges: N ≥ 2, 0 ≤ M < N")
    func comboRanges() {
        func combo(_ n: Int, _ m: Int) -> [String] {
            messages(
                arrayPlist(
                    "<dict><key>name</key><string>c</string><key>type</key><string>combo</string><key>code</key><string>A</string><key>quantity</key><integer>\(n)</integer><key>paid</key><integer>\(m)</integer></dict>"
                ))
        }
        #expect(combo(1, 0) == ["`quantity` of a combo is the group size and must be at least 2, not 1"])
        #expect(combo(2, 2) == ["`paid` must be from 0 to 1 (less than `quantity`, 2), not 2"])
        #expect(combo(3, -1) == ["`paid` must be from 0 to 2 (less than `quantity`, 3), not -1"])
        #expect(combo(2, 0) == [])
    }

    @Test("percent: a multiple of 0.01 in (0, 100]")
    func percentRange() {
        func percent(_ value: String) -> [String] {
            messages(
                arrayPlist(
                    "<dict><key>name</key><string>p</string><key>type</key><string>percent</string><key>code</key><string>A</string><key>percent</key>\(value)</dict>"
                ))
        }
        #expect(percent("<real>0</real>") == ["`percent` must be greater than 0 and at most 100, not 0"])
        #expect(percent("<real>100.01</real>") == ["`percent` must be greater than 0 and at most 100, not 100.01"])
        #expect(percent("<real>12.345</real>") == ["`percent` must be a multiple of 0.01, not 12.345"])
        #expect(percent("<string>10</string>") == ["`percent` must be a <real> or <integer>, not a <string>"])
        // Its text is read whatever its element (as money's: docs/money.md): an <integer> may hold 7.5.
        #expect(percent("<integer>7.5</integer>") == [])
        #expect(percent("<real>100</real>") == [])
        #expect(percent("<real>0.01</real>") == [])
    }

    @Test("a cart promotion with both percent and amount, or with targets; an empty codes array; version 2")
    func otherShapes() {
        let both = arrayPlist(
            "<dict><key>name</key><string>c</string><key>type</key><string>cart</string><key>amount</key><integer>1</integer>\n<key>percent</key><integer>5</integer>\n<key>code</key><string>A</string></dict>"
        )
        #expect(found(both) == ["promotion.invalid-value@5:19 c", "promotion.invalid-value@6:16 c"])
        #expect(
            messages(both) == [
                "a cart promotion takes `percent` or `amount`, not both; remove one",
                "`code` is not allowed in a cart promotion; remove it"
            ])
        let empty = arrayPlist(
            "<dict><key>name</key><string>c</string><key>type</key><string>amount</string><key>amount</key><integer>1</integer>\n<key>codes</key><array/></dict>"
        )
        #expect(messages(empty) == ["`codes` must list at least one product code"])
        #expect(
            found("<plist><dict><key>promotions</key><array/>\n<key>version</key><integer>2</integer></dict></plist>")
                == ["promotion.invalid-value@2:19 -"])
    }
}
