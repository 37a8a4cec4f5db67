import ArgumentParser
import CheckoutFiles
import Pricing

#if canImport(Glibc)
import Glibc
#endif

struct Price: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "price",
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

    @OptionGroup(title: "Limits") var limits: LimitsOptions

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
        let out = OutputStream.standardOutput
        if carts.count == 1, !batch, !BatchLines.isBatchName(carts[0]) {
            try priceOne(carts[0], instant: instant, to: out)
        } else {
            let rules = try rules.load(limits: limits.plist)
            var pricer = CartPricer(rules: rules.ruleSet, coupons: coupons, instant: instant, now: SystemClock.now())
            try priceMany(with: &pricer, to: out, rules: rules, instant: instant)
        }
    }

    /// One cart: one receipt, or a message and exit 65 or 66. The cart is read while the
    /// promotions load.
    func priceOne(_ path: String, instant: Instant?, to out: OutputStream) throws {
        let maxFileSize = limits.maxFileSize
        let (rules, read) = try rules.load(limits: limits.plist) { catalog in
            Result { () throws(InputError) -> Cart in
                var reader = CartReader(catalog: catalog)
                return try FileBytes.withContents(path, limit: maxFileSize) { bytes in Result { () throws(InputError) in try reader.read(bytes, name: displayName(path)) } }.get()
            }
        }
        let pricer = CartPricer(rules: rules.ruleSet, coupons: coupons, instant: instant, now: SystemClock.now())
        let result = read.flatMap { cart in Result { () throws(InputError) in try pricer.price(cart, name: displayName(path)) } }
        switch result {
        case .success(let receipt):
            switch format {
            case .json:
                var encoder = ReceiptEncoder(rules: rules.ruleSet)
                var bytes = encoder.encodeIndented(receipt)
                bytes.append(UInt8(ascii: "\n"))
                bytes.withUnsafeBufferPointer { out.write($0) }
            case .text:
                out.write(ReceiptText.render(receipt))
            }
            try Console.finishOutput()
        case .failure(let error):
            Console.error(error.description)
            throw ExitStatus.forInput(error)
        }
    }

    /// Several carts or batches: one result per cart, in input order; failures do not stop the rest.
    /// Batches stream through the parallel batch pricer.
    func priceMany(with pricer: inout CartPricer, to out: OutputStream, rules: PricingRules, instant: Instant?) throws {
        var failures = 0
        var batchPricer = BatchPricer(rules: rules.ruleSet, coupons: coupons, instant: instant, now: pricer.now,
                                      format: format == .json ? .json : .text)
        batchPricer.maxLineLength = min(limits.maxFileSize, batchPricer.maxLineLength)
        func emitFailure(_ error: InputError, position: Int) {
            failures += 1
            switch format {
            case .json: out.write(ReceiptJSON.renderError(line: position, message: error.description) + "\n")
            case .text: out.write("\(error.file): error: \(error.detail)\n")
            }
        }
        for (index, path) in carts.enumerated() {
            if batch || BatchLines.isBatchName(path) {
                do {
                    let (fd, size) = try FileBytes.open(path)
                    defer { if path != "-" { close(fd) } }
                    let bar = ProgressBar(total: size)
                    failures += try batchPricer.run(fd: fd, name: displayName(path), to: out, progress: bar.map { bar in { bar.update(bytes: $0, carts: $1) } })
                    bar?.finish()
                } catch {
                    emitFailure(error, position: index + 1)
                }
                continue
            }
            let result: Result<Receipt, InputError>
            do {
                result = pricer.price(try FileBytes.read(path, limit: limits.maxFileSize), name: displayName(path))
            } catch {
                result = .failure(error)
            }
            switch (result, format) {
            case (.success(let receipt), .json): out.write(ReceiptJSON.render(receipt) + "\n")
            case (.success(let receipt), .text): out.write(ReceiptText.renderLine(receipt, label: displayName(path)))
            case (.failure(let error), _): emitFailure(error, position: index + 1)
            }
        }
        try Console.finishOutput()
        if failures > 0 { throw ExitStatus.failures }
    }
}

/// How messages name an input: `<stdin>` for `-`.
func displayName(_ path: String) -> String {
    path == "-" ? "<stdin>" : path
}
