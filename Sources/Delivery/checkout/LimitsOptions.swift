import ArgumentParser
import InputFiles
import PlistReader

/// Bounds on untrusted input, raised when a user's real files need more.
struct LimitsOptions: ParsableArguments, InputBounds {
    @Option(
        help: ArgumentHelp(
            "Largest input file (cart, catalog, promotions) or batch line, in bytes.", valueName: "bytes"))
    var maxFileSize = PlistLimits.default.maxFileSize

    @Option(help: ArgumentHelp("Longest text of one plist element, in bytes.", valueName: "bytes"))
    var maxTextLength = PlistLimits.default.maxTextLength

    @Option(help: ArgumentHelp("Deepest nesting of plist elements.", valueName: "levels"))
    var maxDepth = PlistLimits.default.maxDepth
}

/// The limits of ``LimitsOptions`` for commands that read whole files only (`validate`): no batch lines.
struct FileLimitsOptions: ParsableArguments, InputBounds {
    @Option(help: ArgumentHelp("Largest input file (promotions, catalog), in bytes.", valueName: "bytes"))
    var maxFileSize = PlistLimits.default.maxFileSize

    @Option(help: ArgumentHelp("Longest text of one plist element, in bytes.", valueName: "bytes"))
    var maxTextLength = PlistLimits.default.maxTextLength

    @Option(help: ArgumentHelp("Deepest nesting of plist elements.", valueName: "levels"))
    var maxDepth = PlistLimits.default.maxDepth
}

/// The three bounds both option groups give, and what they make: the groups differ only in the
/// words of their help.
protocol InputBounds: ParsableArguments {
    var maxFileSize: Int { get }
    var maxTextLength: Int { get }
    var maxDepth: Int { get }
}

extension InputBounds {
    /// Bounds on the carts, batches and catalog (a batch line: the file size, at most 16 MiB).
    var input: InputLimits { InputLimits(maxFileSize: maxFileSize) }

    /// Bounds on the promotions files.
    var plist: PlistLimits {
        PlistLimits(maxFileSize: maxFileSize, maxDepth: maxDepth, maxTextLength: maxTextLength)
    }

    func validate() throws {
        guard maxFileSize > 0, maxTextLength > 0, maxDepth >= 2 else {
            throw ValidationError("limits must be positive (and --max-depth at least 2)")
        }
    }
}
