import Foundation
import Testing

/// `checkout price --explain` and the near-miss hints, through the binary (docs/explanations.md).
@Suite("Explanations, end to end", .serialized)
struct ExplainCommandTests {
    static let catalog = PromotionsV2CommandTests.catalog

    static func dict(_ body: String) -> String { "<dict>\(body)</dict>" }

    /// One promotion of each status, in this file order.
    static let promotions =
        "<plist><array>"
        + [
            "<key>name</key><string>Off</string><key>type</key><string>percent</string><key>code</key><string>MUG</string><key>percent</key><integer>50</integer><key>enabled</key><false/>",
            "<key>name</key><string>Later</string><key>type</key><string>percent</string><key>code</key><string>MUG</string><key>percent</key><integer>50</integer><key>start</key><date>2027-01-01T00:00:00Z</date>",
            "<key>name</key><string>Gone</string><key>type</key><string>percent</string><key>code</key><string>MUG</string><key>percent</key><integer>50</integer><key>end</key><date>2026-01-01T00:00:00Z</date>",
            "<key>name</key><string>Members</string><key>type</key><string>percent</string><key>code</key><string>MUG</string><key>percent</key><integer>50</integer><key>coupon</key><string>TOPSECRET</string>",
            "<key>name</key><string>Mug 10</string><key>type</key><string>percent</string><key>code</key><string>MUG</string><key>percent</key><integer>10</integer>",
            "<key>name</key><string>Mug 20</string><key>type</key><string>percent</string><key>code</key><string>MUG</string><key>percent</key><integer>20</integer>",
            "<key>name</key><string>TSHIRT 3+</string><key>type</key><string>bulk</string><key>code</key><string>TSHIRT</string><key>quantity</key><integer>3</integer><key>price</key><real>19</real>",
            "<key>name</key><string>Caps</string><key>type</key><string>bxgy</string><key>code</key><string>CAP</string><key>targets</key><array><string>MUG</string></array><key>quantity</key><integer>1</integer>",
            "<key>name</key><string>Trio</string><key>type</key><string>bundle</string><key>codes</key><array><string>TSHIRT</string><string>VOUCHER</string></array><key>quantity</key><integer>3</integer><key>price</key><real>30</real>",
            "<key>name</key><string>Dear voucher</string><key>type</key><string>bulk</string><key>code</key><string>VOUCHER</string><key>quantity</key><integer>1</integer><key>price</key><real>9</real>",
            "<key>name</key><string>Five off 100</string><key>type</key><string>cart</string><key>amount</key><real>5</real><key>minimum</key><real>100</real>",
            "<key>name</key><string>Ten percent</string><key>type</key><string>cart</string><key>percent</key><integer>10</integer>",
            "<key>name</key><string>One off</string><key>type</key><string>cart</string><key>amount</key><real>1</real>"
        ].map(dict).joined() + "</array></plist>"

    func explanations(_ receipt: [String: Any]) -> [String] {
        (receipt["explanations"] as? [[String: Any]] ?? []).map { e in
            var text = "\(e["name"] as? String ?? "?") \(e["status"] as? String ?? "?")"
            for key in ["start", "end", "discount", "by"] {
                if let value = e[key] as? String { text += " \(key)=\(value)" }
            }
            if let missing = e["missing"] as? [String: Any] {
                text +=
                    " missing="
                    + ((missing["code"] as? String).map { "\($0)×\(missing["units"] as? Int ?? -1)" }
                        ?? "\(missing["amount"] as? String ?? "?")")
            }
            return text
        }
    }

