import Pricing
import Promotions
import Testing

/// Wraps promotion dicts in an array-root plist. Body line k is file line k + 3.
func arrayPlist(_ body: String) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n" + body + "\n</array>\n</plist>\n"
}

func load(_ xml: String, checks: PromotionChecks = PromotionChecks()) -> PromotionFile {
    PromotionFile.load(bytes: Array(xml.utf8), name: "Promotions.plist", checks: checks)
}

/// Diagnostics as `id@line:column promotion`, for exact comparisons.
func found(_ xml: String, checks: PromotionChecks = PromotionChecks()) -> [String] {
    load(xml, checks: checks).diagnostics.map { "\($0.id)@\($0.location) \($0.promotion ?? "-")" }
}

func messages(_ xml: String, checks: PromotionChecks = PromotionChecks()) -> [String] {
    load(xml, checks: checks).diagnostics.map(\.message)
}

let store = try! Catalog(products: [
    Product(code: "VOUCHER", name: "Cabify Voucher", price: 500),
    Product(code: "TSHIRT", name: "Cabify T-Shirt", price: 2000),
    Product(code: "MUG", name: "Cabify Coffee Mug", price: 750),
    Product(code: "STICKER", name: "Sticker", price: 0)
])

func instant(_ text: String) -> Instant { try! Instant(rfc3339: text) }

/// The original app's Promotions.plist, byte for byte in its format: tabs, Apple's DOCTYPE, array root.
let originalPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <array>
    \t<dict>
    \t\t<key>code</key>
    \t\t<string>VOUCHER</string>
    \t\t<key>type</key>
    \t\t<string>combo</string>
    \t\t<key>name</key>
    \t\t<string>VOUCHER 2x1</string>
    \t\t<key>quantity</key>
    \t\t<integer>2</integer>
    \t\t<key>paid</key>
    \t\t<integer>1</integer>
    \t</dict>
    \t<dict>
    \t\t<key>code</key>
    \t\t<string>TSHIRT</string>
    \t\t<key>type</key>
    \t\t<string>bulk</string>
    \t\t<key>name</key>
    \t\t<string>TSHIRT 3+</string>
    \t\t<key>quantity</key>
    \t\t<integer>3</integer>
    \t\t<key>price</key>
    \t\t<real>19</real>
    \t</dict>
    </array>
    </plist>

    """

/// An expected diagnostic: at which marker, its ID and message.
struct ExpectedDiagnostic: CustomStringConvertible {
    var marker: String
    var id: String
    var message: String

    init(_ marker: String, _ id: String, _ message: String) {
        self.marker = marker
        self.id = id
        self.message = message
    }

    var description: String { "\(marker) \(id): \(message)" }
}

/// In the style of swift-syntax's `assertParse`: `markedPlist` holds markers (1️⃣, 2️⃣, …) where
/// diagnostics are expected, just before the offending element's `<`. The markers are taken out,
/// the file loaded, and every diagnostic compared with the expected one at its marker's line and
/// column (columns count characters, from 1).
func assertDiagnostics(
    _ markedPlist: String, _ expected: [ExpectedDiagnostic], checks: PromotionChecks = PromotionChecks(),
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let markers = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]
    var plain = ""
    var positions: [String: String] = [:]
    var line = 1
    var column = 1
    var rest = Substring(markedPlist)
    outer: while let character = rest.first {
        for marker in markers where rest.hasPrefix(marker) {
            positions[marker] = "\(line):\(column)"
            rest = rest.dropFirst(marker.count)
            continue outer
        }
        plain.append(character)
        rest = rest.dropFirst()
        if character == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }
    let got = load(plain, checks: checks).diagnostics.map { "\($0.id)@\($0.location) \($0.message)" }
    let want = expected.map { "\($0.id)@\(positions[$0.marker] ?? "no marker \($0.marker)") \($0.message)" }
    #expect(got == want, sourceLocation: sourceLocation)
}
