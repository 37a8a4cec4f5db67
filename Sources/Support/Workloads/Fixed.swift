/// `value` with `decimals` digits after the point, without Foundation.
public func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64((value * scale).rounded())
    guard decimals > 0 else { return String(scaled) }
    let digits = String(scaled.magnitude)
    let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
    let point = padded.index(padded.endIndex, offsetBy: -decimals)
    return (scaled < 0 ? "-" : "") + padded[..<point] + "." + padded[point...]
}
