import ArgumentParser
import CheckoutFiles
import Pricing

struct Price: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Price carts and print their receipts.",
        discussion: """
            A cart is a JSON file: an array of product codes, or an object with "items" (codes or \
            {"code", "quantity"}) and optional "coupons", "at" and "currency". Files named *.ndjson or \
            *.jsonl, and every input with --batch, hold one cart per line. One cart prints one receipt; \
            several carts or a batch print one line per cart (NDJSON with --format json), a cart that \
            cannot be priced giving an error line ({"line": N, "error": "..."}) in its place, and exit 1.
            """)

    @Argument(help: ArgumentHelp("Cart files; - reads standard input.", valueName: "cart"))
    var carts: [String]

    @OptionGroup var rules: RulesOptions

    @Option(help: ArgumentHelp("Price at this instant (RFC 3339, e.g. 2026-11-21T10:00:00Z) instead of the cart's own or now.", valueName: "instant"))
    var at: String?

    @Option(name: .customLong("coupon"), help: ArgumentHelp("Present a coupon (repeatable; any letter case).", valueName: "code"))
    var coupons: [String] = []

    @Flag(help: "Read every input as a batch: one cart per line.")
    var batch = false

    @Option(help: "Receipt format: text or json.")
    var format: OutputFormat = .text

    func validate() throws {
        _ = try parseInstant(at)
    }

    func run() throws {
        let instant = try parseInstant(at)
        let rules = try rules.load()
        var pricer = CartPricer(rules: rules.ruleSet, coupons: coupons, instant: instant, now: SystemClock.now())
        let out = OutputStream.standardOutput
        if carts.count == 1, !batch, !BatchLines.isBatchName(carts[0]) {
            try priceOne(carts[0], with: &pricer, to: out)
        } else {
            try priceMany(with: &pricer, to: out)
        }
    }

    /// One cart: one receipt, or a message and exit 65 or 66.
    func priceOne(_ path: String, with pricer: inout CartPricer, to out: OutputStream) throws {
        let result: Result<Receipt, InputError>
        do {
            result = pricer.price(try FileBytes.read(path), name: displayName(path))
        } catch {
            Console.error(error.description)
            throw ExitStatus.forInput(error)
        }
        switch result {
        case .success(let receipt):
            out.write(format == .json ? ReceiptJSON.render(receipt, pretty: true) + "\n" : ReceiptText.render(receipt))
            try Console.finishOutput()
        case .failure(let error):
            Console.error(error.description)
            throw ExitStatus.forInput(error)
        }
    }

    /// Several carts or batches: one result per cart, in input order; failures do not stop the rest.
    func priceMany(with pricer: inout CartPricer, to out: OutputStream) throws {
        var failed = false
        func emit(_ result: Result<Receipt, InputError>, line: Int, label: String, isBatchLine: Bool) {
            switch (result, format) {
            case (.success(let receipt), .json):
                out.write(ReceiptJSON.render(receipt) + "\n")
            case (.success(let receipt), .text):
                out.write(ReceiptText.renderLine(receipt, label: label))
            case (.failure(let error), .json):
                failed = true
                out.write(ReceiptJSON.renderError(line: line, message: isBatchLine ? error.detail : error.description) + "\n")
            case (.failure(let error), .text):
                failed = true
                out.write("\(label): error: \(error.detail)\n")
            }
        }
        for (index, path) in carts.enumerated() {
            let bytes: [UInt8]
            do {
                bytes = try FileBytes.read(path)
            } catch {
                emit(.failure(error), line: index + 1, label: path, isBatchLine: false)
                continue
            }
            if batch || BatchLines.isBatchName(path) {
                for (line, range) in BatchLines(bytes) {
                    let label = "\(displayName(path)):\(line)"
                    let result = bytes.withUnsafeBufferPointer { pricer.price(UnsafeBufferPointer(rebasing: $0[range]), name: label) }
                    emit(result, line: line, label: label, isBatchLine: true)
                }
            } else {
                emit(pricer.price(bytes, name: displayName(path)), line: index + 1, label: displayName(path), isBatchLine: false)
            }
        }
        try Console.finishOutput()
        if failed { throw ExitStatus.failures }
    }
}

/// How messages name an input: `<stdin>` for `-`.
func displayName(_ path: String) -> String {
    path == "-" ? "<stdin>" : path
}
