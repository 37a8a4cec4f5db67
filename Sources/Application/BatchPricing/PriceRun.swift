import Explanations
import InputFiles
import Platform
import PlistReader
import Pricing
import Receipts

/// Why a `price` run stopped before pricing anything, or could not finish its output.
public enum PriceRunError: Error {
    /// The catalog or the promotions cannot be used.
    case rules(PricingRulesError)
    /// The store's ledger cannot be read (`price --store`).
    case ledger(any Error)
    /// The only cart of the run cannot be read or priced.
    case cart(InputError)
    case output(OutputError)
}

/// One run of `checkout price`: one cart gives one receipt (read while the rules compile); several
/// carts or batches give one result per cart in input order, a cart that cannot be priced giving an
/// error entry in its place without stopping the others.
public struct PriceRun {
    public var carts: [String]
    /// Every input is a batch (one cart per line); otherwise only `*.ndjson`/`*.jsonl` files are.
    public var batch = false
    public var format: ReceiptFormat = .text
    /// Coupons presented besides each cart's own.
    public var coupons: [String] = []
    /// The instant to price at; when nil, each cart's own `at`, else `now`.
    public var instant: Instant?
    public var now: Instant
    /// Bounds on the carts, batches and catalog.
    public var limits: InputLimits = .default
    /// Bounds on the promotions file.
    public var plistLimits: PlistLimits = .default
    /// Say for each promotion why it did or did not apply: in JSON receipts, their `explanations`;
    /// in text, words under each receipt. (Text receipts of one cart show near-miss hints anyway.)
    public var explain = false
    /// Threads that price a batch's blocks; nil: one per processor.
    public var threads: Int?
    /// How a single cart's text receipt is laid out (a terminal's width and colour, or plain).
    public var style: TextStyle = .plain
    /// Leave the rules, carts and receipts for the process's exit to free (``UntilExit``): a
    /// command that exits once its output is written need not free 100,000 promotions one by one.
    public var keepsUntilExit = false
    /// Where the rules come from, for a text receipt's heading, when that matters (the built-in store).
    public var rulesLabel: String?
    /// Reads a store's ledger for the compiled rules (`price --store`, docs/store.md): once, before
    /// any cart is priced, so that the carts of one run do not count against each other. Nil: no
    /// limit binds.
    public var ledger: ((RuleSet) throws -> RedemptionCounts)?

    public init(carts: [String], now: Instant) {
        self.carts = carts
        self.now = now
    }

    /// A single cart, printed as one document; otherwise one line per cart.
    public var isSingleCart: Bool { carts.count == 1 && !batch && !BatchLines.isBatchName(carts[0]) }

    /// What a run came to: how many carts it read, how many failed, where the first failure is,
    /// and which inputs could not be read at all.
    public struct Outcome: Sendable, Equatable {
        public var carts = 0
        /// Carts that could not be priced (each has an error in its place), inputs that could not be
        /// read included.
        public var failures = 0
        /// The first failure: `line 5: malformed JSON…` (one batch), `day.ndjson:5: …` or `c.json: …`
        /// (several inputs).
        public var firstFailure: String?
        /// The inputs (files or batches) that could not be opened or read at all, with why.
        public var unreadable: [InputError] = []
        /// Inputs given.
        public var inputs = 0

        /// Whether no input could be read at all: nothing was priced.
        public var nothingRead: Bool { inputs > 0 && unreadable.count == inputs }

        /// `3 of 1,000 carts failed (first: line 5: …)`; nil when none did.
        public var summary: String? {
            guard failures > 0 else { return nil }
            let of = "\(Self.grouped(failures)) of \(Self.grouped(carts)) \(carts == 1 ? "cart" : "carts") failed"
            return of + (firstFailure.map { " (first: \($0))" } ?? "")
        }

