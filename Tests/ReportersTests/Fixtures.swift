import Pricing
import Promotions

/// Two files: one with an error, a warning and an expired promotion, named so that every escape is
/// needed; one clean.
func fixtureFiles() -> [PromotionFile] {
    let broken = """
        <plist><array>
        <dict><key>name</key><string>50% off, "mugs"</string><key>type</key><string>percent</string>
        <key>code</key><string>MUG</string><key>percent</key><real>150</real></dict>
        <dict><key>name</key><string>ok</string><key>type</key><string>cart</string><key>amount</key><integer>1</integer>
        <key>end</key><date>2026-01-01T00:00:00Z</date><key>a
        b</key><true/></dict>
        </array></plist>
        """
    let clean =
        "<plist><array><dict><key>name</key><string>c</string><key>type</key><string>cart</string><key>amount</key><integer>1</integer></dict></array></plist>"
    let checks = PromotionChecks(expiryInstant: try! Instant(rfc3339: "2026-11-21T10:00:00Z"))
    return [
        PromotionFile.load(bytes: Array(broken.utf8), name: "rules/odd:name, v1.plist", checks: checks),
        PromotionFile.load(bytes: Array(clean.utf8), name: "clean.plist", checks: checks)
    ]
}
