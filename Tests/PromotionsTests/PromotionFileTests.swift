import Pricing
import Promotions
import Testing

@Suite("Reading promotion files")
struct PromotionFileTests {
    @Test("the original app's plist parses unchanged")
    func originalPlist() {
        let file = load(PromotionsTests.originalPlist)
        #expect(file.diagnostics == [])
        #expect(
            file.promotions == [
                Promotion(
                    id: "VOUCHER 2x1", name: "VOUCHER 2x1", rule: .combo(groupSize: 2, paid: 1), codes: ["VOUCHER"]),
                Promotion(
                    id: "TSHIRT 3+", name: "TSHIRT 3+", rule: .bulk(threshold: 3, unitPrice: 1900), codes: ["TSHIRT"])
            ])
        #expect(file.currency == .euro)
    }

    @Test("the dict root form, with every key of every type")
    func dictRootEveryKey() {
        let file = load(
            """
            <plist version="1.0"><dict>
              <key>version</key><integer>1</integer>
              <key>currency</key><string>EUR</string>
              <key>promotions</key>
              <array>
                <dict>
                  <key>id</key><string>mugs-3x2</string> <key>name</key><string>3 mugs for 2</string>
                  <key>type</key><string>combo</string> <key>codes</key><array><string>MUG</string><string>CUP</string></array>
                  <key>quantity</key><integer>3</integer> <key>paid</key><integer>2</integer>
                  <key>start</key><date>2026-12-01T00:00:00Z</date> <key>end</key><date>2027-01-01T00:00:00Z</date>
                  <key>priority</key><integer>-2</integer> <key>enabled</key><false/> <key>coupon</key><string>Xmas</string>
                </dict>
                <dict><key>name</key><string>b</string><key>type</key><string>bulk</string><key>code</key><string>TSHIRT</string>
                      <key>quantity</key><integer>3</integer><key>price</key><string> 1.95e1 </string></dict>
                <dict><key>name</key><string>p</string><key>type</key><string>percent</string><key>code</key><string>MUG</string>
                      <key>percent</key><real>12.5</real><key>quantity</key><integer>2</integer></dict>
                <dict><key>name</key><string>a</string><key>type</key><string>amount</string><key>code</key><string>MUG</string>
                      <key>amount</key><integer>1</integer></dict>
                <dict><key>name</key><string>c</string><key>type</key><string>cart</string><key>percent</key><integer>10</integer>
                      <key>minimum</key><real>50.0</real></dict>
                <dict><key>name</key><string>d</string><key>type</key><string>cart</string><key>amount</key><real>5.5</real></dict>
              </array>
            </dict></plist>
            """)
        #expect(file.diagnostics == [])
        #expect(
            file.promotions == [
                Promotion(
                    id: "mugs-3x2", name: "3 mugs for 2", rule: .combo(groupSize: 3, paid: 2), codes: ["MUG", "CUP"],
                    start: instant("2026-12-01T00:00:00Z"), end: instant("2027-01-01T00:00:00Z"), priority: -2,
                    isEnabled: false, coupon: "Xmas"),
                Promotion(id: "b", name: "b", rule: .bulk(threshold: 3, unitPrice: 1950), codes: ["TSHIRT"]),
                Promotion(id: "p", name: "p", rule: .percent(minimumQuantity: 2, hundredths: 1250), codes: ["MUG"]),
                Promotion(id: "a", name: "a", rule: .amount(minimumQuantity: 1, amountOff: 100), codes: ["MUG"]),
                Promotion(id: "c", name: "c", rule: .cartPercent(minimum: 5000, hundredths: 1000)),
                Promotion(id: "d", name: "d", rule: .cartAmount(minimum: 0, amountOff: 550))
            ])
    }

    @Test("money is read in the file's currency, even when `currency` comes after the promotions")
    func currencyDigits() {
        let promotion =
            "<dict><key>name</key><string>b</string><key>type</key><string>bulk</string><key>code</key><string>X</string><key>quantity</key><integer>1</integer><key>price</key><real>1.255</real></dict>"
        let kwdFirst = load(
            "<plist><dict><key>currency</key><string>KWD</string><key>promotions</key><array>\(promotion)</array></dict></plist>"
        )
        #expect(kwdFirst.diagnostics == [])
        #expect(kwdFirst.promotions.first?.rule == .bulk(threshold: 1, unitPrice: 1255))
        let kwdLast = load(
            "<plist><dict><key>promotions</key><array>\(promotion)</array><key>currency</key><string>KWD</string></dict></plist>"
        )
        #expect(kwdLast.diagnostics == [])
        #expect(kwdLast.currency.code == "KWD")
        #expect(kwdLast.promotions.first?.rule == .bulk(threshold: 1, unitPrice: 1255))
        let euros = load("<plist><array>\(promotion)</array></plist>")
        #expect(
            euros.diagnostics.map(\.message) == [
                "`price` 1.255 is not a whole number of minor units of EUR (2 decimal places)"
            ])
    }

    @Test("with a catalog, its currency governs the amounts")
    func catalogCurrency() throws {
        let yen = try Catalog(
            currency: Currency(code: "JPY")!, products: [Product(code: "TEA", name: "Tea", price: 999)])
        let xml = arrayPlist(
            "<dict><key>name</key><string>b</string><key>type</key><string>bulk</string><key>code</key><string>TEA</string><key>quantity</key><integer>2</integer><key>price</key><real>899.5</real></dict>"
        )
        #expect(found(xml, checks: PromotionChecks(catalog: yen)) == ["promotion.invalid-value@4:166 b"])
        #expect(found(xml) == [])
    }

    @Test("promotions with errors are left out; the others are kept in file order")
    func partialResults() {
        let file = load(
            arrayPlist(
                """
                <dict><key>name</key><string>ok1</string><key>type</key><string>cart</string><key>amount</key><integer>1</integer></dict>
                <dict><key>name</key><string>bad</string><key>type</key><string>cart</string></dict>
                <dict><key>name</key><string>ok2</string><key>type</key><string>cart</string><key>amount</key><integer>2</integer></dict>
                """))
        #expect(file.promotions.map(\.id) == ["ok1", "ok2"])
        #expect(file.errorCount == 1)
        #expect(file.warningCount == 0)
    }

    @Test("a check fails on any error, and on warnings only when strict")
    func checkOutcome() {
        let later = PromotionChecks(expiryInstant: instant("2026-11-21T10:00:00Z"))
        let clean = load(
            arrayPlist(
                "<dict><key>name</key><string>ok</string><key>type</key><string>cart</string><key>amount</key><integer>1</integer></dict>"
            ), checks: later)
        let warned = load(
            arrayPlist(
                "<dict><key>name</key><string>old</string><key>type</key><string>cart</string><key>amount</key><integer>1</integer><key>end</key><date>2026-11-01T00:00:00Z</date></dict>"
            ), checks: later)
        let broken = load(
            arrayPlist("<dict><key>name</key><string>bad</string><key>type</key><string>cart</string></dict>"),
            checks: later)
        #expect([clean, warned, broken].errorCount == 1 && [clean, warned, broken].warningCount == 1)
        #expect(![clean].failCheck(strict: true) && ![PromotionFile]().failCheck(strict: true))
        #expect(![clean, warned].failCheck(strict: false) && [clean, warned].failCheck(strict: true))
        #expect([clean, broken].failCheck(strict: false))
    }

    @Test("a file with many problems gets all of them, in file order")
    func manyProblems() {
        let xml = arrayPlist(
            """
            <dict>
              <key>name</key><string>broken</string>
              <key>type</key><string>combo</string>
              <key>quantiy</key><integer>3</integer>
              <key>paid</key><integer>5</integer>
              <key>price</key><real>1.999</real>
              <key>start</key><date>2027-01-01T00:00:00Z</date>
              <key>end</key><date>2026-01-01T00:00:00Z</date>
              <key>enabled</key><string>yes</string>
              <key>paid</key><integer>1</integer>
            </dict>
            <dict>
              <key>name</key><string>broken</string>
              <key>type</key><string>bogo</string>
              <key>code</key><string>A</string>
              <key>codes</key><array><string>B</string></array>
            </dict>
            <string>not a promotion</string>
            <dict><key>type</key><string>percent</string><key>code</key><string>A</string><key>percent</key><real>0.001</real></dict>
            """)
        #expect(
            found(xml) == [
                "promotion.missing-key@4:1 broken",  // quantity and code/codes
                "promotion.missing-key@4:1 broken",
                "promotion.unknown-key@7:3 broken",
                "promotion.invalid-value@9:19 broken",  // price: forbidden in a combo (and not whole cents)
                "promotion.date-range@11:17 broken",
                "promotion.invalid-value@12:21 broken",  // enabled
                "promotion.duplicate-key@13:3 broken",
                "promotion.duplicate-id@16:18 broken",
                "promotion.unknown-type@17:18 broken",
                "promotion.invalid-value@19:19 broken",  // code and codes
                "plist.structure@21:1 -",
                "promotion.missing-key@22:1 -",  // name
                "promotion.invalid-value@22:97 -"  // percent 0.001
            ])
    }
}
