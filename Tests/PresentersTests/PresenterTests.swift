import Presenters
import Pricing
import Shopping
import Testing

/// Mock views record what they are told, in order.
final class ListView: ProductListView {
    var told: [String] = []
    func show(products: [ProductItem], cartPromotions: [String]) {
        told.append(
            "show " + products.map { "\($0.code) \($0.price) \($0.promotions)" }.joined(separator: "; ")
                + " cart \(cartPromotions)")
    }
    func showAdded(_ message: String) { told.append("added \(message)") }
    func showError(_ message: String) { told.append("error \(message)") }
}

final class CartScreenView: CartView {
    var told: [String] = []
    func show(cart: ReceiptScreen) {
        told.append(
            "show "
                + cart.lines.map { "\($0.quantity)×\($0.code) \($0.total)" + ($0.discount.map { " (\($0))" } ?? "") }
                .joined(separator: ", ") + " total \(cart.total)")
    }
    func showEmpty(_ message: String) { told.append("empty \(message)") }
    func setCheckoutEnabled(_ enabled: Bool) { told.append("checkout \(enabled ? "enabled" : "disabled")") }
    func showError(_ message: String) { told.append("error \(message)") }
}

final class CheckoutScreenView: CheckoutView {
    var told: [String] = []
    var receipt: ReceiptScreen?
    func show(receipt: ReceiptScreen) {
        self.receipt = receipt
        told.append("receipt \(receipt.total)")
    }
    func showEmpty(_ message: String) { told.append("empty \(message)") }
    func showError(_ message: String) { told.append("error \(message)") }
}

final class PaymentScreenView: PaymentView {
    var told: [String] = []
    func showProcessing() { told.append("processing") }
    func showApproved(orderNumber: Int, total: String, card: String) {
        told.append("approved #\(orderNumber) \(total) \(card)")
    }
    func showDeclined(_ reason: String) { told.append("declined \(reason)") }
    func showInvalidCard(_ problem: String) { told.append("invalid \(problem)") }
    func showEmptyCart(_ message: String) { told.append("empty \(message)") }
    func showError(_ message: String) { told.append("error \(message)") }
    func showRecovered(orderNumber: Int, total: String, card: String) {
        told.append("recovered #\(orderNumber) \(total) \(card)")
    }
}

@Suite("Product list presenter")
struct ProductListPresenterTests {
    @Test("shows each product with its price and active promotions in words, then adds to the cart")
    func listAndAdd() {
        let shop = Shop()
        let view = ListView()
        let presenter = ProductListPresenter(rules: rules, cart: shop.cart, clock: FixedClock(instant: now))
        presenter.view = view
        presenter.viewDidLoad()
        presenter.addProduct(at: 0)
        presenter.add(code: "TSHIRT", quantity: 3)
        presenter.addProduct(at: 7)
        presenter.add(code: "HAT")
        #expect(
            view.told == [
                #"show VOUCHER 5.00 € ["2 for 1"]; TSHIRT 20.00 € ["3 or more: 19.00 € each"]; MUG 7.50 € [] cart ["10% off the cart from 100.00 € with a coupon"]"#,
                "added Added 1 × Cabify Voucher to the cart.",
                "added Added 3 × Cabify T-Shirt to the cart.",
                "error There is no product 8; choose 1 to 3.",
                "error Unknown product code \"HAT\"."
            ])
        #expect(shop.cart.items == [CartEntry(code: "VOUCHER", quantity: 1), CartEntry(code: "TSHIRT", quantity: 3)])
    }

    @Test("offers only the promotions the shopper may get, asked each time it is shown")
    func openPromotions() {
        let shop = Shop()
        let view = ListView()
        // The first promotion (2 for 1 on vouchers) is not open to this shopper, then it is.
        var closed: Set<Int> = [0]
        let presenter = ProductListPresenter(
            rules: rules, cart: shop.cart, clock: FixedClock(instant: now), openPromotions: { { !closed.contains($0) } }
        )
        presenter.view = view
        presenter.viewDidLoad()
        closed = []
        presenter.viewDidLoad()
        #expect(
            view.told == [
                #"show VOUCHER 5.00 € []; TSHIRT 20.00 € ["3 or more: 19.00 € each"]; MUG 7.50 € [] cart ["10% off the cart from 100.00 € with a coupon"]"#,
                #"show VOUCHER 5.00 € ["2 for 1"]; TSHIRT 20.00 € ["3 or more: 19.00 € each"]; MUG 7.50 € [] cart ["10% off the cart from 100.00 € with a coupon"]"#
            ])
    }

    @Test("holds its view weakly")
    func weakView() {
        let shop = Shop()
        let presenter = ProductListPresenter(rules: rules, cart: shop.cart, clock: FixedClock(instant: now))
        do {
            let view = ListView()
            presenter.view = view
            #expect(presenter.view != nil)
        }
        #expect(presenter.view == nil)
    }
}

