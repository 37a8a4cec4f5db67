import ArgumentParser
import DiagnosticReporters
import InputFiles
import Platform
import PlistReader
import Pricing

/// `--promotions` and `--catalog`, shared by every command that prices.
struct RulesOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The promotions plist.",
            discussion: "Default: Rules/Promotions.plist when present, else the built-in shipped store.",
            valueName: "plist"))
    var promotions: String?

    @Option(
        help: ArgumentHelp(
            "The product catalog (JSON).",
            discussion: "Default: Rules/Products.json when present, else the built-in shipped store.", valueName: "json"
        ))
    var catalog: String?

    var catalogSource: RulesSource { RulesSource.resolve(catalog, default: "Products.json") }
    var promotionsSource: RulesSource { RulesSource.resolve(promotions, default: "Promotions.plist") }

    /// The catalog and promotions ready for pricing; on failure, says why on standard error and
    /// exits 66 (cannot read) or 65 (invalid).
    func load(limits: PlistLimits = .default) throws -> PricingRules {
        do {
            return try PricingRules.load(catalog: catalogSource, promotions: promotionsSource, limits: limits)
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
            Console.error(
                "\(file.name) has \(file.errorCount) error\(file.errorCount == 1 ? "" : "s"); fix them before pricing (`checkout validate \(file.name)` lists them)"
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

/// The machine's wall clock, the one adapter of the ``WallClock`` port.
struct SystemClock: WallClock {
    func now() -> Instant {
        let (seconds, nanoseconds) = Machine.wallClock()
        return Instant(seconds: seconds, nanoseconds: nanoseconds)
    }
}
