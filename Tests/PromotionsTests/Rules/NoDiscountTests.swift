import Promotions
import Testing

@Suite("promotion.no-discount") struct NoDiscountTests {
    let checks = PromotionChecks(catalog: store, checksProducts: true)

    @Test("a bulk price at or above the list price, at the price")
    func bulkNotCheaper() {
        let xml = arrayPlist(
            "<dict><key>name</key><string>b</string><key>type</key><string>bulk</string><key>codes</key><array><string>TSHIRT</string><string>MUG</string></array><key>quantity</key><integer>2</integer>\n<key>price</key><real>20.00</real></dict>"
        )
        #expect(found(xml, checks: checks) == ["promotion.no-discount@5:17 b", "promotion.no-discount@5:17 b"])
        #expect(
            messages(xml, checks: checks) == [
                "bulk price 20.00 is not below the list price of `TSHIRT` (20.00): the promotion never lowers its price",
                "bulk price 20.00 is not below the list price of `MUG` (7.50): the promotion never lowers its price"
            ])
        #expect(load(xml, checks: checks).diagnostics.first?.severity == .warning)
    }

    @Test("any discount on a free product, at its code")
    func freeProduct() {
        let xml = arrayPlist(
            "<dict><key>name</key><string>p</string><key>type</key><string>percent</string><key>percent</key><integer>50</integer>\n<key>code</key><string>STICKER</string></dict>"
        )
        #expect(found(xml, checks: checks) == ["promotion.no-discount@5:16 p"])
        #expect(
            messages(xml, checks: checks) == [
                "`STICKER` is free (list price 0.00): the promotion never lowers its price"
            ])
    }
}
