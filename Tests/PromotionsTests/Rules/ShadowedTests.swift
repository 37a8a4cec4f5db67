import Pricing
import Promotions
import SeededRandom
import Testing
import Workloads

@Suite("promotion.shadowed") struct ShadowedTests {
    let checks = PromotionChecks(catalog: store, checksProducts: true)

    func promotion(_ name: String, _ body: String) -> String {
        "<dict><key>name</key><string>\(name)</string>\(body)</dict>"
    }

    func percent(_ value: String, code: String = "MUG", extra: String = "") -> String {
        "<key>type</key><string>percent</string><key>code</key><string>\(code)</string><key>percent</key><real>\(value)</real>\(extra)"
    }

    @Test("a percentage always beaten by a larger one: warned at its dict, naming the first that beats it")
    func positive() {
        assertDiagnostics(
            arrayPlist(
                [
                    "1️⃣" + promotion("Big", percent("20")), promotion("Bigger", percent("30")),
                    "2️⃣" + promotion("Small", percent("10"))
                ].joined(separator: "\n")),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.shadowed",
                    "`Bigger` (line 5) beats this promotion on every product and quantity where it gives a discount, whenever it is active: it can never apply; remove it or change one of them"
                ),
                ExpectedDiagnostic(
                    "2️⃣", "promotion.shadowed",
                    "`Big` (line 4) beats this promotion on every product and quantity where it gives a discount, whenever it is active: it can never apply; remove it or change one of them"
                )
            ], checks: checks)
    }

    @Test("no warning when the other is active less long, needs another coupon, or loses at some quantity")
    func negatives() {
        let window = "<key>start</key><date>2026-01-01T00:00:00Z</date><key>end</key><date>2026-06-01T00:00:00Z</date>"
        let later = "<key>start</key><date>2026-02-01T00:00:00Z</date><key>end</key><date>2026-06-01T00:00:00Z</date>"
        // Big only from February: Small applies in January.
        assertDiagnostics(
            arrayPlist(
                promotion("Big", percent("20", extra: later)) + promotion("Small", percent("10", extra: window))), [],
            checks: checks)
        // Big needs a coupon Small does not.
        assertDiagnostics(
            arrayPlist(
                promotion("Big", percent("20", extra: "<key>coupon</key><string>VIP</string>"))
                    + promotion("Small", percent("10"))), [], checks: checks)
        // A 2-for-1 on mugs beats 20 % at 2 units, but not at 1 (or 3): neither is shadowed.
        let combo =
            "<key>type</key><string>combo</string><key>code</key><string>MUG</string><key>quantity</key><integer>2</integer><key>paid</key><integer>1</integer>"
        assertDiagnostics(arrayPlist(promotion("Combo", combo) + promotion("Big", percent("20"))), [], checks: checks)
        // Big covers only MUG; Small also targets TSHIRT, where Big gives nothing.
        assertDiagnostics(
            arrayPlist(
                promotion("Big", percent("20"))
                    + promotion(
                        "Small",
                        "<key>type</key><string>percent</string><key>codes</key><array><string>MUG</string><string>TSHIRT</string></array><key>percent</key><real>10</real>"
                    )), [], checks: checks)
        // Disabled promotions neither shadow nor are reported.
        assertDiagnostics(
            arrayPlist(
                promotion("Big", percent("20", extra: "<key>enabled</key><false/>")) + promotion("Small", percent("10"))
            ), [], checks: checks)
    }

    @Test("ties: an equal discount shadows only when it wins the tie (priority, then file order)")
    func ties() {
        // Equal 10 % each: the first defined wins every tie, so the second is shadowed.
        assertDiagnostics(
            arrayPlist(promotion("A", percent("10")) + "\n1️⃣" + promotion("B", percent("10"))),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.shadowed",
                    "`A` (line 4) beats this promotion on every product and quantity where it gives a discount, whenever it is active: it can never apply; remove it or change one of them"
                )
            ], checks: checks)
        // With a higher priority, the later one wins the ties: the first is shadowed.
        assertDiagnostics(
            arrayPlist(
                "1️⃣" + promotion("A", percent("10")) + "\n"
                    + promotion("B", percent("10", extra: "<key>priority</key><integer>1</integer>"))),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.shadowed",
                    "`B` (line 5) beats this promotion on every product and quantity where it gives a discount, whenever it is active: it can never apply; remove it or change one of them"
                )
            ], checks: checks)
    }

    @Test("caps, thresholds and rounding: decided on every quantity without trying them all")
    func shapes() {
        // 50 % capped at 1.00 on a 7.50 mug: beats 10 % (0.75 per unit) only at 1 unit; from 2 units 10 % gives 1.50 > 1.00.
        assertDiagnostics(
            arrayPlist(
                promotion("Capped", percent("50", extra: "<key>cap</key><real>1</real>"))
                    + promotion("Ten", percent("10"))), [], checks: checks)
        // A bulk price of 7.00 from 1 unit (0.50 off each) against 5 % (0.375 → 0.38 per unit, rounded once per line):
        // 0.50·q > round(0.375·q) for every q: shadowed.
        let bulk =
            "<key>type</key><string>bulk</string><key>code</key><string>MUG</string><key>quantity</key><integer>1</integer><key>price</key><real>7</real>"
        assertDiagnostics(
            arrayPlist(promotion("Bulk", bulk) + "\n1️⃣" + promotion("Five", percent("5"))),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.shadowed",
                    "`Bulk` (line 4) beats this promotion on every product and quantity where it gives a discount, whenever it is active: it can never apply; remove it or change one of them"
                )
            ], checks: checks)
        // 3-for-2 on vouchers (5.00 off per 3) against 0.50 off each from 3 units: at 3 units 5.00 > 1.50, but at 4 units
        // 5.00 > 2.00, at 5 units 5.00 > 2.50 … at 11 units 15.00 > 5.50: the combo always wins where the amount gives anything.
        let combo =
            "<key>type</key><string>combo</string><key>code</key><string>VOUCHER</string><key>quantity</key><integer>3</integer><key>paid</key><integer>2</integer>"
        let amount =
            "<key>type</key><string>amount</string><key>code</key><string>VOUCHER</string><key>quantity</key><integer>3</integer><key>amount</key><real>0.5</real>"
        assertDiagnostics(
            arrayPlist(promotion("Combo", combo) + "\n1️⃣" + promotion("Amount", amount)),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.shadowed",
                    "`Combo` (line 4) beats this promotion on every product and quantity where it gives a discount, whenever it is active: it can never apply; remove it or change one of them"
                )
            ], checks: checks)
        // 2.00 off each from 1 unit is not shadowed by the 3-for-2 (2.00 at 1 unit, where the combo gives nothing), but
        // shadows it: 2.00·q ≥ 5.00·⌊q/3⌋ + 1.00 wherever the combo gives anything.
        let twoOff =
            "<key>type</key><string>amount</string><key>code</key><string>VOUCHER</string><key>amount</key><real>2</real>"
        assertDiagnostics(
            arrayPlist("1️⃣" + promotion("Combo", combo) + "\n" + promotion("TwoOff", twoOff)),
            [
                ExpectedDiagnostic(
                    "1️⃣", "promotion.shadowed",
                    "`TwoOff` (line 5) beats this promotion on every product and quantity where it gives a discount, whenever it is active: it can never apply; remove it or change one of them"
                )
            ], checks: checks)
    }

    @Test(
        "sound on random line promotions: a shadowed promotion never applies to any cart of up to 60 units a line, on products of equal and different prices"
    )
    func soundness() throws {
        var random = SplitMix64(seed: 2_026_12)
        let catalog = try Catalog(products: [
            Product(code: "A", name: "A", price: 750), Product(code: "B", name: "B", price: 1999),
            Product(code: "C", name: "C", price: 1), Product(code: "D", name: "D", price: 750)
        ])
        var warned = 0
        for _ in 0..<600 {
            var promotions: [Promotion] = []
            for index in 0..<Int.random(in: 2...7, using: &random) {
                let codes = Array(
                    Set(
                        (0..<Int.random(in: 1...3, using: &random)).map { _ in
                            ["A", "B", "C", "D"][Int.random(in: 0...3, using: &random)]
                        })
                ).sorted()
                let rule: Promotion.Rule
                switch Int.random(in: 0...3, using: &random) {
                case 0:
                    let n = Int64.random(in: 2...4, using: &random)
                    rule = .combo(groupSize: n, paid: Int64.random(in: 0...(n - 1), using: &random))
                case 1:
                    rule = .bulk(
                        threshold: Int64.random(in: 1...4, using: &random),
                        unitPrice: [0, 500, 700, 1500][Int.random(in: 0...3, using: &random)])
                case 2:
                    rule = .percent(
                        minimumQuantity: Int64.random(in: 1...3, using: &random),
                        hundredths: [500, 1000, 1250, 3333][Int.random(in: 0...3, using: &random)],
                        cap: Bool.random(using: &random) ? [100, 2000][Int.random(in: 0...1, using: &random)] : nil)
                default:
                    rule = .amount(
                        minimumQuantity: Int64.random(in: 1...3, using: &random),
                        amountOff: [50, 100, 800][Int.random(in: 0...2, using: &random)])
                }
                promotions.append(
                    Promotion(
                        id: "p\(index)", name: "p\(index)", rule: rule, codes: codes,
                        priority: Int64.random(in: 0...1, using: &random)))
            }
            let xml = arrayPlist(promotions.map(Self.plist).joined(separator: "\n"))
            let file = load(xml, checks: PromotionChecks(catalog: catalog, checksProducts: true))
            let shadowed = Set(file.diagnostics.filter { $0.id == "promotion.shadowed" }.compactMap(\.promotion))
            warned += shadowed.count
            let engine = PricingEngine(rules: RuleSet(promotions: file.promotions, catalog: catalog))
            for quantity in 1...60 {
                for product in 0..<4 {
                    let receipt = try engine.price(
                        Cart(lines: [Cart.Line(product: product, quantity: Int64(quantity))]), now: Instant(seconds: 0))
                    for applied in receipt.lines.flatMap(\.promotions) {
                        #expect(
                            !shadowed.contains(applied.id),
                            "\(applied.id) applied at \(quantity) of \(product): \(promotions)")
                    }
                }
            }
        }
        #expect(warned > 200)
    }

    static func plist(_ p: Promotion) -> String {
        var body =
            "<key>name</key><string>\(p.name)</string><key>priority</key><integer>\(p.priority)</integer><key>codes</key><array>"
            + p.codes.map { "<string>\($0)</string>" }.joined() + "</array>"
        func money(_ value: Int64) -> String { "\(value / 100).\(value % 100 < 10 ? "0" : "")\(value % 100)" }
        switch p.rule {
        case .combo(let k):
            let (n, m) = (k.groupSize, k.paid)
            body +=
                "<key>type</key><string>combo</string><key>quantity</key><integer>\(n)</integer><key>paid</key><integer>\(m)</integer>"
        case .bulk(let k):
            let (t, price) = (k.threshold, k.unitPrice)
            body +=
                "<key>type</key><string>bulk</string><key>quantity</key><integer>\(t)</integer><key>price</key><real>\(money(price))</real>"
        case .percent(let k):
            let (t, h, cap) = (k.minimumQuantity, k.hundredths, k.cap)
            body +=
                "<key>type</key><string>percent</string><key>quantity</key><integer>\(t)</integer><key>percent</key><real>\(money(h))</real>"
            if let cap { body += "<key>cap</key><real>\(money(cap))</real>" }
        case .amount(let k):
            let (t, a) = (k.minimumQuantity, k.amountOff)
            body +=
                "<key>type</key><string>amount</string><key>quantity</key><integer>\(t)</integer><key>amount</key><real>\(money(a))</real>"
        default: break
        }
        return "<dict>\(body)</dict>"
    }

    @Test("filed under the shadowed promotion (its entry: JUnit's testcase), not the file")
    func entry() {
        let xml = arrayPlist(
            [promotion("Big", percent("20")), promotion("Bigger", percent("30")), promotion("Small", percent("10"))]
                .joined(separator: "\n"))
        let file = load(xml, checks: checks)
        #expect(file.diagnostics.map(\.id) == ["promotion.shadowed", "promotion.shadowed"])
        #expect(file.diagnostics.map(\.entry) == [0, 2])
        #expect(file.diagnostics.map(\.promotion) == ["Big", "Small"])
    }
}
