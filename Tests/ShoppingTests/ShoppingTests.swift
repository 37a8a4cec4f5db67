import Pricing
import Testing

@testable import Shopping

let november = try! Instant(rfc3339: "2026-11-21T10:00:00Z")

@Suite("Payment cards")
struct PaymentCardTests {
    @Test("valid cards: spaces and dashes ignored, masked to the last four digits")
    func valid() throws {
        let card = try PaymentCard(number: "4242 4242-4242 4242", expiry: "11/26", cvc: "1234", now: november)
        #expect(card.number == "4242424242424242")
        #expect(card.masked == "•••• 4242")
        #expect(card.expiryMonth == 11 && card.expiryYear == 2026)
    }

    @Test(
        "refused before any charge",
        arguments: [
            ("4242 4242 4242 4241", "12/30", "123", "the card number is not valid (check digit)"),
            ("4242", "12/30", "123", "the card number must have 12 to 19 digits"),
            ("4242 4242 4242 424x", "12/30", "123", "the card number must have 12 to 19 digits"),
            ("4242424242424242", "10/26", "123", "the card expired at the end of 10/26"),
            ("4242424242424242", "13/30", "123", "the expiry must be MM/YY, such as 04/28"),
            ("4242424242424242", "1/30", "123", "the expiry must be MM/YY, such as 04/28"),
            ("4242424242424242", "12/2030", "123", "the expiry must be MM/YY, such as 04/28"),
            ("4242424242424242", "12/30", "12", "the CVC must be 3 or 4 digits"),
            ("4242424242424242", "12/30", "12345", "the CVC must be 3 or 4 digits"),
            ("4242424242424242", "12/30", "12a", "the CVC must be 3 or 4 digits")
        ])
    func refused(number: String, expiry: String, cvc: String, problem: String) {
        let error = #expect(throws: PaymentCard.Problem.self) {
            try PaymentCard(number: number, expiry: expiry, cvc: cvc, now: november)
        }
        #expect(error?.description == problem)
    }

    @Test("Luhn")
    func luhn() {
        #expect(PaymentCard.luhn("4000000000000002"))
        #expect(PaymentCard.luhn("4000000000009995"))
        #expect(PaymentCard.luhn("79927398713"))
        #expect(!PaymentCard.luhn("79927398710"))
    }
}

final class Ledger: ChargeLedger {
    var entries: [String: ChargeRecord] = [:]
    var records = 0
    func charge(forKey key: String) throws -> ChargeRecord? { entries[key] }
    func record(_ outcome: ChargeOutcome, forKey key: String, amount: Int64, currency: Currency, card: String) throws {
        entries[key] = ChargeRecord(outcome: outcome, amount: amount, currency: currency, card: card)
        records += 1
    }
}

@Suite("The simulated gateway")
struct SimulatedGatewayTests {
    func card(_ number: String) throws -> PaymentCard {
        try PaymentCard(number: number, expiry: "12/30", cvc: "123", now: november)
    }

    @Test("every reference is sim_ and 16 hexadecimal digits, leading zeros kept")
    func referenceLength() throws {
        #expect(SimulatedGateway.reference(0xad9d_31df_f63f_415) == "sim_0ad9d31dff63f415")
        #expect(SimulatedGateway.reference(0) == "sim_0000000000000000")
        #expect(SimulatedGateway.reference(.max) == "sim_ffffffffffffffff")
        // Through charges: one in sixteen random references starts with a zero digit.
        let gateway = SimulatedGateway(ledger: Ledger())
        for key in 0..<200 {
            guard
                case .approved(let reference) = try gateway.charge(
                    amount: 100, currency: .euro, card: card("4242424242424242"), idempotencyKey: "k\(key)")
            else {
                Issue.record("4242… approves")
                return
            }
            #expect(reference.count == 20 && reference.dropFirst(4).allSatisfy(\.isHexDigit), "\(reference)")
        }
    }

