import Promotions
import Testing

@Suite("promotion.expired") struct ExpiredTests {
    let xml = arrayPlist(
        "<dict><key>name</key><string>old</string><key>type</key><string>cart</string><key>amount</key><integer>1</integer>\n<key>end</key>\n<date>2026-11-01T00:00:00Z</date></dict>"
    )

    @Test("a window that ended is a warning at the end date; the end is exclusive")
    func expired() {
        #expect(
            found(xml, checks: PromotionChecks(expiryInstant: instant("2026-11-21T10:00:00Z"))) == [
                "promotion.expired@6:1 old"
            ])
        #expect(
            found(xml, checks: PromotionChecks(expiryInstant: instant("2026-11-01T00:00:00Z"))) == [
                "promotion.expired@6:1 old"
            ])
        #expect(found(xml, checks: PromotionChecks(expiryInstant: instant("2026-10-31T23:59:59Z"))) == [])
        let file = load(xml, checks: PromotionChecks(expiryInstant: instant("2026-11-21T10:00:00Z")))
        #expect(file.diagnostics.first?.severity == .warning)
        #expect(
            file.diagnostics.first?.message
                == "the promotion ended at 2026-11-01T00:00:00Z, before 2026-11-21T10:00:00Z: it no longer applies; remove it or move its `end`"
        )
        #expect(file.promotions.count == 1)
        // Checked at the very end: not "before" it.
        let atTheEnd = load(xml, checks: PromotionChecks(expiryInstant: instant("2026-11-01T00:00:00Z")))
        #expect(
            atTheEnd.diagnostics.first?.message
                == "the promotion ended at 2026-11-01T00:00:00Z, the instant checked: it no longer applies; remove it or move its `end`"
        )
    }

    @Test("no instant, no expiry check")
    func noInstant() {
        #expect(found(xml) == [])
    }
}