@Suite("Cart presenter")
struct CartPresenterTests {
    @Test("an empty cart disables checkout")
    func empty() {
        let shop = Shop()
        let view = CartScreenView()
        let presenter = CartPresenter(checkout: shop.service)
        presenter.view = view
        presenter.viewDidLoad()
        #expect(view.told == ["empty Cart is empty.", "checkout disabled"])
    }

    @Test("shows lines, the discounts that apply and the total; changes lines")
    func linesAndChanges() throws {
        let shop = Shop()
        try shop.cart.add("VOUCHER", quantity: 2)
        try shop.cart.add("MUG", quantity: 1)
        let view = CartScreenView()
        let presenter = CartPresenter(checkout: shop.service)
        presenter.view = view
        presenter.viewDidLoad()
        presenter.increment(lineAt: 1)
        presenter.decrement(lineAt: 0)
        presenter.removeLine(at: 0)
        presenter.decrement(lineAt: 5)
        presenter.clear()
        #expect(
            view.told == [
                "show 2×VOUCHER 5.00 € (VOUCHER 2x1: -5.00 €), 1×MUG 7.50 € total 12.50 €", "checkout enabled",
                "show 2×VOUCHER 5.00 € (VOUCHER 2x1: -5.00 €), 2×MUG 15.00 € total 20.00 €", "checkout enabled",
                "show 1×VOUCHER 5.00 €, 2×MUG 15.00 € total 20.00 €", "checkout enabled",
                "show 2×MUG 15.00 € total 15.00 €", "checkout enabled",
                "error There is no line 6; choose 1 to 1.",
                "empty Cart is empty.", "checkout disabled"
            ])
    }
}

@Suite("Checkout presenter")
struct CheckoutPresenterTests {
    @Test("the full receipt with every discount: the published 74.50 example")
    func fullReceipt() throws {
        let shop = Shop()
        for code in ["VOUCHER", "TSHIRT", "VOUCHER", "VOUCHER", "MUG", "TSHIRT", "TSHIRT"] {
            try shop.cart.add(code, quantity: 1)
        }
        let view = CheckoutScreenView()
        let presenter = CheckoutPresenter(checkout: shop.service)
        presenter.view = view
        presenter.viewDidLoad()
        #expect(view.told == ["receipt 74.50 €"])
        #expect(presenter.canPay)
        let receipt = try #require(view.receipt)
        #expect(receipt.lines.map { $0.discount?.description } == ["VOUCHER 2x1: -5.00 €", "TSHIRT 3+: -3.00 €", nil])
        #expect(receipt.lines.map { $0.discount?.amount } == ["-5.00 €", "-3.00 €", nil])
        #expect(receipt.subtotal == "82.50 €")
        #expect(receipt.itemDiscount == "-8.00 €")
        #expect(receipt.saved == "8.00 €")
        #expect(receipt.cartDiscount == nil)
    }

    @Test("nothing to pay for in an empty cart")
    func empty() {
        let shop = Shop()
        let view = CheckoutScreenView()
        let presenter = CheckoutPresenter(checkout: shop.service)
        presenter.view = view
        presenter.viewDidLoad()
        #expect(view.told == ["empty Cart is empty."])
        #expect(!presenter.canPay)
    }
}

@Suite("Payment presenter")
struct PaymentPresenterTests {
    func filledShop() throws -> Shop {
        let shop = Shop()
        for code in ["VOUCHER", "TSHIRT", "VOUCHER", "VOUCHER", "MUG", "TSHIRT", "TSHIRT"] {
            try shop.cart.add(code, quantity: 1)
        }
        return shop
    }

