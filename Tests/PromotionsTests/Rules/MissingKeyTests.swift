import Promotions
import Testing

@Suite("promotion.missing-key") struct MissingKeyTests {
    @Test("each missing key is reported at the dict")
    func missingKeys() {
        let xml = arrayPlist(
            "<dict>\n<key>name</key><string>half</string>\n<key>type</key><string>combo</string>\n<key>code</key><string>MUG</string>\n</dict>"
        )
        #expect(found(xml) == ["promotion.missing-key@4:1 half", "promotion.missing-key@4:1 half"])
        #expect(
            messages(xml) == [
                "missing key `quantity`: a combo needs `quantity`, the group size N ≥ 2",
                "missing key `paid`: a combo needs `paid`, the units paid per group (0 ≤ paid < quantity)"
            ])
    }

    @Test("name, type, targets, and the cart's percent or amount")
    func requiredEverywhere() {
        #expect(
            messages(arrayPlist("<dict><key>type</key><string>cart</string></dict>")) == [
                "missing key `name`: every promotion needs a `name` to show shoppers",
                "missing key `percent` or `amount`: a cart promotion takes either a percentage or an amount off the cart"
            ])
        #expect(
            messages(
                arrayPlist(
                    "<dict><key>name</key><string>x</string><key>type</key><string>percent</string><key>percent</key><integer>5</integer></dict>"
                ))
                == ["missing key `code`, `codes` or `products`: say which products the promotion applies to"])
        #expect(found(arrayPlist("<dict><key>name</key><string>x</string></dict>")) == ["promotion.missing-key@4:1 x"])
    }

    @Test("a dict root without `promotions`")
    func dictRoot() {
        #expect(
            found("<plist>\n  <dict><key>currency</key><string>EUR</string></dict></plist>") == [
                "promotion.missing-key@2:3 -"
            ])
    }
}
