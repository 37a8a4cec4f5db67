import Presenters
import Pricing
import Shopping
import Testing

/// Records every question and message, and every screen's output, in order.
final class RecordingShop: ShopNavigationView, ProductListView, CartView, CheckoutView, PaymentView {
    var told: [String] = []
    func ask(_ prompt: String, secret: Bool) { told.append("ask\(secret ? " secret" : "") " + prompt.prefix(12)) }
    func showError(_ message: String) { told.append("error \(message)") }
    func showMessage(_ message: String) { told.append("message \(message)") }
    func show(products: [ProductItem], cartPromotions: [String]) { told.append("products \(products.count)") }
    func showAdded(_ message: String) { told.append("added \(message)") }
    func show(cart: ReceiptScreen) { told.append("cart total \(cart.total)") }
    func showEmpty(_ message: String) { told.append("empty \(message)") }
    func setCheckoutEnabled(_ enabled: Bool) {}
    func show(receipt: ReceiptScreen) { told.append("checkout total \(receipt.total)") }
    func showProcessing() { told.append("processing") }
    func showApproved(orderNumber: Int, total: String, card: String) {
        told.append("approved #\(orderNumber) \(total) \(card)")
    }
    func showRecovered(orderNumber: Int, total: String, card: String) {
        told.append("recovered #\(orderNumber) \(total) \(card)")
    }
    func showDeclined(_ reason: String) { told.append("declined \(reason)") }
    func showInvalidCard(_ problem: String) { told.append("invalid \(problem)") }
    func showEmptyCart(_ message: String) { told.append("empty cart \(message)") }
}

@Suite("The shop's navigation (coordinator)")
struct ShopCoordinatorTests {
    func session(_ shop: Shop = Shop()) -> (ShopCoordinator, RecordingShop, Shop) {
        let coordinator = ShopCoordinator(service: shop.service)
        let views = RecordingShop()
        coordinator.navigation = views
        coordinator.products.view = views
        coordinator.cart.view = views
        coordinator.checkout.view = views
        coordinator.payment.view = views
        return (coordinator, views, shop)
    }

