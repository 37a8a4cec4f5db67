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
        if maxFileSize <= 0 { throw ValidationError("--max-file-size \(maxFileSize): give a number of bytes above 0") }
        if maxTextLength <= 0 {
            throw ValidationError("--max-text-length \(maxTextLength): give a number of bytes above 0")
        }
        if maxDepth < 2 {
            throw ValidationError(
                "--max-depth \(maxDepth): give at least 2 (a promotions file nests a dictionary in its array)")
        }
    }
}