        /// 1000 → "1,000".
        static func grouped(_ value: Int) -> String {
            var digits = String(value)
            var index = digits.endIndex
            while digits.distance(from: digits.startIndex, to: index) > 3 {
                index = digits.index(index, offsetBy: -3)
                digits.insert(",", at: index)
            }
            return digits
        }
    }

    /// Prices every cart and writes the results to `out`; returns how many carts there were and
    /// failed, and which inputs could not be read. `progress` makes a progress report for a batch of
    /// that many bytes (nil: unknown), if wanted.
    public func run(
        catalog: RulesSource, promotions: RulesSource, to out: OutputStream,
        progress: (Int?) -> ProgressReporter? = { _ in nil }
    ) throws(PriceRunError) -> Outcome {
        if isSingleCart {
            try priceOne(carts[0], catalog: catalog, promotions: promotions, to: out)
            return Outcome(carts: 1, inputs: 1)
        }
        let rules: PricingRules
        do {
            rules = try PricingRules.load(
                catalog: catalog, promotions: promotions, limits: limits, plistLimits: plistLimits)
        } catch {
            throw .rules(error)
        }
        let counts = try readLedger(rules.ruleSet)
        let outcome = priceMany(rules: rules, ledger: counts, to: out, progress: progress)
        do {
            try out.flush()
        } catch {
            throw .output(error)
        }
        if keepsUntilExit { UntilExit.keep(rules) }
        return outcome
    }

    /// One cart: one receipt. The cart is read while the promotions compile.
    func priceOne(_ path: String, catalog: RulesSource, promotions: RulesSource, to out: OutputStream)
        throws(PriceRunError)
    {
        let maxFileSize = limits.maxFileSize
        let name = FileBytes.displayName(path)
        let loaded: (PricingRules, Result<Cart, InputError>)
        do {
            loaded = try PricingRules.load(
                catalog: catalog, promotions: promotions, limits: limits, plistLimits: plistLimits
            ) { catalog in
                Result { () throws(InputError) -> Cart in
                    var reader = CartReader(catalog: catalog, halves: .onTwoCores)
                    return try FileBytes.withContents(path, limit: maxFileSize) { bytes in
                        Result { () throws(InputError) in try reader.read(bytes, name: name) }
                    }.get()
                }
            }
        } catch {
            throw .rules(error)
        }
        let (rules, read) = loaded
        let pricer = CartPricer(
            rules: rules.ruleSet, coupons: coupons, instant: instant, now: now, ledger: try readLedger(rules.ruleSet))
        let cart: Cart
        let priced: CartPricer.Explained
        do {
            cart = try read.get()
            // Explanations serve `--explain` and a text receipt's hints; a plain JSON receipt needs neither.
            priced =
                format == .json && !explain
                ? CartPricer.Explained(receipt: try pricer.price(cart, name: name), explanations: [])
                : try pricer.explain(cart, name: name)
        } catch {
            throw .cart(error)
        }
        switch format {
        case .json:
            var encoder = ReceiptEncoder()
            var bytes = encoder.encodeIndented(priced.receipt, explanations: explain ? priced.explanations : nil)
            bytes.append(UInt8(ascii: "\n"))
            bytes.withUnsafeBufferPointer { out.write($0) }
        case .text:
            out.write(Self.labelled(pricer.text(of: cart, priced, explained: explain, style: style), rulesLabel))
        }
        do {
            try out.flush()
        } catch {
            throw .output(error)
        }
        if keepsUntilExit { UntilExit.keep((rules, cart, priced)) }
    }

    /// The ledger's counts for `rules`, when a store is given.
    func readLedger(_ rules: RuleSet) throws(PriceRunError) -> RedemptionCounts? {
        guard let ledger else { return nil }
        do {
            return try ledger(rules)
        } catch {
            throw .ledger(error)
        }
    }

    /// A text receipt whose heading (`Receipt … (EUR)`) also says where its rules come from:
    /// `Receipt … (EUR; built-in Cabify store)`.
    public static func labelled(_ receipt: String, _ label: String?) -> String {
        guard let label, let end = receipt.firstIndex(of: "\n"), receipt[..<end].hasSuffix(")") else { return receipt }
        var text = receipt
        text.insert(contentsOf: "; " + label, at: text.index(before: end))
        return text
    }

