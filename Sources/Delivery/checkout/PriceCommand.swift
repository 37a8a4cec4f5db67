import ArgumentParser
import BatchPricing
import InputFiles
import Platform
import Pricing
import Receipts
import ShopStore
import Shopping

struct Price: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "price",
        abstract: "Price carts and print their receipts.",
        discussion: """
            A cart is a JSON file: an array of product codes, or an object with "items" (codes or \
            {"code", "quantity"}) and optional "coupons", "at", "currency" and "id". Files named *.ndjson or \
            *.jsonl, and every input with --batch, hold one cart per line. One cart prints one receipt; \
            several carts or a batch print one line per cart (NDJSON with --format json), a cart that \
            cannot be priced giving an error line ({"line": N, "error": "..."}) in its place, and exit 1.
            """)

    @Argument(help: ArgumentHelp("Cart files; - reads standard input.", valueName: "cart"), completion: .cartFile)
    var carts: [String]

    @OptionGroup var rules: RulesOptions

    @OptionGroup(title: "Limits") var limits: LimitsOptions

    @Option(
        help: ArgumentHelp(
            "Price at this instant (RFC 3339, e.g. 2026-11-21T10:00:00Z) instead of the cart's own or now.",
            valueName: "instant"))
    var at: String?

    @Option(
        name: .customLong("coupon"),
        help: ArgumentHelp("Present a coupon (repeatable; any letter case).", valueName: "code"))
    var coupons: [String] = []

    @Flag(help: "Read every input as a batch: one cart per line.")
    var batch = false

    @Option(name: [.short, .long], help: "Receipt format: text or json.")
    var format: ReceiptFormat = .text

    @Flag(
        help:
            "Say why each promotion did or did not apply, and what would make it apply (JSON: each receipt's \"explanations\")."
    )
    var explain = false

    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            "Price against this store's ledger of redemptions, read once before pricing: promotions whose uses or uses_per_customer are used up do not apply (never $CHECKOUT_STORE).",
            valueName: "path"),
        completion: .storeFile)
    var store: String?

    @Option(
        help: ArgumentHelp(
            "Threads that price a batch (default: one per processor; at most 256, and no more than the batch has blocks).",
            valueName: "n"))
    var threads: Int?

    func validate() throws {
        try checkStandardInputReadOnce(carts.map { ("a cart", $0) } + rules.inputs)
        _ = try parseInstant(at)
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1, not \(threads)") }
    }

    func run() throws {
        var run = PriceRun(carts: carts, now: SystemClock().now())
        run.batch = batch
        run.format = format
        run.coupons = coupons
        run.instant = try parseInstant(at)
        run.limits = limits.input
        run.plistLimits = limits.plist
        run.explain = explain
        run.threads = threads
        run.style = Terminal.style
        run.keepsUntilExit = true
        run.rulesLabel = RulesSource.builtInLabel(catalog: rules.catalogSource, promotions: rules.promotionsSource)
        if let store {
            // Only a store that exists: a path that is not one is exit 66, and nothing is made there.
            let database: ShopDatabase
            do {
                database = try ShopDatabase.existing(path: store)
            } catch {
                Console.error(error.description)
                throw ExitStatus.noInput
            }
            if database.readsUpgradedCopy {
                Console.note(
                    "the store at \(store) was written by an older Checkout: price reads it without changing it, which takes longer each time; `checkout orders --store \(store)` upgrades it once"
                )
            }
            run.ledger = { rules in
                try database.redemptionCounts(limited: Redemptions.limitedIDs(rules), scope: .all)
            }
        }
        let outcome: PriceRun.Outcome
        do {
            outcome = try run.run(
                catalog: rules.catalogSource, promotions: rules.promotionsSource, to: .standardOutput
            ) { ProgressBar(total: $0) }
        } catch {
            switch error {
            case .rules(let error): throw rules.report(error)
            case .ledger(let error):
                Console.error("cannot read the store's ledger: \(error)")
                throw ExitStatus.noInput
            case .cart(let error):
                Console.error(error.description)
                if error.message.hasPrefix("unknown product code"), let note = rules.builtInCatalogNote {
                    OutputStream.standardError.write(note + "\n")
                }
                throw ExitStatus.forInput(error)
            case .output(let error):
                Console.error(error.description)
                throw ExitStatus.ioError
            }
        }
        // No input could be read at all: exit 66, as for a single cart, so that a script can tell
        // that nothing was priced (some inputs unreadable among others: exit 1, errors in place).
        if outcome.nothingRead, let first = outcome.unreadable.first {
            Console.error(
                outcome.unreadable.count == 1
                    ? first.description : "no input could be read (first: \(first.description))")
            throw ExitStatus.noInput
        }
        if let summary = outcome.summary {
            Console.error(summary)
            if summary.contains("unknown product code"), let note = rules.builtInCatalogNote {
                OutputStream.standardError.write(note + "\n")
            }
            throw ExitStatus.failures
        }
    }
}

extension ReceiptFormat: ExpressibleByArgument {}
