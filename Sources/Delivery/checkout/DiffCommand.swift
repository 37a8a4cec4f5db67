import ArgumentParser
import BatchPricing
import InputFiles
import Platform
import Pricing
import PromotionDiff

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "What a change to the promotions does to real carts: revenue, promotions, largest changes.",
        discussion: """
            Prices every cart of the given files (carts, or NDJSON batches one cart per line) under OLD and \
            under NEW, on every core, and reports the revenue before and after, what each promotion did on \
            each side, and the carts whose total changed most. Carts either file cannot price are counted \
            and the first ones shown. Exit codes: 0; 1 when some carts failed, or when the revenue changed \
            by more than --fail-on-revenue-change; 64 usage error; 65 an invalid promotions file or catalog; \
            66 a file that cannot be opened.
            """)

    @Argument(
        help: ArgumentHelp("The promotions before the change (- reads standard input).", valueName: "old.plist"),
        completion: .promotionsFile)
    var old: String
    @Argument(
        help: ArgumentHelp("The promotions after the change (- reads standard input).", valueName: "new.plist"),
        completion: .promotionsFile)
    var new: String

    @Option(
        name: .customLong("carts"), parsing: .upToNextOption,
        help: ArgumentHelp("Cart files or NDJSON batches (- reads standard input).", valueName: "file"),
        completion: .cartFile)
    var carts: [String] = []

    @Option(name: [.short, .long], help: RulesOptions.catalogHelp, completion: .catalogFile)
    var catalog: String?

    @Option(
        help: ArgumentHelp(
            "Price every cart at this instant (RFC 3339) instead of its own or now.", valueName: "instant"))
    var at: String?

    @Flag(help: "Read every cart file as a batch: one cart per line.")
    var batch = false

    @Option(name: [.short, .long], help: "Report format: text, json or markdown.")
    var format: DiffFormat = .text

    @Option(
        help: ArgumentHelp(
            "Exit 1 when revenue changes by more than this many percent (e.g. 2.5).", valueName: "percent"))
    var failOnRevenueChange: String?

    @Option(
        help: ArgumentHelp(
            "Threads that price the carts (default: one per processor; at most 256, and no more than the carts have blocks).",
            valueName: "n"))
    var threads: Int?

    @OptionGroup(title: "Limits") var limits: LimitsOptions

    enum DiffFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json, markdown
    }

    var catalogPath: String? { catalog ?? EnvironmentDefault.value(EnvironmentDefault.catalog) }

    func validate() throws {
        try checkStandardInputReadOnce(
            [("old.plist", old), ("new.plist", new)] + carts.map { ("--carts", $0) } + [("--catalog", catalogPath)])
        _ = try parseInstant(at)
        guard !carts.isEmpty else { throw ValidationError("give the carts to price with --carts FILE...") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1, not \(threads)") }
        _ = try threshold()
    }

    /// `--fail-on-revenue-change` in millionths of a percent.
    func threshold() throws -> Int64? {
        guard let text = failOnRevenueChange else { return nil }
        let parsed = Amount.parse(text, minorDigits: 6)
        if case .failure(.outOfRange) = parsed, !text.drop(while: \.isWhitespace).hasPrefix("-") {
            throw ValidationError(
                "--fail-on-revenue-change: \"\(text)\" is more than it takes (at most \(Amount.format(.max, minorDigits: 6)))"
            )
        }
        guard case .success(let value) = parsed, value >= 0 else {
            throw ValidationError(
                "--fail-on-revenue-change: expected a percentage such as 2.5 (at most 6 decimals, not negative), not \"\(text)\""
            )
        }
        return value
    }

    func run() throws {
        var run = DiffRun(carts: carts, now: SystemClock().now())
        run.batch = batch
        run.instant = try parseInstant(at)
        run.limits = limits.input
        run.plistLimits = limits.plist
        if let threads { run.workers = threads }
        let report: DiffReport
        do {
            report = try run.run(
                catalog: RulesSource.resolve(catalogPath, default: "Products.json"), old: .file(old), new: .file(new),
                progress: ProgressBar(total: nil))
        } catch {
            switch error {
            // The promotions are the two files given; the catalog may come from the environment.
            case .rules(let error): throw RulesOptions.report(error, promotionsOption: old, catalogOption: catalog)
            case .unreadable(let error):
                Console.error(error.description)
                throw ExitStatus.noInput
            }
        }
        if let problem = report.amountOutOfRange {
            Console.error(problem)
            throw ExitStatus.dataError
        }
        let out = OutputStream.standardOutput
        switch format {
        case .text: out.write(report.text())
        case .json: out.write(report.json())
        case .markdown: out.write(report.markdown())
        }
        try Console.finishOutput()
        if report.failed > 0 { throw ExitStatus.failures }
        if let limit = try threshold(), report.exceeds(revenueChangeMillionths: limit) {
            Console.error(
                "revenue changed by \(report.percent.map { $0 + " %" } ?? "more than nothing"), beyond --fail-on-revenue-change \(failOnRevenueChange!)"
            )
            throw ExitStatus.failures
        }
    }
}
