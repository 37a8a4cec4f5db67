import ArgumentParser
import Platform
import Presenters
import Shopping

struct Shop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shop",
        abstract: "Shop interactively: products → cart → checkout → payment.",
        discussion: "Numbered menus; works on a terminal and with piped input, and ends cleanly at the end of input.")

    @OptionGroup var rules: RulesOptions
    @OptionGroup var store: StoreOptions

    func run() throws {
        let shop = try ShopComponents(rules: rules, store: store)
        let out = OutputStream.standardOutput
        var session = ShopSession(service: shop.service, out: out)
        session.run()
        try Console.finishOutput()
    }
}

/// The menus: which screen is showing and what each answer does. The presenters do the work.
struct ShopSession {
    enum Screen { case products, cart, checkout, payment }

    let out: OutputStream
    let products: ProductListPresenter
    let cart: CartPresenter
    let checkout: CheckoutPresenter
    let payment: PaymentPresenter
    // The views live as long as the session; the presenters hold them weakly.
    let productView: TerminalProductListView
    let cartView: TerminalCartView
    let checkoutView: TerminalCheckoutView
    let paymentView: TerminalPaymentView
    var screen = Screen.products

    init(service: CheckoutService, out: OutputStream) {
        self.out = out
        products = ProductListPresenter(rules: service.rules, cart: service.cart, clock: service.clock)
        cart = CartPresenter(checkout: service)
        checkout = CheckoutPresenter(checkout: service)
        payment = PaymentPresenter(checkout: service)
        productView = TerminalProductListView(out: out)
        cartView = TerminalCartView(out: out)
        checkoutView = TerminalCheckoutView(out: out)
        paymentView = TerminalPaymentView(out: out)
        products.view = productView
        cart.view = cartView
        checkout.view = checkoutView
        payment.view = paymentView
    }

    mutating func run() {
        out.write("Checkout shop. Type the number or letter of a choice; the end of input quits.\n")
        show()
        while let answer = prompt(menu) {
            if answer == "q" { break }
            handle(answer)
        }
        out.write("Bye.\n")
    }

    var menu: String {
        switch screen {
        case .products: "Add a product (number, or number × quantity as \"2 3\"), [c]art, [q]uit > "
        case .cart: "[+N] one more, [-N] one less, [xN] remove line N, [e]mpty, [k] checkout, [p]roducts, [q]uit > "
        case .checkout: "[y] pay, [b]ack to the cart, [q]uit > "
        case .payment: "Card number ([b]ack) > "
        }
    }

    mutating func go(_ next: Screen) {
        screen = next
        show()
    }

    func show() {
        switch screen {
        case .products: products.viewDidLoad()
        case .cart: cart.viewDidLoad()
        case .checkout: checkout.viewDidLoad()
        case .payment: break
        }
    }

    mutating func handle(_ answer: String) {
        switch screen {
        case .products:
            let parts = answer.split(separator: " ").map(String.init)
            if answer == "c" { return go(.cart) }
            guard let number = parts.first.flatMap({ Int($0) }) else { return productView.showError("Choose a product number, c or q.") }
            let quantity = parts.count > 1 ? Int64(parts[1]) : 1
            guard let quantity else { return productView.showError("The quantity must be a whole number.") }
            products.addProduct(at: number - 1, quantity: quantity)
        case .cart:
            switch answer.first {
            case "p": go(.products)
            case "k": cartView.checkoutEnabled ? go(.checkout) : cartView.showError("Cart is empty")
            case "e": cart.clear()
            case "+", "-", "x":
                guard let line = Int(answer.dropFirst()) else { return cartView.showError("Give the line number, as +2.") }
                if answer.first == "+" { cart.increment(lineAt: line - 1) } else if answer.first == "-" { cart.decrement(lineAt: line - 1) } else { cart.removeLine(at: line - 1) }
            default: cartView.showError("Choose +N, -N, xN, e, k, p or q.")
            }
        case .checkout:
            switch answer {
            case "y": checkout.canPay ? go(.payment) : go(.cart)
            case "b": go(.cart)
            default: checkoutView.showError("Choose y, b or q.")
            }
        case .payment:
            if answer == "b" { return go(.checkout) }
            guard let expiry = prompt("Expiry (MM/YY) > "), let cvc = prompt("CVC > ") else { return }
            go(payment.pay(number: answer, expiry: expiry, cvc: cvc) ? .products : .checkout)
        }
    }

    /// Asks, and reads one line; nil at the end of input.
    func prompt(_ text: String) -> String? {
        out.write(text)
        try? out.flush()
        guard let line = readLine(strippingNewline: true) else {
            out.write("\n")
            return nil
        }
        return line.trimmingCharacters
    }
}

private extension String {
    var trimmingCharacters: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed())
    }
}