    func presenter(_ shop: Shop) -> (PaymentPresenter, PaymentScreenView) {
        let view = PaymentScreenView()
        let presenter = PaymentPresenter(checkout: shop.service)
        presenter.view = view
        return (presenter, view)
    }

    @Test("an approval shows processing then the order number, records the order, empties the cart")
    func approved() throws {
        let shop = try filledShop()
        let (presenter, view) = presenter(shop)
        #expect(presenter.pay(number: "4242 4242 4242 4242", expiry: "12/30", cvc: "123"))
        #expect(view.told == ["processing", "approved #1 74.50 € •••• 4242"])
        #expect(shop.cart.items == [])
        #expect(shop.orders.completed.map(\.card) == ["•••• 4242"])
        #expect(shop.orders.completed.first?.receiptJSON.contains(#""total":"74.50""#) == true)
    }

    @Test("a decline shows its reason and keeps the cart")
    func declined() throws {
        let shop = try filledShop()
        shop.gateway.outcome = .declined(reason: "card declined")
        let (presenter, view) = presenter(shop)
        #expect(!presenter.pay(number: "4000 0000 0000 0002", expiry: "12/30", cvc: "123"))
        #expect(view.told == ["processing", "declined card declined"])
        #expect(shop.cart.items.count == 3)
        #expect(shop.orders.completed == [])
    }

    @Test("invalid card data is refused before any charge")
    func invalidCard() throws {
        let shop = try filledShop()
        let (presenter, view) = presenter(shop)
        presenter.pay(number: "4242 4242 4242 4241", expiry: "12/30", cvc: "123")
        presenter.pay(number: "4242 4242 4242 4242", expiry: "10/26", cvc: "123")
        presenter.pay(number: "4242 4242 4242 4242", expiry: "12/30", cvc: "12")
        #expect(
            view.told == [
                "invalid the card number is not valid (check digit)", "invalid the card expired at the end of 10/26",
                "invalid the CVC must be 3 or 4 digits"
            ])
        #expect(shop.gateway.chargesTaken == 0)
    }

    @Test("an empty cart is said so")
    func emptyCart() {
        let shop = Shop()
        let (presenter, view) = presenter(shop)
        #expect(!presenter.pay(number: "4242424242424242", expiry: "12/30", cvc: "123"))
        #expect(view.told == ["processing", "empty Cart is empty."])
    }

    @Test(
        "a payment whose order could not be recorded after the charge: the next one recovers it with that charge, never as its own approval, and charges nothing"
    )
    func recoveredAfterInterruption() throws {
        let shop = try filledShop()
        shop.orders.failNextCompletion = true  // charged, then the store failed before the order was recorded
        let (presenter, view) = presenter(shop)
        #expect(!presenter.pay(number: "4242424242424242", expiry: "12/30", cvc: "123"))
        #expect(shop.gateway.chargesTaken == 1)
        #expect(shop.orders.pending.count == 1)
        #expect(view.told.last?.hasPrefix("error the card •••• 4242 was charged 74.50 €") == true)
        // Another card: the interrupted order is recorded with the card its charge used; the cart
        // is empty, so nothing else is charged or approved.
        #expect(!presenter.pay(number: "5555555555554444", expiry: "12/30", cvc: "123"))
        #expect(shop.gateway.chargesTaken == 1)
        #expect(shop.orders.completed.map(\.card) == ["•••• 4242"])
        #expect(shop.orders.pending == [])
        #expect(Array(view.told.suffix(3)) == ["processing", "recovered #1 74.50 € •••• 4242", "empty Cart is empty."])
    }

    @Test("a decline puts the units and coupons back in the cart")
    func declineReleases() throws {
        let shop = try filledShop()
        _ = try shop.cart.addCoupon("XMAS")
        shop.gateway.outcome = .declined(reason: "card declined")
        let (presenter, _) = presenter(shop)
        #expect(!presenter.pay(number: "4000000000000002", expiry: "12/30", cvc: "123"))
        #expect(shop.cart.items.map(\.quantity) == [3, 3, 1])
        #expect(shop.cart.presented == ["XMAS"])
        #expect(shop.orders.pending == [])
    }
}
