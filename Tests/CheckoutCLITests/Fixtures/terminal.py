"""Runs a command in a pseudo-terminal of a given width, as a person at a terminal would, and prints
what they would have seen. Used by the end-to-end tests for prompts and terminal layout.

  python3 terminal.py COLUMNS EXPECT SEND [EXPECT SEND ...] -- COMMAND [ARG ...]

Each EXPECT is text to wait for (a regular expression), then SEND is typed followed by Enter; an
EXPECT of "" sends at once. The transcript (with the terminal's own echo) goes to standard output,
then a line "exit N".
"""
import sys

import pexpect

columns = int(sys.argv[1])
split = sys.argv.index("--")
steps = sys.argv[2:split]
command = sys.argv[split + 1:]
child = pexpect.spawn(command[0], command[1:], dimensions=(24, columns), encoding="utf-8", timeout=20)
transcript = []
for expect, send in zip(steps[0::2], steps[1::2]):
    if expect:
        child.expect(expect)
        transcript.append(child.before + child.after)
    child.sendline(send)
child.expect(pexpect.EOF)
transcript.append(child.before)
child.close()
sys.stdout.write("".join(transcript).replace("\r\n", "\n"))
sys.stdout.write(f"\nexit {child.exitstatus}\n")
