import ArgumentParser
import Platform
import Pricing
import Reporters
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
            0 approved (the order is recorded, the cart emptied), 1 declined, empty cart, another payment of \
            the customer under way, or a total that is not --expect-total (the cart is kept, nothing charged), \
            64 no card given, 65 invalid card data. Paying again after an interruption never charges twice. \
            The cart is priced against the store's ledger of redemptions, so that no promotion is redeemed \
            past its uses or uses_per_customer; on a terminal the total is shown before the card is asked \
            for, and the payment goes through only at that total.
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
    @Option(
        name: .customLong("expect-total"),
        help: ArgumentHelp(
            "Pay only if the cart comes to this total (in the catalog's currency, e.g. 67.00); otherwise nothing is charged (status total-changed).",
            valueName: "amount"))
    var expectTotal: String?
    @OptionGroup var rules: RulesOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var customer: CustomerOptions

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
        let shop = try ShopComponents(rules: rules, store: store, customer: customer)
        let json = format == .json
        let out = OutputStream.standardOutput
        var expected = try expectTotal.map { try Self.amount($0, currency: shop.rules.catalog.currency) }
        // Interrupted payments first (they need no card), then nothing to pay for: say so before
        // asking for a card.
        let recovered = try settle(shop, json: json)
        if try shop.run({ try shop.database.hasPendingOrder(of: shop.database.customer) }) {
            try finish(CheckoutService.Payment(result: .inProgress, recovered: recovered), json: json)
        }
        guard try shop.run({ try !shop.service.cart.entries().isEmpty }) else {
            try finish(CheckoutService.Payment(result: .emptyCart, recovered: recovered), json: json)
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
                // The total first, priced against the ledger: the payment goes through only at it.
                let quote = try shop.run { try shop.service.quote() }
                OutputStream.standardError.write(Self.totalLine(quote))
                if expected == nil { expected = quote.receipt.total }
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
            // Refused before any charge; an interrupted payment recorded above is still said.
            out.write(
                json
                    ? OrderReport.invalidCard(problem.description, recovered: recovered)
                    : OrderReport.recoveredLines(recovered))
            Console.error("invalid card: \(problem.description)")
            try Self.finishOutput(recovered: recovered)
            throw ExitStatus.dataError
        } catch {
            // No card (a usage error, or none entered): nothing charged, but the orders recovered above
            // were recorded, and are said: on standard output as text, else as notes.
            if json {
                for line in OrderReport.recoveredLines(recovered).split(separator: "\n") {
                    OutputStream.standardError.write("note: \(line)\n")
                }
            } else {
                out.write(OrderReport.recoveredLines(recovered))
            }
            // The usage error stands, unless the recovered orders could not be said.
            if recovered.isEmpty { try? Console.finishOutput() } else { try Self.finishOutput(recovered: recovered) }
            throw error
        }
        let payment: CheckoutService.Payment
        do {
            payment = try shop.run { try shop.service.pay(with: paymentCard, expectedTotal: expected) }
        } catch let failure as CheckoutService.ChargedButUnrecorded {
            var failure = failure
            failure.recovered = recovered + failure.recovered
            if json { out.write(OrderReport.chargedButUnrecorded(failure)) }
            Console.error(failure.description + "; run `checkout pay` again to record it")
            try? OutputStream.standardOutput.flush()
            throw ExitStatus.ioError
        }
        try finish(
            CheckoutService.Payment(
                result: payment.result, recovered: recovered + payment.recovered, exhausted: payment.exhausted),
            json: json)
    }

    /// `--expect-total`: money in the catalog's currency (`67` is 67.00); anything else is a usage error.
    static func amount(_ text: String, currency: Currency) throws -> Int64 {
        switch Amount.parse(text, minorDigits: currency.minorDigits) {
        case .success(let amount): return amount
        case .failure(.notWholeMinorUnits(let digits)):
            throw ValidationError(
                "--expect-total \(text.forDisplay(limit: 40)) is not a whole number of \(currency.code) minor units (\(digits) decimal places at most)"
            )
        case .failure(.outOfRange):
            throw ValidationError("--expect-total \(text.forDisplay(limit: 40)) is out of range")
        case .failure(.notANumber):
            throw ValidationError(
                "--expect-total needs an amount such as 67.00, not \"\(text.forDisplay(limit: 40))\"")
        }
    }

    /// `Total to pay: 67.00 €` on the terminal before the card is asked for, with the used-up
    /// promotions that raised it.
    static func totalLine(_ quote: CheckoutService.Quote) -> String {
        let total = "Total to pay: \(MoneyStyle(currency: quote.receipt.currency).format(quote.receipt.total))"
        guard !quote.exhausted.isEmpty else { return total + "\n" }
        return total + " (" + OrderReport.exhaustedWords(quote.exhausted) + ")\n"
    }

    /// What a payment changed in the store, in words, for when its output could not be written.
    static func change(_ payment: CheckoutService.Payment) -> String {
        let recovered = recoveredWords(payment.recovered)
        let result =
            switch payment.result {
            case .approved(let order):
                "the payment was made all the same: order #\(order.number), \(MoneyStyle(currency: order.currency).format(order.total)), card \(order.card) (reference \(order.reference)) is recorded; do not pay again."
            case .declined(let reason): "the payment was declined (\(reason)); the cart is kept."
            case .emptyCart: "the cart is empty; nothing was charged."
            case .inProgress: "another payment is under way; nothing was charged."
            case .totalChanged: "the total changed; nothing was charged."
            }
        return result + recovered
    }

    /// ` Order #1 (7.50 €, card •••• 4242) was recovered.` per order.
    static func recoveredWords(_ recovered: [OrderRecord]) -> String {
        recovered.map { order in
            " Order #\(order.number) (\(MoneyStyle(currency: order.currency).format(order.total)), card \(order.card)) was recovered."
        }.joined()
    }

    /// Flushes standard output after a run that charged nothing but recorded the interrupted
    /// payments `recovered`: when the output that said so cannot be written, standard error says
    /// which orders are recorded (docs/store.md), as after a payment.
    static func finishOutput(recovered: [OrderRecord]) throws {
        try Console.finishOutput(
            changed: recovered.isEmpty ? nil : String(recoveredWords(recovered).dropFirst()), repeats: false)
    }

    /// Settles interrupted payments; reports the orders recovered if that fails midway.
    func settle(_ shop: ShopComponents, json: Bool) throws -> [OrderRecord] {
        try shop.run { try shop.service.settleInterrupted() }
    }

    /// Prints the payment and ends the run with its exit status: 0 approved, 1 otherwise.
    func finish(_ payment: CheckoutService.Payment, json: Bool) throws -> Never {
        // The store changed: a closed pipe is noticed at the flush below, which says so.
        OutputStream.standardOutput.brokenPipeExitStatus = nil
        OutputStream.standardOutput.write(OrderReport.payment(payment, json: json))
        switch payment.result {
        case .emptyCart:
            Console.error(
                payment.recovered.isEmpty
                    ? "the cart is empty: add products with `checkout cart add CODE` first"
                    : "the cart is empty: nothing more to pay for")
        case .inProgress:
            Console.error(
                "another payment of this \(customer.customer == nil ? "cart" : "customer") is under way (in another process); nothing was charged"
            )
        case .totalChanged:
            Console.error(
                "the cart no longer comes to the expected total; nothing was held or charged: check the total (`checkout cart show`) and pay again"
            )
        case .approved, .declined: break
        }
        do {
            try OutputStream.standardOutput.flush()
        } catch {
            // The store changed: say what it holds now, since the output that said so is lost.
            if error.isBrokenPipe {
                OutputStream.standardError.write("note: \(Pay.change(payment).withoutControlCharacters)\n")
                throw ExitCode(ExitStatus.brokenPipe)
            }
            Console.error("\(error.description); \(Pay.change(payment))")
            throw ExitStatus.ioError
        }
        switch payment.result {
        case .approved: throw ExitStatus.success
        case .declined, .emptyCart, .inProgress, .totalChanged: throw ExitStatus.failures
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
            // Echo goes off before the prompt shows: what is typed as soon as it appears is hidden too.
            let hidden = secret && FileDescriptor.standardInput.setEcho(false)
            terminal.write(prompt)
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
    static let configuration = CommandConfiguration(
        commandName: "orders", abstract: "List past orders, oldest first (one customer's with --customer).")
    @Option(name: [.short, .long], help: "text or json.") var format: OutputFormat = .text
    @OptionGroup var store: StoreOptions
    @OptionGroup var customer: CustomerOptions

    func run() throws {
        _ = try customer.load()  // read with --customer, as by every shopping command (65, 66)
        let database = try ShopComponents.open(store, access: .read)
        let orders = try ShopComponents.run {
            try customer.customer.map { try database.orders(of: $0) } ?? database.orders()
        }
        OutputStream.standardOutput.write(OrderReport.orders(orders, json: format == .json, style: Terminal.style))
        try Console.finishOutput()
    }
}
