import Promotions
import Testing

@Suite("promotion.coupon-exposed") struct CouponExposedTests {
    func promotion(id: String?, name: String, coupon: String?) -> String {
        "<dict>" + (id.map { "<key>id</key><string>\($0)</string>" } ?? "")
            + "<key>name</key><string>\(name)</string><key>type</key><string>cart</string><key>percent</key><integer>10</integer>"
            + (coupon.map { "<key>coupon</key><string>\($0)</string>" } ?? "") + "</dict>"
    }

    let message = { (what: String) in
        "the promotion's \(what) its coupon (in some letter case): receipts and explanations show them, so anyone would learn the coupon; choose words that do not contain it"
    }

    /// The check is asked for (`validate --exposed-coupons`).
    let asked = PromotionChecks(exposedCoupons: true)

    @Test("an id or a name containing the coupon, in any letter case: a warning at the promotion's dict")
    func positive() {
        assertDiagnostics(
            arrayPlist(
                [
                    "1️⃣" + promotion(id: "spring", name: "Ten off", coupon: "SPRING"),
                    "2️⃣" + promotion(id: "x1", name: "The Spring-Sale", coupon: "spring-sale"),
                    "3️⃣" + promotion(id: "vip-Gold-1", name: "gold for VIPs: GOLD", coupon: "gold"),
                    // No id: the name is the id.
                    "4️⃣" + promotion(id: nil, name: "XMAS", coupon: "xmas")
                ].joined(separator: "\n")),
            [
                ExpectedDiagnostic("1️⃣", "promotion.coupon-exposed", message("id contains")),
                ExpectedDiagnostic("2️⃣", "promotion.coupon-exposed", message("name contains")),
                ExpectedDiagnostic("3️⃣", "promotion.coupon-exposed", message("id and name contain")),
                ExpectedDiagnostic("4️⃣", "promotion.coupon-exposed", message("id and name contain"))
            ], checks: asked)
        let file = load(arrayPlist(promotion(id: "spring", name: "x", coupon: "SPRING")), checks: asked)
        #expect(file.diagnostics.first?.severity == .warning)
        #expect(file.diagnostics.first?.promotion == "spring")
        #expect(file.diagnostics.first?.message.contains("SPRING") == false)
    }

    @Test("no warning without a coupon, or when neither id nor name contains it")
    func negatives() {
        assertDiagnostics(
            arrayPlist(
                promotion(id: "spring", name: "Spring", coupon: nil)
                    + promotion(id: "cart-10", name: "10 % off with a coupon", coupon: "SPRING")
                    + promotion(id: "spr", name: "ing", coupon: "spring")), [], checks: asked)
    }

    @Test("not asked for (the default, and what pricing loads with): no warning, even for a coupon in the id")
    func offByDefault() {
        assertDiagnostics(arrayPlist(promotion(id: "spring", name: "Spring", coupon: "SPRING")), [])
    }

    @Test("filed under its promotion (its entry: JUnit's testcase), not the file")
    func entry() {
        let file = load(
            arrayPlist(
                promotion(id: "plain", name: "Plain", coupon: nil)
                    + promotion(id: "spring", name: "Ten off", coupon: "SPRING")),
            checks: asked)
        #expect(file.diagnostics.map(\.id) == ["promotion.coupon-exposed"])
        #expect(file.diagnostics.map(\.entry) == [1])
    }
}
