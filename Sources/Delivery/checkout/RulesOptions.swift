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
            throw report(error)
        }
    }

    /// Says on standard error why the rules cannot be used, and, when an environment variable gave
    /// the file's path, which one; returns the exit code.
    func report(_ error: PricingRulesError) -> ExitCode {
        Self.report(error, promotionsOption: promotions, catalogOption: catalog)
    }

    /// ``report(_:)`` for a command whose options are `promotionsOption` and `catalogOption` (nil:
    /// not given, so that the environment's value was used, if any).
    static func report(_ error: PricingRulesError, promotionsOption: String?, catalogOption: String?) -> ExitCode {
        let code = report(error)
        let (option, variable, path) =
            switch error {
            case .catalog: ("--catalog", EnvironmentDefault.catalog, catalogOption)
            case .promotionsUnreadable, .promotionsInvalid:
                ("--promotions", EnvironmentDefault.promotions, promotionsOption)
            }
        if path == nil, let value = EnvironmentDefault.value(variable) {
            OutputStream.standardError.write(
                "note: the path \(value.forDisplay()) comes from $\(variable) (give \(option) FILE for another)\n")
        }
        return code
    }

    /// Says on standard error why the rules cannot be used; returns the exit code. A JSON file
    /// given for the promotions, or a plist for the catalog, is said to be the other one.
    static func report(_ error: PricingRulesError) -> ExitCode {
        switch error {
        case .catalog(let error):
            Console.error(error.description)
            if error.kind == .invalid, firstByte(of: error.file) == UInt8(ascii: "<") {
                OutputStream.standardError.write(
                    "note: \(error.file.forDisplay()) is XML, not a JSON catalog: if it is the promotions plist, give it with --promotions, and the catalog with --catalog\n"
                )
            }
            return ExitStatus.forInput(error)
        case .promotionsUnreadable(let error):
            Console.error(error.description)
            return ExitStatus.noInput
        case .promotionsInvalid(let file):
            for diagnostic in file.diagnostics {
                OutputStream.standardError.write(TextReporter.line(diagnostic, file: file.name) + "\n")
            }
            if let first = firstByte(of: file.name), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                Console.error(
                    "\(file.name.forDisplay()) is JSON, not a promotions plist: if it is the catalog, give it with --catalog, and the promotions with --promotions"
                )
                return ExitStatus.dataError
            }
            let errors = file.errorCount == 1 ? "1 error; fix it" : "\(file.errorCount) errors; fix them"
            Console.error(
                "\(file.name) has \(errors) before pricing (`checkout validate \(file.name == "<stdin>" ? "-" : file.name)` lists \(file.errorCount == 1 ? "it" : "them"))"
            )
            return ExitStatus.dataError
        }
    }
}

/// The first byte of the regular file at `path` that is not white space (after a UTF-8 byte order
/// mark), or nil for standard input, a pipe, the built-in store or a file that cannot be read: what
/// kind of file it is, for a hint when a catalog and a promotions file are given the wrong way round.
private func firstByte(of path: String) -> UInt8? {
    // Regular files only: a pipe or a terminal read again would wait for more input.
    guard path != "-", path != "<stdin>", case .regular = FileKind.of(path: path),
        let bytes = try? FileSystem.prefix(of: path, count: 256)
    else { return nil }
    var rest = bytes[...]
    if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
    return rest.first { !" \t\r\n".utf8.contains($0) }
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
