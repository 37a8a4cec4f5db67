import ArgumentParser
import Platform
import Pricing
import Shopping

struct Pay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pay",
        abstract: "Pay for the cart with the simulated gateway.",
        discussion: """
            The card is asked for on the terminal (the number and CVC are not shown as they are typed; each \
            field is checked as it is entered and asked again when wrong), or read from standard input with \
            --card-stdin: the number, the expiry (MM/YY) and the CVC, one per line. Card data never goes on \
            the command line, where shell history and the process list would keep it.
            Test cards: 4242 4242 4242 4242 approves; 4000 0000 0000 0002 declines (card declined); \
            4000 0000 0000 9995 declines (insufficient funds); any other valid number approves. Exit codes: \
            0 approved (the order is recorded, the cart emptied), 1 declined or empty cart (the cart is kept), \
            64 no card given, 65 invalid card data. Paying again after an interruption never charges twice.
            """)

    @Flag(
        name: .customLong("card-stdin"),
        help: "Read the card from standard input: number, expiry (MM/YY) and CVC, one per line.")
    var cardStdin = false
    @Option(
        help: ArgumentHelp(
            "Deprecated: puts the number in shell history and the process list. Use the prompt or --card-stdin.",
            valueName: "number", visibility: .hidden))
    var card: String?
    @Option(help: ArgumentHelp("Deprecated, with --card.", valueName: "MM/YY", visibility: .hidden)) var expiry: String?
    @Option(help: ArgumentHelp("Deprecated, with --card.", valueName: "digits", visibility: .hidden)) var cvc: String?
    @Option(name: [.short, .long], help: "text or json.") var format: OutputFormat = .text
    @OptionGroup var rules: RulesOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        try checkStandardInputReadOnce(rules.inputs, alsoReads: cardStdin ? "--card-stdin" : nil)
        let flags = [card, expiry, cvc].compactMap { $0 }
        guard flags.isEmpty || flags.count == 3 else {
            throw ValidationError("--card, --expiry and --cvc go together (better: use the prompt or --card-stdin)")
        }
        guard !(cardStdin && !flags.isEmpty) else {
            throw ValidationError("give the card with --card-stdin or with the options, not both")
        }
    }

    func run() throws {
        let shop = try ShopComponents(rules: rules, store: store)
        let json = format == .json
        let out = OutputStream.standardOutput
        // Nothing to pay for: say so before asking for a card.
        guard
            try shop.run({ try !shop.service.cart.entries().isEmpty })
                || (try shop.run { try !shop.database.pendingOrders().isEmpty })
        else {
            if json { out.write(OrderReport.payment(.emptyCart, json: true)) }
            Console.error("the cart is empty: add products with `checkout cart add CODE` first")
            try Console.finishOutput()
            throw ExitStatus.failures
        }
        let now = shop.service.clock.now()
        let paymentCard: PaymentCard
        do {
            if let card, let expiry, let cvc {
                Console.warning(
                    "--card, --expiry and --cvc put card data in your shell history and the process list; use the prompt or --card-stdin"
                )
                paymentCard = try PaymentCard(number: card, expiry: expiry, cvc: cvc, now: now)
            } else if cardStdin {
                let fields = (0..<3).map { _ in readLine(strippingNewline: true) ?? "" }.map {
                    $0.trimmingSpacesAndReturns
                }
                guard fields.contains(where: { !$0.isEmpty }) else {
                    Console.error(
                        "no card given: --card-stdin reads the number, the expiry (MM/YY) and the CVC from standard input, one per line"
                    )
                    throw ExitStatus.usage
                }
                paymentCard = try PaymentCard(number: fields[0], expiry: fields[1], cvc: fields[2], now: now)
            } else if FileDescriptor.standardInput.isTerminal {
                guard let entered = CardPrompt(now: now).ask() else {
                    Console.error("no card was entered; nothing was charged")
                    throw ExitStatus.failures
                }
                paymentCard = entered
            } else {
                throw ValidationError(
                    "give the card on a terminal, or on standard input with --card-stdin (number, expiry and CVC, one per line)"
                )
            }
        } catch let problem as PaymentCard.Problem {
            if json { out.write(OrderReport.invalidCard(problem.description)) }
            Console.error("invalid card: \(problem.description)")
            try Console.finishOutput()
            throw ExitStatus.dataError
        }
        let result = try shop.run { try shop.service.pay(with: paymentCard) }
        out.write(OrderReport.payment(result, json: json))
        if case .emptyCart = result {
            Console.error("the cart is empty: add products with `checkout cart add CODE` first")
        }
        try Console.finishOutput()
        switch result {
        case .approved: break
        case .declined, .emptyCart: throw ExitStatus.failures
        }
    }
}

/// Asks for the card on the terminal, one field at a time: each checked as soon as it is entered
/// and asked again alone when wrong; the number and CVC are not echoed. Nil at the end of input.
struct CardPrompt {
    let now: Instant

    func ask() -> PaymentCard? {
        guard
            let number = field(
                "Card number: ", secret: true,
                check: { (text) throws(PaymentCard.Problem) in _ = try PaymentCard.checkNumber(text) }),
            let expiry = field(
                "Expiry (MM/YY): ", secret: false,
                check: { (text) throws(PaymentCard.Problem) in _ = try PaymentCard.checkExpiry(text, now: now) }),
            let cvc = field(
                "CVC: ", secret: true,
                check: { (text) throws(PaymentCard.Problem) in _ = try PaymentCard.checkCVC(text) })
        else { return nil }
        return try? PaymentCard(number: number, expiry: expiry, cvc: cvc, now: now)
    }

    /// One field, asked until it passes `check`, on standard error (standard output stays for the result).
    private func field(_ prompt: String, secret: Bool, check: (String) throws(PaymentCard.Problem) -> Void) -> String? {
        let terminal = OutputStream.standardError
        while true {
            terminal.write(prompt)
            let hidden = secret && FileDescriptor.standardInput.setEcho(false)
            let line = readLine(strippingNewline: true)
            if hidden {
                FileDescriptor.standardInput.setEcho(true)
                terminal.write("\n")
            }
            guard let text = line?.trimmingSpacesAndReturns else { return nil }
            do {
                try check(text)
                return text
            } catch {
                terminal.write("! \(error.description)\n")
            }
        }
    }
}

extension String {
    var trimmingSpacesAndReturns: String {
        String(
            drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" })
                .reversed())
    }
}

struct Orders: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "orders", abstract: "List past orders, oldest first.")
    @Option(name: [.short, .long], help: "text or json.") var format: OutputFormat = .text
    @OptionGroup var store: StoreOptions

    func run() throws {
        let database = try ShopComponents.open(store)
        let orders = try ShopComponents.run { try database.orders() }
        OutputStream.standardOutput.write(OrderReport.orders(orders, json: format == .json, style: Terminal.style))
        try Console.finishOutput()
    }
}
