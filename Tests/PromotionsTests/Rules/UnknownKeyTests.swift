import Promotions
import Testing

@Suite("promotion.unknown-key") struct UnknownKeyTests {
    @Test("a typo gets a did-you-mean, as a warning at the key")
    func typo() {
        let xml = arrayPlist(
            "<dict><key>name</key><string>x</string><key>type</key><string>cart</string><key>amount</key><integer>1</integer>\n  <key>minimun</key><integer>10</integer></dict>"
        )
        let file = load(xml)
        #expect(found(xml) == ["promotion.unknown-key@5:3 x"])
        #expect(file.diagnostics.first?.severity == .warning)
        #expect(file.diagnostics.first?.message == "unknown key `minimun` is ignored; did you mean `minimum`?")
        #expect(file.promotions.count == 1)
        #expect(file.hasErrors == false)
    }

    @Test("hints: letter case, transpositions, or the list of known keys")
    func hints() {
        func message(_ key: String) -> String? {
            messages(
                arrayPlist(
                    "<dict><key>name</key><string>x</string><key>type</key><string>cart</string><key>amount</key><integer>1</integer><key>\(key)</key><true/></dict>"
                )
            ).first
        }
        #expect(message("Price") == "unknown key `Price` is ignored; did you mean `price`?")
        #expect(message("quantiy") == "unknown key `quantiy` is ignored; did you mean `quantity`?")
        #expect(message("piad") == "unknown key `piad` is ignored; did you mean `paid`?")
        #expect(
            message("colour")
                == "unknown key `colour` is ignored; known keys: name, id, type, code, codes, quantity, paid, price, percent, amount, minimum, start, end, priority, enabled, coupon, limit, cap, get, targets, products, customer_groups, uses, uses_per_customer"
        )
    }

    @Test("unknown root keys are warnings too")
    func rootKeys() {
        let xml = "<plist><dict>\n<key>promotions</key><array/>\n<key>verison</key><integer>1</integer></dict></plist>"
        #expect(found(xml) == ["promotion.unknown-key@3:1 -"])
        #expect(messages(xml) == ["unknown key `verison` is ignored; did you mean `version`?"])
    }
}
