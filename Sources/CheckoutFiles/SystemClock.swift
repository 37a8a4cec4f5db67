#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Pricing

/// The machine's wall clock.
public enum SystemClock {
    public static func now() -> Instant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Instant(seconds: Int64(spec.tv_sec), nanoseconds: Int32(spec.tv_nsec))
    }
}
