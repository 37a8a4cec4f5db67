import Pricing
import Shopping

/// What the shop's navigation is told: the next question, and messages between screens.
public protocol ShopNavigationView: AnyObject {
    /// Waits for the next answer to `prompt`; a `secret` answer (card number, CVC) is not shown as
    /// it is typed.
    func ask(_ prompt: String, secret: Bool)
    func showError(_ message: String)
    func showMessage(_ message: String)
}

/// The shopping flow's navigation, beside its presenters: which screen is showing, what each answer
/// does there, and the card entered one field at a time, each checked as soon as it is given and
/// asked again alone when wrong. It knows nothing of terminals: answers come in as text, questions
/// go out through ``ShopNavigationView``.
public final class ShopCoordinator {
    public enum Screen: Equatable, Sendable {
        case products, cart, checkout
        /// Paying: which field of the card is asked for.
        case payment(CardField)
    }

    public enum CardField: Equatable, Sendable {
        case number, expiry, cvc
    }

    public private(set) var screen = Screen.products
    public weak var navigation: ShopNavigationView?
    public let products: ProductListPresenter
    public let cart: CartPresenter
    public let checkout: CheckoutPresenter
    public let payment: PaymentPresenter
    private let service: CheckoutService
    /// The card so far, in memory only until the payment is made or abandoned.
    private var number: String?
    private var expiry: String?

    public init(service: CheckoutService) {
        self.service = service
        products = ProductListPresenter(
            rules: service.rules, cart: service.cart, clock: service.clock, openPromotions: service.openPromotions)
        cart = CartPresenter(checkout: service)
        checkout = CheckoutPresenter(checkout: service)
        payment = PaymentPresenter(checkout: service)
    }

    /// Shows the product list and asks for the first answer.
    public func start() {
        show(.products)
        askNext()
    }

    /// The menu of the screen showing, and whether its answer is secret.
    public var prompt: (text: String, secret: Bool) {
        switch screen {
        case .products: ("Add a product (number, or number × quantity as \"2 3\"), [c]art, [q]uit > ", false)
        case .cart:
            (
                "[+N] one more, [-N] one less, [xN] remove line N, [e]mpty, [$ CODE] add a coupon, [-$ CODE] remove it, [k] checkout, [p]roducts, [q]uit > ",
                false
            )
        case .checkout: ("[y] pay, [b]ack to the cart, [q]uit > ", false)
        case .payment(.number): ("Card number ([b]ack) > ", true)
        case .payment(.expiry): ("Expiry (MM/YY) > ", false)
        case .payment(.cvc): ("CVC > ", true)
        }
    }

    /// Handles one answer, then asks the next question. Returns false once the shopper quits.
    @discardableResult
    public func answer(_ text: String) -> Bool {
        let answer = text.trimmingSpaces
        if answer == "q", !isEnteringCard { return false }
        handle(answer)
        askNext()
        return true
    }

    private var isEnteringCard: Bool {
        if case .payment = screen { return true }
        return false
    }

    private func askNext() {
        let (text, secret) = prompt
        navigation?.ask(text, secret: secret)
    }

    private func show(_ next: Screen) {
        screen = next
        switch next {
        case .products: products.viewDidLoad()
        case .cart: cart.viewDidLoad()
        case .checkout: checkout.viewDidLoad()
        case .payment(.number):
            number = nil
            expiry = nil
        case .payment: break
        }
    }

    /// A product's number and a quantity: "2" is one of product 2; "2 3", "2×3", "2 x 3" and "2*3"
    /// are 3 of it. Nil when it does not start with a number; a nil quantity when what follows the
    /// number is not one quantity ("2 3 4", "2x", "2 two"): refused, never taken in part.
    static func productAndQuantity(_ answer: String) -> (number: Int, quantity: Int64?)? {
        let digits = answer.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int(digits) else { return nil }
        let after = answer.dropFirst(digits.count)
        var rest = after.drop { $0 == " " }
        if rest.isEmpty { return (number, 1) }
        if let separator = rest.first, "×xX*".contains(separator) {
            rest = rest.dropFirst().drop { $0 == " " }
        } else if after.first != " " {
            return (number, nil)  // "2a"
        }
        guard !rest.isEmpty, !rest.contains(" "), let quantity = Int64(rest) else { return (number, nil) }
        return (number, quantity)
    }

