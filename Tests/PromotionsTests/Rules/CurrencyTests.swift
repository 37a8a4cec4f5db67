import Pricing
import Promotions
import Testing

@Suite("promotion.currency") struct CurrencyTests {
    @Test("a file in another currency than the catalog's, at its currency")
    func mismatch() {
        let xml = "<plist><dict><key>promotions</key><array/>\n<key>currency</key>  <string>USD</string></dict></plist>"
        #expect(found(xml, checks: PromotionChecks(catalog: store)) == ["promotion.currency@2:22 -"])
        #expect(
            messages(xml, checks: PromotionChecks(catalog: store))
                == [
                    "the promotions are in USD but the catalog is in EUR; use the catalog's currency or remove `currency`"
                ])
        #expect(found(xml) == [])
    }

    @Test("a currency that is not an ISO 4217 code")
    func notACode() {
        #expect(
            found("<plist><dict><key>promotions</key><array/>\n<key>currency</key><string>euro</string></dict></plist>")
                == ["promotion.currency@2:20 -"])
    }
}
