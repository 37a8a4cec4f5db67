import Glibc
import Platform
import Testing

@Suite("Output")
struct OutputTests {
    @Test("a closed pipe is an error, not a crash and not silence")
    func closedPipe() throws {
        Machine.ignoreBrokenPipeSignal()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        close(fds[0])
        let out = OutputStream(fd: FileDescriptor(rawValue: fds[1]), capacity: 16)
        out.write("more than sixteen bytes of receipt")
        let error = #expect(throws: OutputError.self) { try out.flush() }
        #expect(error?.description == "cannot write the output: Broken pipe")
        close(fds[1])
    }
}
