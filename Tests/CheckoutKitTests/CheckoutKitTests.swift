import BatchPricing
import CheckoutKit
import Foundation
import Testing

@Suite("CheckoutKit: the engine as a library")
struct CheckoutKitTests {
    static let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Rules")

    @Test("prices the original app's published carts from the shipped files")
    func published() throws {
        let checkout = try Checkout(
            catalog: Self.rules.appendingPathComponent("Products.json").path,
            promotions: Self.rules.appendingPathComponent("Promotions.plist").path)
        let at = try Instant(rfc3339: "2026-11-25T10:00:00Z")
        let totals = try [
            #"["VOUCHER", "TSHIRT", "MUG"]"#, #"["VOUCHER", "TSHIRT", "VOUCHER"]"#,
            #"["TSHIRT", "TSHIRT", "TSHIRT", "VOUCHER", "TSHIRT"]"#,
            #"["VOUCHER", "TSHIRT", "VOUCHER", "VOUCHER", "MUG", "TSHIRT", "TSHIRT"]"#
        ].map { try checkout.price(cart: $0, at: at).total }
        #expect(totals == [3250, 2500, 8100, 7450])
        let receipt = try checkout.price(cart: #"["VOUCHER", "VOUCHER"]"#, at: at)
        #expect(checkout.json(receipt).contains(#""total": "5.00""#))
        #expect(checkout.text(receipt).contains("VOUCHER 2x1"))
        let explanations = try checkout.explain(receipt, cart: #"["VOUCHER", "VOUCHER"]"#)
        #expect(explanations.map(\.status) == [.applied])
    }

    @Test("a cart that cannot be priced names the item; a missing file is a typed error")
    func errors() throws {
        let checkout = try Checkout(
            catalog: Self.rules.appendingPathComponent("Products.json").path,
            promotions: Self.rules.appendingPathComponent("Promotions.plist").path)
        #expect(throws: InputError.self) { try checkout.price(cart: #"["HAT"]"#) }
        do {
            _ = try checkout.price(cart: #"["MUG", "HAT"]"#)
        } catch {
            #expect(error.description == #"cart: items[1]: unknown product code "HAT""#)
        }
        #expect(throws: PricingRulesError.self) { try Checkout(catalog: "/nonexistent.json", promotions: "x.plist") }
    }
}
