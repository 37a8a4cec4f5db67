import Testing

@testable import Workloads

@Suite("How cost grows: the sweep's plan, fits and drawings")
struct SweepTests {
    @Test("the plan: lines and carts from 10^3 to the cap, promotions from 10 to 10^5 against a fixed batch")
    func plan() {
        var sweep = Sweep(executable: "/bin/false", directory: "/tmp/x")
        sweep.maxExponent = 4
        let points = sweep.plan()
        #expect(points.filter { $0.axis == .lines }.map(\.lines) == [1_000, 10_000])
        #expect(points.filter { $0.axis == .promotions }.map(\.promotions) == [10, 100, 1_000, 10_000])
        #expect(points.filter { $0.axis == .promotions }.allSatisfy { $0.carts == 10_000 && $0.lines == 1 })
        #expect(points.filter { $0.axis == .carts }.map(\.carts) == [1_000, 10_000])
        sweep.maxExponent = 7
        #expect(sweep.plan().filter { $0.axis == .promotions }.map(\.promotions).last == 100_000)
        #expect(sweep.plan().count == 5 + 5 + 5)
    }

    @Test("the fitted exponent: 1 for linear growth, 0 for flat, 2 for quadratic, on the three largest sizes")
    func growth() throws {
        let linear = [(1_000, 9.0), (10_000, 0.02), (1_000_000, 2.0), (100_000, 0.2)]
        #expect(try abs(#require(Sweep.growth(linear)) - 1) < 1e-9)
        let flat = [(10, 0.5), (100, 0.5), (1_000, 0.5)]
        #expect(try abs(#require(Sweep.growth(flat))) < 1e-9)
        let quadratic = [(10_000, 1.0), (100_000, 100.0)]
        #expect(try abs(#require(Sweep.growth(quadratic)) - 2) < 1e-9)
        #expect(Sweep.growth([(1_000, 1.0)]) == nil)
    }

    @Test("logarithms for the axes, exact to 1e-12; round tops for linear axes")
    func logarithms() {
        #expect(abs(log10(1_000) - 3) < 1e-12)
        #expect(abs(log10(0.001) + 3) < 1e-12)
        #expect(abs(log10(2) - 0.301_029_995_663_981_2) < 1e-12)
        #expect(abs(log10(7.389_056_098_930_65) - 2 / 2.302_585_092_994_046) < 1e-12)
        #expect(log10(0) == -.infinity)
        #expect(niceCeiling(730) == 1_000)
        #expect(niceCeiling(130) == 200)
        #expect(niceCeiling(45) == 50)
    }

    @Test("CSV rows with exact figures, and an SVG with a curve per series")
    func outputs() {
        var a = Sweep.Point(axis: .lines, lines: 1_000, promotions: 1_000, carts: 0)
        a.priceSeconds = 0.000_5
        a.processSeconds = 0.02
        a.peakKilobytes = 25_000
        var b = Sweep.Point(axis: .lines, lines: 10_000, promotions: 1_000, carts: 0)
        b.priceSeconds = 0.005
        b.processSeconds = 0.03
        b.peakKilobytes = 27_500
        #expect(
            Sweep.csv([a, b]) == """
                axis,lines,promotions,carts,price_seconds,process_seconds,peak_kilobytes
                lines,1000,1000,0,0.000500,0.020000,25000
                lines,10000,1000,0,0.005000,0.030000,27500

                """)
        let svg = Sweep.svg([a, b], title: "a <test> & more")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(svg.contains("a &lt;test&gt; &amp; more"))
        // Two time curves and one memory curve for the one axis measured, each with two points.
        #expect(svg.ranges(of: "<polyline").count == 3)
        #expect(svg.ranges(of: "<circle").count == 6)
        #expect(svg.contains("pricing ∝ n^1.00"))
    }
}
