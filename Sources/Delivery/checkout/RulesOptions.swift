import ArgumentParser
import BatchPricing
import InputFiles
import Platform
import PlistReader
import Pricing
import Reporters

/// `--promotions` and `--catalog`, shared by every command that prices.
struct RulesOptions: ParsableArguments {
    @Option(
        name: [.short, .long],
        help: ArgumentHelp(
            "The promotions plist (- reads standard input).",
            discussion:
                "Default: $CHECKOUT_PROMOTIONS, else Rules/Promotions.plist when present, else the built-in Cabify store.",
            valueName: "plist"),
        completion: .promotionsFile)
    var promotions: String?

    @Option(name: [.short, .long], help: RulesOptions.catalogHelp, completion: .catalogFile)
    var catalog: String?

    /// `--catalog`'s help, for every command that takes a catalog.
    static let catalogHelp = ArgumentHelp(
        "The product catalog (JSON; - reads standard input).",
        discussion:
            "Default: $CHECKOUT_CATALOG, else Rules/Products.json when present, else the built-in Cabify store.",
        valueName: "json")

    /// The promotions and catalog files given: options, else the environment's defaults.
    var promotionsPath: String? { promotions ?? EnvironmentDefault.value(EnvironmentDefault.promotions) }
    var catalogPath: String? { catalog ?? EnvironmentDefault.value(EnvironmentDefault.catalog) }

    var catalogSource: RulesSource { RulesSource.resolve(catalogPath, default: "Products.json") }
    var promotionsSource: RulesSource { RulesSource.resolve(promotionsPath, default: "Promotions.plist") }

    func validate() throws {
        try checkStandardInputReadOnce(inputs)
    }

    /// The files these options would read, for ``checkStandardInputReadOnce(_:alsoReads:)``.
    var inputs: [(what: String, path: String?)] {
        [("--promotions", promotionsPath), ("--catalog", catalogPath)]
    }

    /// The catalog's own name when it is the built-in one, for messages about unknown codes.
    var builtInCatalogNote: String? {
        guard catalogSource == .shipped else { return nil }
        return Self.builtInCatalogNote
    }

    static let builtInCatalogNote =
        "note: the catalog is the built-in Cabify store's (no --catalog, $CHECKOUT_CATALOG unset, no Rules/Products.json here): give --catalog FILE or set CHECKOUT_CATALOG"

    /// The catalog and promotions ready for pricing; on failure, says why on standard error and
    /// exits 66 (cannot read) or 65 (invalid).
    func load(limits: InputLimits = .default, plistLimits: PlistLimits = .default) throws -> PricingRules {
        do {
            return try PricingRules.load(
                catalog: catalogSource, promotions: promotionsSource, limits: limits, plistLimits: plistLimits)
        } catch {
            throw Self.report(error)
        }
    }

    /// Says on standard error why the rules cannot be used; returns the exit code.
    static func report(_ error: PricingRulesError) -> ExitCode {
        switch error {
        case .catalog(let error):
            Console.error(error.description)
            return ExitStatus.forInput(error)
        case .promotionsUnreadable(let error):
            Console.error(error.description)
            return ExitStatus.noInput
        case .promotionsInvalid(let file):
            for diagnostic in file.diagnostics {
                OutputStream.standardError.write(TextReporter.line(diagnostic, file: file.name) + "\n")
            }
            let errors = file.errorCount == 1 ? "1 error; fix it" : "\(file.errorCount) errors; fix them"
            Console.error(
                "\(file.name) has \(errors) before pricing (`checkout validate \(file.name == "<stdin>" ? "-" : file.name)` lists \(file.errorCount == 1 ? "it" : "them"))"
            )
            return ExitStatus.dataError
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
