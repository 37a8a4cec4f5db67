import Promotions
import Testing

@Suite("promotion.date-range") struct DateRangeTests {
    func window(_ start: String, _ end: String) -> String {
        arrayPlist(
            "<dict><key>name</key><string>w</string><key>type</key><string>cart</string><key>amount</key><integer>1</integer>\n<key>start</key><date>\(start)</date>\n<key>end</key><date>\(end)</date></dict>"
        )
    }

    @Test("start after or equal to end, at the end date")
    func startNotBeforeEnd() {
        #expect(found(window("2027-01-01T00:00:00Z", "2026-12-01T00:00:00Z")) == ["promotion.date-range@6:15 w"])
        #expect(found(window("2026-12-01T00:00:00Z", "2026-12-01T00:00:00Z")) == ["promotion.date-range@6:15 w"])
        #expect(
            messages(window("2026-12-01T01:00:00+01:00", "2026-12-01T00:00:00Z"))
                == [
                    "`end` (2026-12-01T00:00:00Z) must be after `start` (2026-12-01T00:00:00Z): as written the promotion is never active"
                ])
        #expect(found(window("2026-12-01T00:00:00Z", "2026-12-01T00:00:01Z")) == [])
    }
}
