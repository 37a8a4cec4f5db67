import ArgumentParser
import DiagnosticReporters
import Dispatch
import InputFiles
import Platform
import Pricing
import Promotions

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

    @Argument(help: ArgumentHelp("Promotion files (Apple XML property lists).", valueName: "plist"))
    var plists: [String]

    @Option(
        help: ArgumentHelp("Also check product codes, currency and discounts against this catalog.", valueName: "json"))
    var catalog: String?

    @Option(
        help: ArgumentHelp(
            "Report promotions that ended by this instant (RFC 3339). Default: now.", valueName: "instant"))
    var at: String?

    @Flag(help: "Fail (exit 1) on warnings too.")
    var strict = false

    @Option(help: "Output format: text, json, github (Actions annotations), junit, sarif.")
    var reporter: ReporterKind = .text

    @OptionGroup(title: "Limits") var limits: LimitsOptions

    func validate() throws {
        _ = try parseInstant(at)
    }

    func run() throws {
        let instant = try parseInstant(at) ?? SystemClock().now()
        var products: Catalog?
        if let catalog {
            do {
                products = try CatalogFile.load(catalog, limit: limits.maxFileSize)
            } catch {
                Console.error(error.description)
                throw ExitStatus.forInput(error)
            }
        }
        // The checks after reading (did you mean, shadowed promotions) run their parts on every core.
        let parts =
            Machine.processorCount > 1
            ? PartRunner { count, body in DispatchQueue.concurrentPerform(iterations: count, execute: body) }
            : .oneAfterAnother
        let checks = PromotionChecks(
            catalog: products, checksProducts: products != nil, expiryInstant: instant, limits: limits.plist,
            parts: parts)
        var files: [CheckedFile] = []
        var read: [PromotionFile] = []
        for path in plists {
            do {
                let file = try PromotionFile.load(contentsOf: path, checks: checks)
                files.append(.read(file))
                read.append(file)
            } catch {
                Console.error(error.description)
                files.append(.unreadable(path: path, reason: error.reason))
            }
        }
        if reporter == .text {
            // Written as it is made: a report of tens of thousands of warnings is never held whole.
            TextReporter.render(files) { OutputStream.standardOutput.write($0) }
        } else {
            OutputStream.standardOutput.write(reporter.render(files))
        }
        try Console.finishOutput()
        UntilExit.keep((files, read))
        if read.count < files.count { throw ExitStatus.noInput }
        if read.failCheck(strict: strict) { throw ExitStatus.failures }
    }
}
