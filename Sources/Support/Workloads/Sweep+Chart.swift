import Platform

/// How a sweep's costs grow, fitted, and the curves drawn as SVG.
extension Sweep {
    /// The exponent `k` of the fit `cost ≈ c · sizeᵏ` (least squares on logarithms) over the three
    /// largest sizes: 1 is linear, 0 flat. Smaller sizes are left out, since fixed costs (starting
    /// threads, a process, tables) hide the growth there.
    public static func growth(_ points: [(size: Int, cost: Double)]) -> Double? {
        let usable = points.filter { $0.size > 0 && $0.cost > 0 }
        let fitted = usable.sorted { $0.size < $1.size }.suffix(3)
        guard fitted.count >= 2 else { return nil }
        let xs = fitted.map { log10(Double($0.size)) }
        let ys = fitted.map { log10($0.cost) }
        let mx = xs.reduce(0, +) / Double(xs.count)
        let my = ys.reduce(0, +) / Double(ys.count)
        var sxy = 0.0
        var sxx = 0.0
        for (x, y) in zip(xs, ys) {
            sxy += (x - mx) * (y - my)
            sxx += (x - mx) * (x - mx)
        }
        return sxx > 0 ? sxy / sxx : nil
    }

    /// The fitted exponents per axis: pricing time and peak memory.
    public static func fits(_ points: [Point]) -> [(axis: Axis, time: Double?, memory: Double?)] {
        Axis.allCases.map { axis in
            let series = points.filter { $0.axis == axis }
            return (
                axis, growth(series.map { (axis.size(of: $0), $0.priceSeconds) }),
                growth(series.map { (axis.size(of: $0), Double($0.peakKilobytes)) })
            )
        }
    }