    private func handle(_ answer: String) {
        switch screen {
        case .products:
            if answer == "c" { return show(.cart) }
            guard let (number, quantity) = Self.productAndQuantity(answer) else {
                return navigation?.showError("Choose a product number, c or q.") ?? ()
            }
            guard let quantity else {
                return navigation?.showError("The quantity must be one whole number, as in \"2 3\" (3 of product 2).")
                    ?? ()
            }
            products.addProduct(at: number - 1, quantity: quantity)
        case .cart:
            handleCart(answer)
        case .checkout:
            switch answer {
            case "y": checkout.canPay ? show(.payment(.number)) : show(.cart)
            case "b": show(.cart)
            default: navigation?.showError("Choose y, b or q.")
            }
        case .payment(let field):
            if answer == "b" {
                number = nil
                expiry = nil
                return show(.checkout)
            }
            enterCard(field, answer)
        }
    }

    private func handleCart(_ answer: String) {
        if answer.hasPrefix("-$") || answer.hasPrefix("$") {
            let adding = answer.hasPrefix("$")
            let code = String(answer.dropFirst(adding ? 1 : 2)).trimmingSpaces
            guard !code.isEmpty else { return navigation?.showError("Give the coupon after the $, as $ CODE.") ?? () }
            do {
                if adding {
                    let outcome = try service.addCoupon(code)
                    switch outcome {
                    case .alreadyPresent: navigation?.showMessage("The cart has that coupon already.")
                    case .added where outcome.nothingUnlocked != nil:
                        navigation?.showMessage("Coupon added, but it \(outcome.nothingUnlocked!).")
                    case .added(let unlocks, _, _, _):
                        navigation?.showMessage(CheckoutService.CouponOutcome.unlockedSentence(unlocks))
                    }
                } else {
                    navigation?.showMessage(
                        try service.cart.removeCoupon(code) ? "Coupon removed." : "The cart has no such coupon.")
                }
            } catch {
                navigation?.showError("\(error)")
            }
            return cart.refresh()
        }
        switch answer.first {
        case "p": show(.products)
        case "k":
            if (try? service.cart.entries().isEmpty) == false {
                show(.checkout)
            } else {
                navigation?.showError("Cart is empty.")
            }
        case "e": cart.clear()
        case "+", "-", "x":
            guard let line = Int(answer.dropFirst()) else {
                return navigation?.showError("Give the line number, as +2.") ?? ()
            }
            switch answer.first {
            case "+": cart.increment(lineAt: line - 1)
            case "-": cart.decrement(lineAt: line - 1)
            default: cart.removeLine(at: line - 1)
            }
        default: navigation?.showError("Choose +N, -N, xN, e, $ CODE, -$ CODE, k, p or q.")
        }
    }

    /// One field of the card, checked at once; a wrong one is asked again, alone.
    private func enterCard(_ field: CardField, _ answer: String) {
        do {
            switch field {
            case .number:
                _ = try PaymentCard.checkNumber(answer)
                number = answer
                screen = .payment(.expiry)
            case .expiry:
                _ = try PaymentCard.checkExpiry(answer, now: service.clock.now())
                expiry = answer
                screen = .payment(.cvc)
            case .cvc:
                _ = try PaymentCard.checkCVC(answer)
                let approved = payment.pay(
                    number: number ?? "", expiry: expiry ?? "", cvc: answer, expectedTotal: checkout.shownTotal)
                number = nil
                expiry = nil
                show(approved ? .products : .checkout)
            }
        } catch {
            payment.view?.showInvalidCard(error.description)
        }
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and a carriage return.
    var trimmingSpaces: String {
        String(
            drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" })
                .reversed())
    }
}