    @Test("test cards approve or decline as documented")
    func rules() throws {
        let gateway = SimulatedGateway(ledger: Ledger())
        guard
            case .approved(let reference) = try gateway.charge(
                amount: 100, currency: .euro, card: card("4242424242424242"), idempotencyKey: "a")
        else {
            Issue.record("4242… approves")
            return
        }
        #expect(reference.hasPrefix("sim_"))
        #expect(
            try gateway.charge(amount: 100, currency: .euro, card: card("4000000000000002"), idempotencyKey: "b")
                == .declined(reason: "card declined"))
        #expect(
            try gateway.charge(amount: 100, currency: .euro, card: card("4000000000009995"), idempotencyKey: "c")
                == .declined(reason: "insufficient funds"))
        guard
            case .approved = try gateway.charge(
                amount: 100, currency: .euro, card: card("5555555555554444"), idempotencyKey: "d")
        else {
            Issue.record("any other valid number approves")
            return
        }
    }

    @Test("an approved key is never charged again; a declined one may be retried")
    func idempotency() throws {
        let ledger = Ledger()
        let gateway = SimulatedGateway(ledger: ledger)
        let first = try gateway.charge(
            amount: 100, currency: .euro, card: card("4242424242424242"), idempotencyKey: "order")
        let again = try gateway.charge(
            amount: 100, currency: .euro, card: card("4242424242424242"), idempotencyKey: "order")
        #expect(first == again)
        #expect(ledger.records == 1)
        #expect(
            try gateway.status(idempotencyKey: "order")
                == ChargeRecord(outcome: first, amount: 100, currency: .euro, card: "•••• 4242"))
        #expect(
            try gateway.charge(amount: 100, currency: .euro, card: card("4000000000000002"), idempotencyKey: "retry")
                == .declined(reason: "card declined"))
        guard
            case .approved = try gateway.charge(
                amount: 100, currency: .euro, card: card("4242424242424242"), idempotencyKey: "retry")
        else {
            Issue.record("a declined key may be retried with another card")
            return
        }
        #expect(ledger.records == 3)
    }
}

@Suite("Promotions in words")
struct PromotionWordsTests {
    @Test(
        "each type",
        arguments: [
            (Promotion.Rule.combo(groupSize: 2, paid: 1), "2 for 1"),
            (.combo(groupSize: 3, paid: 2), "3 for 2"),
            (.bulk(threshold: 3, unitPrice: 1900), "3 or more: 19.00 € each"),
            (.percent(minimumQuantity: 1, hundredths: 1250), "12.5% off"),
            (.percent(minimumQuantity: 2, hundredths: 1000), "10% off from 2"),
            (.amount(minimumQuantity: 1, amountOff: 50), "0.50 € off each"),
            (.cartPercent(minimum: 0, hundredths: 500), "5% off the cart"),
            (.cartAmount(minimum: 5000, amountOff: 500), "5.00 € off the cart from 50.00 €")
        ])
    func words(rule: Promotion.Rule, text: String) {
        #expect(
            PromotionWords.describe(Promotion(id: "x", name: "x", rule: rule, codes: ["A"]), currency: .euro) == text)
    }

    @Test("a cart promotion on part of the cart says which part, and that its minimum is of that part")
    func partOfTheCart() {
        func words(_ selectors: [ProductSelector], minimum: Int64 = 5000) -> String {
            PromotionWords.describe(
                Promotion(
                    id: "x", name: "x", rule: .cartPercent(minimum: minimum, hundredths: 1000, cap: 1500),
                    productSelectors: selectors),
                currency: .euro)
        }
        #expect(
            words([ProductSelector(excludeTags: ["sale"])])
                == "10% off products not tagged sale, when they come to 50.00 € or more, at most 15.00 €")
        #expect(
            words(
                [
                    ProductSelector(
                        categories: [["Clothing", "Shirts"]], brands: ["Cabify", "Acme"], excludeCodes: ["X1"]),
                    ProductSelector(codes: ["MUG", "CAP"], tags: ["new"])
                ], minimum: 0)
                == "10% off products in Clothing > Shirts of brand Cabify or Acme except X1, or MUG or CAP tagged new, at most 15.00 €"
        )
        #expect(
            words([ProductSelector(excludeCategories: [["Food"]], excludeBrands: ["Acme"])], minimum: 0)
                == "10% off products not in Food not of brand Acme, at most 15.00 €")
    }

    @Test("with a coupon, never the coupon itself (coupons can be secret)")
    func coupon() {
        #expect(
            PromotionWords.describe(
                Promotion(id: "x", name: "x", rule: .combo(groupSize: 2, paid: 1), codes: ["A"], coupon: "SPRING"),
                currency: .euro)
                == "2 for 1 with a coupon")
        #expect(
            PromotionWords.describe(
                Promotion(id: "x", name: "x", rule: .cartPercent(minimum: 5000, hundredths: 1000, cap: nil), codes: []),
                currency: .euro)
                == "10% off the cart from 50.00 €")
    }

    @Test(
        "a buy-X-get-Y with targets: the offer on its triggers, the reward on its reward products",
        arguments: [
            (BuyXGetY.Reward.percent(10_000), "TSHIRT" as String?, "buy 1, get 1 MUG free"),
            (.percent(10_000), "MUG", "1 free with every 1 TSHIRT bought"),
            (.percent(10_000), nil, "buy 1, get 1 MUG free"),
            (.percent(5_000), "MUG", "1 at 50% off with every 1 TSHIRT bought"),
            (.price(250), "MUG", "1 at 2.50 € each with every 1 TSHIRT bought"),
            (.price(250), "TSHIRT", "buy 1, get 1 MUG for 2.50 € each")
        ])
    func bxgy(reward: BuyXGetY.Reward, code: String?, text: String) {
        let promotion = Promotion(
            id: "x", name: "x", rule: .bxgy(buy: 1, get: 1, reward: reward, limit: nil), codes: ["TSHIRT"],
            targets: ["MUG"])
        #expect(PromotionWords.describe(promotion, currency: .euro, for: code) == text)
        // Without targets, the products are triggers and rewards alike: the offer as it is.
        let same = Promotion(
            id: "y", name: "y", rule: .bxgy(buy: 2, get: 1, reward: .percent(10_000), limit: 1), codes: ["STICKER"])
        #expect(PromotionWords.describe(same, currency: .euro, for: "STICKER") == "buy 2, get 1 free, once per order")
    }
}

