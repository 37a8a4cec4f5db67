import ArgumentParser
import Platform
import Presenters
import Shopping

struct Shop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shop",
        abstract: "Shop interactively: products → cart → checkout → payment.",
        discussion: """
            Numbered menus; works on a terminal and with piped input, and ends cleanly at the end of input. \
            On a terminal the card number and CVC are not shown as they are typed. With --customer, the \
            session is that customer's: their cart, their groups, their usage limits.
            """)

    @OptionGroup var rules: RulesOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var customer: CustomerOptions

    func validate() throws {
        try checkStandardInputReadOnce(rules.inputs, alsoReads: "the shop's answers")
    }

    func run() throws {
        let shop = try ShopComponents(rules: rules, store: store, customer: customer)
        let out = OutputStream.standardOutput
        let terminal = TerminalShop(service: shop.service, out: out)
        terminal.run()
        try Console.finishOutput()
    }
}

/// The shop on a terminal (or a pipe): the views, and a loop that reads each answer the
/// coordinator asks for. The coordinator and the presenters do the work.
final class TerminalShop: ShopNavigationView, TerminalScreen {
    let out: OutputStream
    let coordinator: ShopCoordinator
    // The views live as long as the session; the presenters hold them weakly.
    let productView: TerminalProductListView
    let cartView: TerminalCartView
    let checkoutView: TerminalCheckoutView
    let paymentView: TerminalPaymentView
    private var question: (prompt: String, secret: Bool)?

    init(service: CheckoutService, out: OutputStream) {
        self.out = out
        coordinator = ShopCoordinator(service: service)
        productView = TerminalProductListView(out: out)
        cartView = TerminalCartView(out: out)
        checkoutView = TerminalCheckoutView(out: out)
        paymentView = TerminalPaymentView(out: out)
        coordinator.products.view = productView
        coordinator.cart.view = cartView
        coordinator.checkout.view = checkoutView
        coordinator.payment.view = paymentView
        coordinator.navigation = self
    }

    func run() {
        out.write("Checkout shop. Type the number or letter of a choice; the end of input quits.\n")
        coordinator.start()
        while let (prompt, secret) = question {
            question = nil
            guard let answer = read(prompt, secret: secret), coordinator.answer(answer) else { break }
        }
        out.write("Bye.\n")
    }

    func ask(_ prompt: String, secret: Bool) { question = (prompt, secret) }
    func showMessage(_ message: String) { out.write(message.withoutControlCharacters + "\n") }

    /// Asks, and reads one line; nil at the end of input. A secret answer is not echoed on a terminal.
    func read(_ prompt: String, secret: Bool) -> String? {
        // Echo goes off before the prompt shows: what is typed as soon as it appears is hidden too.
        let hidden = secret && FileDescriptor.standardInput.setEcho(false)
        out.write(prompt)
        try? out.flush()
        defer {
            if hidden {
                FileDescriptor.standardInput.setEcho(true)
                out.write("\n")
            }
        }
        guard let line = readLine(strippingNewline: true) else {
            out.write("\n")
            return nil
        }
        return line
    }
}
