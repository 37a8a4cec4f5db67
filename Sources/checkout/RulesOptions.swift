import ArgumentParser
import CheckoutFiles
import DiagnosticReporters
import PlistReader
import Pricing

/// `--promotions` and `--catalog`, shared by every command that prices.
struct RulesOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The promotions plist.", discussion: "Default: Rules/Promotions.plist when present, else the built-in shipped store.", valueName: "plist"))
    var promotions: String?

    @Option(help: ArgumentHelp("The product catalog (JSON).", discussion: "Default: Rules/Products.json when present, else the built-in shipped store.", valueName: "json"))
    var catalog: String?

    /// The catalog and promotions ready for pricing; on failure, says why on standard error and
    /// exits 66 (cannot read) or 65 (invalid).
    func load(limits: PlistLimits = .default) throws -> PricingRules {
        try load(limits: limits, alongside: { _ in () }).0
    }

    /// Loads as ``load()`` does while `alongside` runs with the catalog on another thread.
    func load<T: Sendable>(limits: PlistLimits = .default, alongside: @escaping @Sendable (Catalog) -> T) throws -> (PricingRules, T) {
        do {
            return try PricingRules.load(
                catalog: RulesSource.resolve(catalog, default: "Products.json"),
                promotions: RulesSource.resolve(promotions, default: "Promotions.plist"),
                limits: limits, alongside: alongside)
        } catch {
            switch error {
            case .catalog(let error):
                Console.error(error.description)
                throw ExitStatus.forInput(error)
            case .promotionsUnreadable(let error):
                Console.error(error.description)
                throw ExitStatus.noInput
            case .promotionsInvalid(let file):
                for diagnostic in file.diagnostics {
                    OutputStream.standardError.write(TextReporter.line(diagnostic, file: file.name) + "\n")
                }
                Console.error("\(file.name) has \(file.errorCount) error\(file.errorCount == 1 ? "" : "s"); fix them before pricing (`checkout validate \(file.name)` lists them)")
                throw ExitStatus.dataError
            }
        }
    }
}

/// Parses `--at`: RFC 3339; anything else is a usage error (64).
func parseInstant(_ text: String?, option: String = "--at") throws -> Instant? {
    guard let text else { return nil }
    do {
        return try Instant(rfc3339: text)
    } catch {
        throw ValidationError("\(option): \(error.description)")
    }
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
