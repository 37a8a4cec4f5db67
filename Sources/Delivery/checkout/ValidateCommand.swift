import ArgumentParser
import BatchPricing
import InputFiles
import Platform
import Pricing
import Promotions
import Reporters

extension ReporterKind: ExpressibleByArgument {}

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check promotion files, reporting every problem with its line, for CI.",
        discussion: """
            Every problem of every file is reported, each with a stable ID. Without --catalog the files \
            are checked on their own; with it, product codes, currencies and discounts are checked against \
            the catalog too. Exit codes: 0 clean (warnings allowed), 1 errors found (or warnings with \
            --strict), 64 usage error, 65 an invalid catalog, 66 a file cannot be opened. Nothing is \
            priced and no file is written.
            """)

    @Argument(
        help: ArgumentHelp("Promotion files (Apple XML property lists); - reads standard input.", valueName: "plist"),
        completion: .promotionsFile)
    var plists: [String]

    @Option(
        name: [.short, .long],
        help: ArgumentHelp(
            "Also check product codes, currency and discounts against this catalog (- reads standard input).",
            discussion:
                "Only when given: $CHECKOUT_CATALOG does not apply here, so that a file is checked the same everywhere.",
            valueName: "json"),
        completion: .catalogFile)
    var catalog: String?

    @Option(
        help: ArgumentHelp(
            "Report promotions that ended by this instant (RFC 3339). Default: now.", valueName: "instant"))
    var at: String?

    @Flag(help: "Fail (exit 1) on warnings too.")
    var strict = false

    @Flag(
        help: ArgumentHelp(
            "Also warn about coupon promotions whose id or name contains their coupon (promotion.coupon-exposed).",
            discussion:
                "Receipts and explanations show ids and names, never coupons: such a promotion gives its coupon away."
        ))
    var exposedCoupons = false

    @Flag(
        help: ArgumentHelp(
            "Also write each diagnostic's notes (the related place: the first of two duplicates, the promotion that shadows) on lines of their own.",
            discussion: "text: FILE:LINE:COL: note: MESSAGE; github: ::notice. JUnit and SARIF always carry them."))
    var notes = false

    @Option(
        name: [.short, .customLong("format"), .customLong("reporter")],
        help: ArgumentHelp(
            "Output format: text, json, github (Actions annotations), junit, sarif.",
            discussion: "--reporter is the same option, its former name.", valueName: "format"))
    var format: ReporterKind = .text

    @OptionGroup(title: "Limits") var limits: FileLimitsOptions

    func validate() throws {
        try checkStandardInputReadOnce(plists.map { ("a promotions file", $0) } + [("--catalog", catalog)])
        _ = try parseInstant(at)
    }

    func run() throws {
        let instant = try parseInstant(at) ?? SystemClock().now()
        var products: Catalog?
        if let catalog {
            do {
                products = try CatalogFile.load(catalog, limit: limits.input.maxFileSize)
            } catch {
                Console.error(error.description)
                throw ExitStatus.forInput(error)
            }
        }
        // The checks after reading (did you mean, shadowed promotions) and the text and JSON reports
        // run their parts on every core.
        let parts = PartRunner.onCores(Machine.processorCount)
        let checks = PromotionChecks(
            catalog: products, checksProducts: products != nil, expiryInstant: instant,
            exposedCoupons: exposedCoupons, limits: limits.plist, parts: parts)
        var files: [CheckedFile] = []
        var read: [PromotionFile] = []
        for path in plists {
            do {
                let file = try PricingRules.loadPromotions(path, checks: checks)
                files.append(.read(file))
                read.append(file)
            } catch {
                // The text report says it in its place; other formats are for programs, so people
                // reading the log are told on standard error too.
                if format != .text { Console.error(error.description) }
                files.append(.unreadable(path: error.path, reason: error.reason))
            }
        }
        format.write(files, parts: parts, notes: notes, strict: strict) { OutputStream.standardOutput.write($0) }
        try Console.finishOutput()
        UntilExit.keep((files, read))
        if read.count < files.count { throw ExitStatus.noInput }
        if read.failCheck(strict: strict) { throw ExitStatus.failures }
    }
}