    @Test("every status, in file order, with its extra members; the coupon never shown")
    func statuses() throws {
        let dir = try temporaryDirectory([
            "p.plist": Self.promotions, "c.json": Self.catalog,
            "cart.json": #"{"items": ["MUG", {"code": "TSHIRT", "quantity": 2}, "VOUCHER"]}"#
        ])
        let run = try checkout(
            [
                "price", "cart.json", "--promotions", "p.plist", "--catalog", "c.json", "--format", "json", "--explain",
                "--at", "2026-06-01T00:00:00Z"
            ], in: dir)
        #expect(run.status == 0)
        let receipt = try json(run.stdout)
        // MUG 7.50, 2 TSHIRT 40.00, VOUCHER 5.00. First step: Trio 45.00 − 30.00 = 15.00, Mug 20 1.50, Mug 10 0.75;
        // Trio, then Mug 20 apply. S = 52.50 − 16.50 = 36.00: 10 % = 3.60 beats 1.00; 100.00 is 64.00 away.
        #expect(
            explanations(receipt) == [
                "Off disabled",
                "Later not-started start=2027-01-01T00:00:00Z",
                "Gone ended end=2026-01-01T00:00:00Z",
                "Members needs-coupon",
                "Mug 10 outranked by=Mug 20",
                "Mug 20 applied discount=1.50",
                "TSHIRT 3+ below-threshold missing=TSHIRT×1",
                "Caps below-threshold missing=CAP×1",
                "Trio applied discount=15.00",
                "Dear voucher no-discount",
                "Five off 100 below-threshold missing=64.00",
                "Ten percent applied discount=3.60",
                "One off outranked by=Ten percent"
            ])
        #expect(Array(receipt.keys).count == 11)
        #expect(run.stdout.hasSuffix("]\n}\n"))
        #expect(!run.stdout.contains("TOPSECRET"))
        #expect(!run.stdout.lowercased().contains("topsecret"))
    }

    @Test("text receipts end with up to three hints, largest saving first, each worked out by pricing")
    func hints() throws {
        let dir = try temporaryDirectory([
            "p.plist": Self.promotions, "c.json": Self.catalog,
            "cart.json": #"{"items": ["MUG", {"code": "TSHIRT", "quantity": 2}, "VOUCHER"]}"#
        ])
        let run = try checkout(
            ["price", "cart.json", "--promotions", "p.plist", "--catalog", "c.json", "--at", "2026-06-01T00:00:00Z"],
            in: dir)
        #expect(run.status == 0)
        let hints = run.stdout.split(separator: "\n").filter { $0.hasPrefix("Add ") }
        // TSHIRT 3+ with a third shirt: the Trio then groups the three shirts (60.00 − 30.00) first, so no
        // shirt is left for the bulk price: no hint. Caps with a cap: the mug free, 7.50.
        #expect(hints == [#"Add 1 more CAP (Cabify Cap) to get "Caps": save 7.50 €."#])
        #expect(run.stdout.hasSuffix(#"Add 1 more CAP (Cabify Cap) to get "Caps": save 7.50 €."# + "\n"))
        #expect(!run.stdout.contains("TOPSECRET"))
    }

    @Test("hints in order of saving, at most three")
    func hintOrder() throws {
        let plist =
            "<plist><array>"
            + [
                "<key>name</key><string>Mugs</string><key>type</key><string>combo</string><key>code</key><string>MUG</string><key>quantity</key><integer>2</integer><key>paid</key><integer>1</integer>",
                "<key>name</key><string>Shirts</string><key>type</key><string>bulk</string><key>code</key><string>TSHIRT</string><key>quantity</key><integer>2</integer><key>price</key><real>15</real>",
                "<key>name</key><string>Vouchers</string><key>type</key><string>amount</string><key>code</key><string>VOUCHER</string><key>quantity</key><integer>3</integer><key>amount</key><real>1</real>",
                "<key>name</key><string>Caps</string><key>type</key><string>percent</string><key>code</key><string>CAP</string><key>quantity</key><integer>2</integer><key>percent</key><integer>50</integer>"
            ].map(Self.dict).joined() + "</array></plist>"
        let dir = try temporaryDirectory([
            "p.plist": plist, "c.json": Self.catalog, "cart.json": #"["MUG", "TSHIRT", "VOUCHER", "CAP"]"#
        ])
        let run = try checkout(["price", "cart.json", "--promotions", "p.plist", "--catalog", "c.json"], in: dir)
        // Shirts 2 × 5.00 = 10.00; Caps 2 × 12.00 × 50 % = 12.00; Mugs 7.50; Vouchers 3 × 1.00 = 3.00 (needs 2 more).
        #expect(
            run.stdout.split(separator: "\n").filter { $0.hasPrefix("Add ") } == [
                #"Add 1 more CAP (Cabify Cap) to get "Caps": save 12.00 €."#,
                #"Add 1 more TSHIRT (Cabify T-Shirt) to get "Shirts": save 10.00 €."#,
                #"Add 1 more MUG (Cabify Coffee Mug) to get "Mugs": save 7.50 €."#
            ])
    }

    @Test("v2 forms of missing: a bxgy one unit short, a bundle two short, a cart minimum an amount short")
    func missingForms() throws {
        let plist =
            "<plist><array>"
            + [
                "<key>name</key><string>3 for 2</string><key>type</key><string>bxgy</string><key>code</key><string>MUG</string><key>quantity</key><integer>2</integer>",
                "<key>name</key><string>Any 3</string><key>type</key><string>bundle</string><key>codes</key><array><string>CAP</string><string>TSHIRT</string></array><key>quantity</key><integer>3</integer><key>percent</key><integer>10</integer>",
                "<key>name</key><string>Big</string><key>type</key><string>cart</string><key>percent</key><integer>10</integer><key>minimum</key><real>50</real>"
            ].map(Self.dict).joined() + "</array></plist>"
        let dir = try temporaryDirectory([
            "p.plist": plist, "c.json": Self.catalog, "cart.json": #"[{"code": "MUG", "quantity": 2}, "CAP"]"#
        ])
        let run = try checkout(
            ["price", "cart.json", "--promotions", "p.plist", "--catalog", "c.json", "--format", "json", "--explain"],
            in: dir)
        #expect(
            explanations(try json(run.stdout)) == [
                "3 for 2 below-threshold missing=MUG×1",
                "Any 3 below-threshold missing=CAP×2",
                "Big below-threshold missing=23.00"
            ])
        let text = try checkout(
            ["price", "cart.json", "--promotions", "p.plist", "--catalog", "c.json", "--explain"], in: dir)
        #expect(
            text.stdout.contains(
                """
                Promotions:
                  "3 for 2" (bxgy): 1 more MUG would make it apply
                  "Any 3" (bundle): 2 more CAP would make it apply
                  "Big" (cart): 23.00 € more spend would make it apply

                """))
    }

    @Test("--explain on a batch: each receipt's explanations, errors unchanged")
    func batch() throws {
        let dir = try temporaryDirectory([
            "p.plist": Self.promotions, "c.json": Self.catalog,
            "day.ndjson":
                "{\"id\": 1, \"items\": [\"MUG\"]}\n[\"HAT\"]\n{\"id\": \"b\", \"coupons\": [\"topsecret\"], \"items\": [\"MUG\"]}\n"
        ])
        let run = try checkout(
            [
                "price", "day.ndjson", "--promotions", "p.plist", "--catalog", "c.json", "--format", "json",
                "--explain",
                "--at", "2026-06-01T00:00:00Z"
            ], in: dir)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(
            try explanations(json(lines[0])).prefix(6) == [
                "Off disabled", "Later not-started start=2027-01-01T00:00:00Z",
                "Gone ended end=2026-01-01T00:00:00Z", "Members needs-coupon",
                "Mug 10 outranked by=Mug 20", "Mug 20 applied discount=1.50"
            ])
        #expect(lines[1] == #"{"line":2,"error":"items[0]: unknown product code \"HAT\""}"#)
        #expect(try explanations(json(lines[2]))[3] == "Members applied discount=3.75")
        #expect(!lines[0].contains("TOPSECRET"))
    }
}