    /// Six panels: for each axis, the pricing time (in process, and the whole run) on log-log
    /// scales, and the peak memory of the whole run.
    public static func svg(_ points: [Point], title: String) -> String {
        let panelWidth = 300.0
        let panelHeight = 220.0
        let left = 60.0
        let top = 50.0
        let gap = 70.0
        let width = left + 3 * panelWidth + 2 * gap + 20
        let height = top + 2 * panelHeight + 70 + 40
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            font-family="sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="22" font-size="14" font-weight="bold">\(escape(title))</text>

            """
        let fits = fits(points)
        for (column, axis) in Axis.allCases.enumerated() {
            let series = points.filter { $0.axis == axis }
            guard !series.isEmpty else { continue }
            let x0 = left + Double(column) * (panelWidth + gap)
            let fit = fits[column]
            let sizes = series.map { Double(axis.size(of: $0)) }
            let name = axis == .promotions ? "promotions (batch of \(series[0].carts) carts)" : axis.rawValue
            // Time, log-log.
            let times = series.flatMap { [$0.priceSeconds, $0.processSeconds] }.filter { $0 > 0 }
            var panel = Panel(
                x: x0, y: top, width: panelWidth, height: panelHeight, xs: sizes, ys: times, logY: true)
            svg += panel.frame(xLabel: name, yLabel: "seconds")
            svg += panel.line(zip(sizes, series.map(\.priceSeconds)), colour: "#1f77b4")
            svg += panel.line(zip(sizes, series.map(\.processSeconds)), colour: "#ff7f0e", dashed: true)
            svg += panel.caption(
                "pricing ∝ n^\(fixed(fit.time ?? 0, 2))", line: 0, colour: "#1f77b4")
            svg += panel.caption("whole run (dashed)", line: 1, colour: "#ff7f0e")
            // Memory, log x.
            let megabytes = series.map { Double($0.peakKilobytes) / 1024 }
            panel = Panel(
                x: x0, y: top + panelHeight + 70, width: panelWidth, height: panelHeight, xs: sizes,
                ys: megabytes + [0], logY: false)
            svg += panel.frame(xLabel: name, yLabel: "peak MB")
            svg += panel.line(zip(sizes, megabytes), colour: "#2ca02c")
            svg += panel.caption("peak memory ∝ n^\(fixed(fit.memory ?? 0, 2))", line: 0, colour: "#2ca02c")
        }
        return svg + "</svg>\n"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}

/// One chart: a frame with decade ticks, and the mapping of values into it.
struct Panel {
    let x: Double
    let y: Double
    let width: Double
    let height: Double
    let xRange: (Double, Double)
    let yRange: (Double, Double)
    let logY: Bool

    init(x: Double, y: Double, width: Double, height: Double, xs: [Double], ys: [Double], logY: Bool) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.logY = logY
        let lx = xs.map(log10)
        let lowX = ((lx.min() ?? 0) + 1e-9).rounded(.down)
        xRange = (lowX, max(((lx.max() ?? 1) - 1e-9).rounded(.up), lowX + 1))
        if logY {
            let ly = ys.filter { $0 > 0 }.map(log10)
            let low = ((ly.min() ?? -3) + 1e-9).rounded(.down)
            yRange = (low, max(((ly.max() ?? 0) - 1e-9).rounded(.up), low + 1))
        } else {
            let high = ys.max() ?? 1
            yRange = (0, niceCeiling(high))
        }
    }

    func px(_ value: Double) -> Double {
        x + (log10(value) - xRange.0) / (xRange.1 - xRange.0) * width
    }

    func py(_ value: Double) -> Double {
        let v = logY ? log10(max(value, 1e-12)) : value
        return y + height - (v - yRange.0) / (yRange.1 - yRange.0) * height
    }

    func frame(xLabel: String, yLabel: String) -> String {
        var out = """
            <rect x="\(f(x))" y="\(f(y))" width="\(f(width))" height="\(f(height))" fill="none" stroke="#888"/>

            """
        var decade = xRange.0
        while decade <= xRange.1 {
            let tx = x + (decade - xRange.0) / (xRange.1 - xRange.0) * width
            out += """
                <line x1="\(f(tx))" y1="\(f(y))" x2="\(f(tx))" y2="\(f(y + height))" stroke="#eee"/>\
                <text x="\(f(tx))" y="\(f(y + height + 14))" text-anchor="middle">10^\(Int(decade))</text>

                """
            decade += 1
        }
        // Decades on a log scale; on a linear one, round steps: 0.2 of a 1 or a 5, 0.25 of a 2.
        let steps: Int
        if logY {
            steps = Int(yRange.1 - yRange.0)
        } else {
            var leading = yRange.1
            while leading >= 10 { leading /= 10 }
            steps = leading == 2 ? 4 : 5
        }
        for step in 0...steps {
            let value = yRange.0 + (yRange.1 - yRange.0) * Double(step) / Double(steps)
            let ty = y + height - Double(step) / Double(steps) * height
            let label = logY ? secondsLabel(value) : String(Int(value.rounded()))
            out += """
                <line x1="\(f(x))" y1="\(f(ty))" x2="\(f(x + width))" y2="\(f(ty))" stroke="#eee"/>\
                <text x="\(f(x - 4))" y="\(f(ty + 4))" text-anchor="end">\(label)</text>

                """
        }
        out += """
            <text x="\(f(x + width / 2))" y="\(f(y + height + 30))" text-anchor="middle">\(Sweep.escape(xLabel))</text>
            <text x="\(f(x - 45))" y="\(f(y + height / 2))" text-anchor="middle" \
            transform="rotate(-90 \(f(x - 45)) \(f(y + height / 2)))">\(yLabel)</text>

            """
        return out
    }

    func line(_ values: some Sequence<(Double, Double)>, colour: String, dashed: Bool = false) -> String {
        let drawn = values.filter { $0.1 > 0 || !logY }
        let points = drawn.map { "\(f(px($0.0))),\(f(py($0.1)))" }.joined(separator: " ")
        var out = """
            <polyline points="\(points)" fill="none" stroke="\(colour)" stroke-width="2"\
            \(dashed ? " stroke-dasharray=\"5,3\"" : "")/>

            """
        for (value, cost) in drawn {
            out += "<circle cx=\"\(f(px(value)))\" cy=\"\(f(py(cost)))\" r=\"3\" fill=\"\(colour)\"/>\n"
        }
        return out
    }

    func caption(_ text: String, line: Int, colour: String) -> String {
        """
        <text x="\(f(x + 6))" y="\(f(y + 14 + 14 * Double(line)))" fill="\(colour)">\(Sweep.escape(text))</text>

        """
    }

    func secondsLabel(_ exponent: Double) -> String {
        let labels = [
            -6: "1 µs", -5: "10 µs", -4: "100 µs", -3: "1 ms", -2: "10 ms", -1: "100 ms", 0: "1 s", 1: "10 s",
            2: "100 s"
        ]
        let power = Int(exponent.rounded())
        return labels[power] ?? "10^\(power) s"
    }

    func f(_ value: Double) -> String { fixed(value, 1) }
}

/// The smallest of 1, 2, 5 × a power of ten at or above `value`.
func niceCeiling(_ value: Double) -> Double {
    guard value > 0 else { return 1 }
    var scale = 1.0
    while scale * 10 <= value { scale *= 10 }
    while scale > value { scale /= 10 }
    for step in [1.0, 2, 5, 10] where step * scale >= value { return step * scale }
    return 10 * scale
}

/// The base-10 logarithm, from the C library (through Platform); minus infinity for 0 or less.
func log10(_ value: Double) -> Double {
    value > 0 ? decimalLogarithm(value) : -.infinity
}
