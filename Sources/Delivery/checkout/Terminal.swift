import Platform
import Receipts

/// How standard output is shown: fitted to the terminal's width, with colour, when it is a
/// terminal; plain when piped, or with colour off when `NO_COLOR` is set (or `TERM` is dumb).
enum Terminal {
    static let style: TextStyle = {
        guard FileDescriptor.standardOutput.isTerminal else { return .plain }
        let columns =
            Machine.environment("COLUMNS").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
            ?? FileDescriptor.standardOutput.terminalColumns
        let colour = Machine.environment("NO_COLOR").map(\.isEmpty) ?? true && Machine.environment("TERM") != "dumb"
        return TextStyle(width: columns, colour: colour)
    }()
}