    @Test("products → cart → checkout → payment, each card field checked at once and asked again alone when wrong")
    func flow() throws {
        let (coordinator, views, shop) = session()
        coordinator.start()
        #expect(views.told == ["products 3", "ask Add a produc"])
        views.told = []
        for answer in [
            "1 2", "c", "k", "y", "4242 4242 4242 4241", "4242 4242 4242 4242", "13/30", "12/30", "12", "123"
        ] { coordinator.answer(answer) }
        #expect(
            views.told == [
                "added Added 2 × Cabify Voucher to the cart.", "ask Add a produc",
                "cart total 5.00 €", "ask [+N] one mor",
                "checkout total 5.00 €", "ask [y] pay, [b]",
                "ask secret Card number ",
                "invalid the card number is not valid (check digit)", "ask secret Card number ",
                "ask Expiry (MM/Y",
                "invalid the expiry must be MM/YY, such as 04/28", "ask Expiry (MM/Y",
                "ask secret CVC > ",
                "invalid the CVC must be 3 or 4 digits", "ask secret CVC > ",
                "processing", "approved #1 5.00 € •••• 4242", "products 3", "ask Add a produc"
            ])
        #expect(coordinator.screen == .products)
        #expect(shop.gateway.chargesTaken == 1)
    }

    @Test("coupons on the cart screen: added once, what they unlock said, never other coupons; removed")
    func coupons() throws {
        let (coordinator, views, shop) = session()
        try shop.cart.add("TSHIRT", quantity: 5)
        coordinator.start()
        coordinator.answer("c")
        views.told = []
        for answer in ["$ xmas", "$ XMAS", "$ nothing", "-$ nothing", "-$ nothing", "$", "q"] {
            coordinator.answer(answer)
        }
        // Christmas: 10 % off from 100.00 with coupon XMAS; 5 T-shirts at 19.00 = 95.00 → not reached.
        #expect(
            views.told == [
                "message Coupon added: it unlocks \"Christmas\".", "cart total 95.00 €", "ask [+N] one mor",
                "message The cart has that coupon already.", "cart total 95.00 €", "ask [+N] one mor",
                "message Coupon added, but it matches no active promotion now.", "cart total 95.00 €",
                "ask [+N] one mor",
                "message Coupon removed.", "cart total 95.00 €", "ask [+N] one mor",
                "message The cart has no such coupon.", "cart total 95.00 €", "ask [+N] one mor",
                "error Give the coupon after the $, as $ CODE.", "ask [+N] one mor"
            ])
        #expect(try shop.cart.coupons() == ["xmas"])
        #expect(!coordinator.answer("q"))
    }

    @Test(
        "the names a coupon unlocks are escaped: a line break or an escape sequence in the promotions file stays one line"
    )
    func unlockedNamesEscaped() throws {
        let hostile = RuleSet(
            promotions: [
                Promotion(
                    id: "a", name: "Red\u{1B}[31m\nsale", rule: .cartPercent(minimum: 0, hundredths: 500), coupon: "RED"
                ),
                Promotion(id: "b", name: "Back\\slash", rule: .cartAmount(minimum: 0, amountOff: 100), coupon: "red")
            ], catalog: catalog)
        let (coordinator, views, shop) = session(Shop(rules: hostile))
        try shop.cart.add("MUG", quantity: 1)
        coordinator.start()
        coordinator.answer("c")
        views.told = []
        coordinator.answer("$ Red")
        #expect(views.told.first == #"message Coupon added: it unlocks "Red\u{1b}[31m\nsale", "Back\\slash"."#)
    }

    @Test("a coupon whose promotion is used up: added, and the message says why it unlocks nothing")
    func usedUpCoupon() throws {
        var once = Promotion(
            id: "once", name: "Once", rule: .cartAmount(minimum: 0, amountOff: 100), coupon: "ONCE")
        once.uses = 1
        let (coordinator, views, shop) = session(Shop(rules: RuleSet(promotions: [once], catalog: catalog)))
        try shop.cart.add("MUG", quantity: 1)
        coordinator.start()
        coordinator.answer("c")
        coordinator.answer("$ once")
        #expect(views.told.contains(#"message Coupon added: it unlocks "Once"."#))
        // Paid with it: its one use is taken.
        for answer in ["k", "y", "4242424242424242", "12/30", "123"] { coordinator.answer(answer) }
        #expect(views.told.contains("approved #1 6.50 € •••• 4242"))
        try shop.cart.add("MUG", quantity: 1)
        coordinator.answer("c")
        views.told = []
        coordinator.answer("$ ONCE")
        #expect(
            views.told.first
                == #"message Coupon added, but it unlocks nothing now: "Once" has reached its usage limit."#)
    }

    @Test("a product and its quantity: with a space, ×, x or *; a third number, or a lone separator, is refused")
    func quantitySpellings() throws {
        let (coordinator, views, _) = session()
        coordinator.start()
        views.told = []
        for answer in ["1 2", "1×2", "1 x 2", "1*2", "1 2 3", "1 two", "one", "x2", "2x", "2 x", "*2", "2a", "3"] {
            coordinator.answer(answer)
        }
        let refusedQuantity = "error The quantity must be one whole number, as in \"2 3\" (3 of product 2)."
        let choose = "error Choose a product number, c or q."
        #expect(
            views.told.filter { !$0.hasPrefix("ask") } == [
                "added Added 2 × Cabify Voucher to the cart.", "added Added 2 × Cabify Voucher to the cart.",
                "added Added 2 × Cabify Voucher to the cart.", "added Added 2 × Cabify Voucher to the cart.",
                refusedQuantity, refusedQuantity, choose,
                // The cart screen's "x2" (remove line 2) adds nothing here; an unfinished quantity neither.
                choose, refusedQuantity, refusedQuantity, choose, refusedQuantity,
                "added Added 1 × Cabify Coffee Mug to the cart."
            ])
    }

    @Test("back from payment forgets the card; an empty cart cannot be checked out")
    func back() throws {
        let (coordinator, views, shop) = session()
        coordinator.start()
        coordinator.answer("c")
        coordinator.answer("k")
        #expect(views.told.suffix(2) == ["error Cart is empty.", "ask [+N] one mor"])
        try shop.cart.add("MUG", quantity: 1)
        coordinator.answer("k")
        coordinator.answer("y")
        coordinator.answer("4242424242424242")
        coordinator.answer("b")
        #expect(coordinator.screen == .checkout)
        coordinator.answer("y")
        #expect(coordinator.screen == .payment(.number))
    }

    @Test(
        "the checkout's total is the one paid: when another order takes the last use of a promotion meanwhile, nothing is charged and the higher total is shown, its cause named"
    )
    func totalChanged() throws {
        var limited = rules.promotions
        limited[0].uses = 1  // VOUCHER 2x1, once in the store's life
        let (coordinator, views, shop) = session(Shop(rules: RuleSet(promotions: limited, catalog: catalog)))
        try shop.cart.add("VOUCHER", quantity: 2)
        coordinator.start()
        coordinator.answer("c")
        coordinator.answer("k")
        #expect(views.told.suffix(2) == ["checkout total 5.00 €", "ask [y] pay, [b]"])
        // Meanwhile another customer's order redeems it.
        shop.orders.completed.append(
            OrderRecord(
                number: 1, id: "other", at: now, receiptJSON: "{}", total: 500, currency: .euro, card: "•••• 4242",
                reference: "ref-0", customer: "C-9", promotions: ["VOUCHER 2x1"]))
        views.told = []
        for answer in ["y", "4242 4242 4242 4242", "12/30", "123"] { coordinator.answer(answer) }
        #expect(
            views.told.suffix(4) == [
                "processing",
                "error the total changed: the cart now comes to 10.00 €, not 5.00 € (\"VOUCHER 2x1\" has reached its usage limit); nothing was charged. Check it and pay again.",
                "checkout total 10.00 €", "ask [y] pay, [b]"
            ])
        #expect(shop.gateway.chargesTaken == 0)
        #expect(try shop.cart.entries() == [CartEntry(code: "VOUCHER", quantity: 2)])
        // Paying again at the total now shown goes through.
        for answer in ["y", "4242 4242 4242 4242", "12/30", "123"] { coordinator.answer(answer) }
        #expect(views.told.contains("approved #2 10.00 € •••• 4242"))
        #expect(shop.gateway.chargesTaken == 1)
    }
}
