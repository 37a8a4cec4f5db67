import BatchPricing
import CheckoutKit
import Foundation
import Synchronization
import Testing

@Suite("CheckoutKit: the engine as a library")
struct CheckoutKitTests {
    static let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Rules")

    /// The original app's published carts and their totals (docs/pricing.md).
    static let published: [(cart: String, total: Int64)] = [
        (#"["VOUCHER", "TSHIRT", "MUG"]"#, 3250), (#"["VOUCHER", "TSHIRT", "VOUCHER"]"#, 2500),
        (#"["TSHIRT", "TSHIRT", "TSHIRT", "VOUCHER", "TSHIRT"]"#, 8100),
        (#"["VOUCHER", "TSHIRT", "VOUCHER", "VOUCHER", "MUG", "TSHIRT", "TSHIRT"]"#, 7450)
    ]

    /// The shipped store (Rules/).
    static func shipped() throws -> Checkout {
        try Checkout(
            catalog: rules.appendingPathComponent("Products.json").path,
            promotions: rules.appendingPathComponent("Promotions.plist").path)
    }

    @Test("prices the original app's published carts from the shipped files")
    func published() throws {
        let checkout = try Self.shipped()
        let at = try Instant(rfc3339: "2026-11-25T10:00:00Z")
        for (cart, total) in Self.published { #expect(try checkout.price(cart: cart, at: at).total == total) }
        let receipt = try checkout.price(cart: #"["VOUCHER", "VOUCHER"]"#, at: at)
        #expect(checkout.json(receipt).contains(#""total": "5.00""#))
        #expect(checkout.text(receipt).contains("VOUCHER 2x1"))
        let explanations = try checkout.explain(receipt, cart: #"["VOUCHER", "VOUCHER"]"#)
        #expect(explanations.map(\.status) == [.applied])
    }

    @Test("explain(cart:) explains the receipt it returns; text(cart:) ends with the hints, as checkout price")
    func explainedAndHints() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("checkoutkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let plist = dir.appendingPathComponent("Promotions.plist")
        try """
        <plist version="1.0"><array>
        <dict><key>id</key><string>members</string><key>name</key><string>Members</string>
          <key>type</key><string>percent</string><key>code</key><string>MUG</string>
          <key>percent</key><integer>50</integer><key>coupon</key><string>SECRET</string></dict>
        <dict><key>name</key><string>VOUCHER 2x1</string><key>type</key><string>combo</string>
          <key>code</key><string>VOUCHER</string><key>quantity</key><integer>2</integer>
          <key>paid</key><integer>1</integer></dict>
        </array></plist>
        """.write(to: plist, atomically: true, encoding: .utf8)
        let checkout = try Checkout(
            catalog: Self.rules.appendingPathComponent("Products.json").path, promotions: plist.path)
        let at = try Instant(rfc3339: "2026-11-25T10:00:00Z")
        // With the coupon: the mug half price (3.75 off), and the explanation of that receipt.
        let (receipt, explanations) = try checkout.explain(cart: #"["MUG", "VOUCHER"]"#, coupons: ["secret"], at: at)
        #expect(receipt.total == 375 + 500)
        #expect(explanations.map(\.id) == ["members", "VOUCHER 2x1"])
        #expect(explanations.map(\.status) == [.applied, .belowThreshold])
        // The receipt's own cart and coupons given again: the same explanations.
        let again = try checkout.explain(receipt, cart: #"["MUG", "VOUCHER"]"#, coupons: ["SECRET"])
        #expect(again.map(\.status) == [.applied, .belowThreshold])
        // The text of the cart, as `checkout price Rules/... --at 2026-11-25T10:00:00Z` prints it:
        // its hint last (VOUCHER 2x1 with one more voucher saves 5.00).
        #expect(
            try checkout.text(cart: #"["VOUCHER"]"#, at: at) == """
                Receipt 2026-11-25T10:00:00Z (EUR)
                ============================================
                VOUCHER  Cabify Voucher  1 × 5.00 €   5.00 €
                --------------------------------------------
                Subtotal                              5.00 €
                Total                                 5.00 €
                Add 1 more VOUCHER (Cabify Voucher) to get "VOUCHER 2x1": save 5.00 €.

                """)
    }

    @Test("calls on many threads at once share the readers and agree with one thread's answers")
    func concurrentCalls() throws {
        let checkout = try Self.shipped()
        let at = try Instant(rfc3339: "2026-11-25T10:00:00Z")
        let totals = Mutex([Int64](repeating: 0, count: 400))
        DispatchQueue.concurrentPerform(iterations: 400) { index in
            let total = (try? checkout.price(cart: Self.published[index % 4].cart, at: at).total) ?? -1
            totals.withLock { $0[index] = total }
        }
        #expect(totals.withLock { $0 } == (0..<400).map { Self.published[$0 % 4].total })
    }

    @Test("a cart that cannot be priced names the item; a missing file is a typed error")
    func errors() throws {
        let checkout = try Self.shipped()
        #expect(throws: InputError.self) { try checkout.price(cart: #"["HAT"]"#) }
        do {
            _ = try checkout.price(cart: #"["MUG", "HAT"]"#)
        } catch {
            #expect(error.description == #"cart: items[1]: unknown product code "HAT""#)
        }
        #expect(throws: PricingRulesError.self) { try Checkout(catalog: "/nonexistent.json", promotions: "x.plist") }
    }
}
