"""Runs a command in a pseudo-terminal, waits for PROMPT, sends SIGNAL (INT or TERM) to it, waits
for it to end, and prints whether the terminal's echo is on afterwards and how the command ended.

  python3 echo.py PROMPT SIGNAL -- COMMAND [ARG ...]
"""
import signal
import sys

import pexpect

prompt, name = sys.argv[1], sys.argv[2]
# The command inherits our signal mask and ignored signals: a test runner may block or ignore them.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
signal.signal(signal.SIGINT, signal.SIG_DFL)
signal.signal(signal.SIGTERM, signal.SIG_DFL)
command = sys.argv[sys.argv.index("--") + 1:]
child = pexpect.spawn(command[0], command[1:], encoding="utf-8", timeout=20)
child.expect(prompt)
echo_during = not child.waitnoecho(timeout=10)
child.kill(getattr(signal, "SIG" + name))
child.expect(pexpect.EOF)
echo_after = child.getecho()
child.close()
print(f"echo during: {echo_during}; echo after: {echo_after}; signal: {child.signalstatus}")