@Suite("Adding to the cart from the catalog")
struct CartAdditionTests {
    /// Records what reaches the store.
    final class RecordingCart: CartStore {
        var added: [CartEntry] = []
        func entries() throws -> [CartEntry] { added }
        func add(_ code: String, quantity: Int64) throws { added.append(CartEntry(code: code, quantity: quantity)) }
        func remove(_ code: String, quantity: Int64?) throws -> Bool { false }
        func clear() throws { added = [] }
        func coupons() throws -> [String] { [] }
        func addCoupon(_ coupon: String) throws -> Bool { false }
        func removeCoupon(_ coupon: String) throws -> Bool { false }
    }

    let catalog = try! Catalog(products: [
        Product(code: "MUG", name: "Cabify Coffee Mug", price: 750),
        Product(code: "TSHIRT", name: "Cabify T-Shirt", price: 2000)
    ])

    @Test("a known code and a quantity in range reach the store, and give the product")
    func added() throws {
        let cart = RecordingCart()
        let product = try cart.add("TSHIRT", quantity: 1_000_000_000, from: catalog)
        #expect(product.name == "Cabify T-Shirt")
        #expect(cart.added == [CartEntry(code: "TSHIRT", quantity: 1_000_000_000)])
    }

    @Test("an unknown code or a quantity out of range stores nothing")
    func refused() {
        let cart = RecordingCart()
        #expect(throws: CartBuilder.Problem.unknownCode("mug", suggestion: "MUG")) {
            try cart.add("mug", quantity: 1, from: catalog)
        }
        #expect(throws: CartBuilder.Problem.quantityOutOfRange(0)) { try cart.add("MUG", quantity: 0, from: catalog) }
        #expect(throws: CartBuilder.Problem.quantityOutOfRange(1_000_000_001)) {
            try cart.add("MUG", quantity: 1_000_000_001, from: catalog)
        }
        #expect(cart.added.isEmpty)
    }
}