    /// Several carts or batches: one result per cart, in input order; failures do not stop the
    /// rest. Batches stream through the parallel batch pricer.
    func priceMany(
        rules: PricingRules, ledger: RedemptionCounts? = nil, to out: OutputStream,
        progress: (Int?) -> ProgressReporter?
    ) -> Outcome {
        var pricer = CartPricer(
            rules: rules.ruleSet, coupons: coupons, instant: instant, now: now, ledger: ledger, halves: .onTwoCores)
        var batchPricer = BatchPricer(
            rules: rules.ruleSet, coupons: coupons, instant: instant, now: now, format: format, workers: threads)
        batchPricer.ledger = ledger
        batchPricer.explain = explain
        batchPricer.maxLineLength = limits.maxLineLength
        var outcome = Outcome(inputs: carts.count)
        var encoder = ReceiptEncoder()
        func emitFailure(_ error: InputError, position: Int) {
            outcome.failures += 1
            outcome.carts += 1
            if outcome.firstFailure == nil { outcome.firstFailure = error.description }
            if error.kind == .unreadable { outcome.unreadable.append(error) }
            switch format {
            case .json:
                out.write(
                    ReceiptEncoder.renderError(line: position, id: error.cartID, message: error.description) + "\n")
            case .text:
                out.write(
                    "\(error.file.withoutControlCharacters)\(error.cartID.map { " (id \(ReceiptText.display($0)))" } ?? ""): error: \(error.detail.withoutControlCharacters)\n"
                )
            }
        }
        for (index, path) in carts.enumerated() {
            if batch || BatchLines.isBatchName(path) {
                do {
                    let (fd, size) = try FileBytes.open(path)
                    defer { if path != "-" { fd.close() } }
                    let reporter = progress(size)
                    defer { reporter?.finish() }
                    let name = FileBytes.displayName(path)
                    let batch = try batchPricer.outcome(fd: fd, size: size, name: name, to: out, progress: reporter)
                    outcome.carts += batch.carts
                    outcome.failures += batch.failures
                    if outcome.firstFailure == nil, let (line, message) = batch.firstFailure {
                        // A malformed line's message names its line already.
                        let named = message.hasPrefix("line \(line), ")
                        outcome.firstFailure =
                            switch (carts.count == 1, named) {
                            case (true, true): message
                            case (true, false): "line \(line): \(message)"
                            case (false, true): "\(name): \(message)"
                            case (false, false): "\(name):\(line): \(message)"
                            }
                    }
                } catch {
                    emitFailure(error, position: index + 1)
                }
                continue
            }
            let name = FileBytes.displayName(path)
            let result: Result<CartPricer.Explained, InputError>
            do {
                let bytes = try FileBytes.read(path, limit: limits.maxFileSize)
                result =
                    explain
                    ? pricer.explain(bytes, name: name)
                    : pricer.price(bytes, name: name).map { CartPricer.Explained(receipt: $0, explanations: []) }
            } catch {
                result = .failure(error)
            }
            if case .success = result { outcome.carts += 1 }
            switch (result, format) {
            case (.success(let priced), .json):
                var bytes = encoder.encode(priced.receipt, explanations: explain ? priced.explanations : nil)
                bytes.append(UInt8(ascii: "\n"))
                bytes.withUnsafeBufferPointer { out.write($0) }
            case (.success(let priced), .text):
                out.write(ReceiptText.renderLine(priced.receipt, label: name.withoutControlCharacters))
                if explain {
                    out.write(
                        ReceiptText.explanations(
                            priced.explanations, money: MoneyStyle(currency: priced.receipt.currency)))
                }
            case (.failure(let error), _): emitFailure(error, position: index + 1)
            }
        }
        return outcome
    }
}
