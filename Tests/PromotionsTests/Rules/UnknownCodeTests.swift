import Promotions
import Testing

@Suite("promotion.unknown-code") struct UnknownCodeTests {
    let xml = arrayPlist(
        "<dict><key>name</key><string>p</string><key>type</key><string>percent</string><key>percent</key><integer>5</integer>\n<key>codes</key><array>\n  <string>MUG</string>\n  <string>TSHRT</string>\n</array></dict>"
    )

    @Test("with --catalog, each unknown code at its string, with a hint")
    func unknownCodes() {
        let checks = PromotionChecks(catalog: store, checksProducts: true)
        #expect(found(xml, checks: checks) == ["promotion.unknown-code@7:3 p"])
        #expect(
            messages(xml, checks: checks) == [
                "unknown product code `TSHRT`: the catalog has no such product; did you mean `TSHIRT`?"
            ])
    }

    @Test("pricing does not check codes: such a rule simply never matches")
    func notForPricing() {
        let file = load(xml, checks: PromotionChecks(catalog: store))
        #expect(file.diagnostics == [])
        #expect(file.promotions.count == 1)
    }
}
