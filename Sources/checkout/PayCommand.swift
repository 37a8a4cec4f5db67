import ArgumentParser
import Platform
import Shopping

struct Pay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pay",
        abstract: "Pay for the cart with the simulated gateway.",
        discussion: """
            Test cards: 4242 4242 4242 4242 approves; 4000 0000 0000 0002 declines (card declined); \
            4000 0000 0000 9995 declines (insufficient funds); any other valid number approves. Exit codes: \
            0 approved (the order is recorded, the cart emptied), 1 declined or empty cart (the cart is kept), \
            65 invalid card data. Paying again after an interruption never charges twice.
            """)

    @Option(help: ArgumentHelp("The card number.", valueName: "number")) var card: String
    @Option(help: ArgumentHelp("Expiry, MM/YY.", valueName: "MM/YY")) var expiry: String
    @Option(help: ArgumentHelp("The 3 or 4 digit security code.", valueName: "digits")) var cvc: String
    @Option(help: "text or json.") var format: OutputFormat = .text
    @OptionGroup var rules: RulesOptions
    @OptionGroup var store: StoreOptions

    func run() throws {
        let shop = try ShopComponents(rules: rules, store: store)
        let paymentCard: PaymentCard
        do {
            paymentCard = try PaymentCard(number: card, expiry: expiry, cvc: cvc, now: shop.service.clock.now())
        } catch {
            Console.error("invalid card: \(error.description)")
            throw ExitStatus.dataError
        }
        let result = try shop.run { try shop.service.pay(with: paymentCard) }
        if case .emptyCart = result {
            Console.error("the cart is empty: add products with `checkout cart add CODE` first")
            throw ExitStatus.failures
        }
        OutputStream.standardOutput.write(OrderReport.payment(result, json: format == .json))
        try Console.finishOutput()
        if case .declined = result { throw ExitStatus.failures }
    }
}

struct Orders: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "orders", abstract: "List past orders, oldest first.")
    @Option(help: "text or json.") var format: OutputFormat = .text
    @OptionGroup var rules: RulesOptions
    @OptionGroup var store: StoreOptions

    func run() throws {
        let shop = try ShopComponents(rules: rules, store: store)
        let orders = try shop.run { try shop.database.orders() }
        OutputStream.standardOutput.write(OrderReport.orders(orders, json: format == .json))
        try Console.finishOutput()
    }
}
