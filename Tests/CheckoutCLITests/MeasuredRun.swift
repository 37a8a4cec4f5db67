import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A run of the binary with its own resource use: wall time and peak resident memory. The memory is
/// GNU time's: posix_spawn uses vfork, and Linux carries the parent's memory into the child's
/// ru_maxrss; time forks from a small process.
struct MeasuredRun {
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double
    var peakMegabytes: Double
}

/// Runs `checkout` in `directory`, stdin from `stdinFile` (or /dev/null), stdout to a file
/// (or to `stdoutPath` such as /dev/full).
func measuredCheckout(
    _ arguments: [String], in directory: URL, stdinFile: String = "/dev/null", stdoutPath: String? = nil
) throws -> MeasuredRun {
    let outPath = stdoutPath ?? directory.appendingPathComponent(".stdout-\(UUID().uuidString)").path
    let errPath = directory.appendingPathComponent(".stderr-\(UUID().uuidString)").path
    defer {
        if stdoutPath == nil { unlink(outPath) }
        unlink(errPath)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdinFile, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    // time forks a shell, which changes directory and execs the binary.
    let memoryPath = directory.appendingPathComponent(".memory-\(UUID().uuidString)").path
    defer { unlink(memoryPath) }
    let argv =
        ([
            "/usr/bin/time", "-f", "%M", "-o", memoryPath, "/bin/sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh",
            directory.path, checkoutBinary.path
        ] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    var start = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    let spawned = posix_spawn(&pid, "/usr/bin/time", &actions, nil, argv, environ)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &end)
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    // The last line of time's report is the peak in kilobytes (a line before it may say "Command exited with non-zero status").
    let kilobytes = Double(read(memoryPath).split(separator: "\n").last.map(String.init) ?? "") ?? .infinity
    return MeasuredRun(
        status: exitStatus, stdout: stdoutPath == nil ? read(outPath) : "", stderr: read(errPath),
        seconds: Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9,
        peakMegabytes: kilobytes / 1024)
}
