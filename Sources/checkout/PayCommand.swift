import ArgumentParser
import CheckoutFiles
import Pricing
import StrictJSON
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
        let out = OutputStream.standardOutput
        let json = JSONWriter(pretty: true)
        switch result {
        case .approved(let order):
            let money = MoneyStyle(currency: order.currency)
            switch format {
            case .text: out.write("Payment approved: order #\(order.number), \(money.format(order.total)), card \(order.card) (reference \(order.reference)).\n")
            case .json:
                json.object {
                    json.member("status") { json.string("approved") }
                    json.member("order") { json.raw(String(order.number)) }
                    json.member("total") { json.string(Amount.format(order.total, minorDigits: order.currency.minorDigits)) }
                    json.member("currency") { json.string(order.currency.code) }
                    json.member("card") { json.string(order.card) }
                    json.member("reference") { json.string(order.reference) }
                }
                out.write(json.text + "\n")
            }
            try Console.finishOutput()
        case .declined(let reason):
            switch format {
            case .text: out.write("Payment declined: \(reason). The cart is kept.\n")
            case .json:
                json.object {
                    json.member("status") { json.string("declined") }
                    json.member("reason") { json.string(reason) }
                }
                out.write(json.text + "\n")
            }
            try Console.finishOutput()
            throw ExitStatus.failures
        case .emptyCart:
            Console.error("the cart is empty: add products with `checkout cart add CODE` first")
            throw ExitStatus.failures
        }
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
        let out = OutputStream.standardOutput
        switch format {
        case .text:
            if orders.isEmpty { out.write("No orders yet.\n") }
            for order in orders {
                out.write("#\(order.number)  \(order.at)  \(MoneyStyle(currency: order.currency).format(order.total))  \(order.card)  \(order.reference)\n")
            }
        case .json:
            let json = JSONWriter(pretty: true)
            json.object {
                json.member("orders") {
                    json.array(orders) { order in
                        json.object {
                            json.member("order") { json.raw(String(order.number)) }
                            json.member("at") { json.string(order.at.description) }
                            json.member("total") { json.string(Amount.format(order.total, minorDigits: order.currency.minorDigits)) }
                            json.member("currency") { json.string(order.currency.code) }
                            json.member("card") { json.string(order.card) }
                            json.member("reference") { json.string(order.reference) }
                            json.member("receipt") { json.raw(order.receiptJSON) }
                        }
                    }
                }
            }
            out.write(json.text + "\n")
        }
        try Console.finishOutput()
    }
}
