"""Times commands in rounds, each round running every command once (the order rotated from round to
round), so that commands compared with each other are measured minutes apart at most seconds, not
minutes: on a shared machine whose speed drifts, ratios of medians of separate blocks drift with it.

Usage: python3 rounds.py [--runs N] [--warmup W] [--ignore-failure] --export-json FILE CMD...
Each CMD is one command line (split like a shell would, without one). Writes
{"results": [{"command", "median", "times", "cpu_median", "cpu_times"}]}, times in seconds (wall
clock; cpu_times: user + system time of the command and its threads), times[i] from round i, so that
per-round ratios pair runs made next to each other.
"""
import argparse
import json
import resource
import shlex
import statistics
import subprocess
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--runs", type=int, default=5)
parser.add_argument("--warmup", type=int, default=1)
parser.add_argument("--ignore-failure", action="store_true")
parser.add_argument("--export-json", required=True)
parser.add_argument("commands", nargs="+")
args = parser.parse_args()

argvs = [shlex.split(command) for command in args.commands]
times = [[] for _ in argvs]
cpu_times = [[] for _ in argvs]
for round_index in range(args.warmup + args.runs):
    order = list(range(len(argvs)))
    shift = round_index % len(order)
    order = order[shift:] + order[:shift]
    for i in order:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        status = subprocess.run(argvs[i], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if status != 0 and not args.ignore_failure:
            sys.exit(f"command failed with exit code {status}: {args.commands[i]}")
        if round_index >= args.warmup:
            times[i].append(elapsed)
            cpu_times[i].append(cpu)

results = [
    {"command": c, "median": statistics.median(t), "times": t, "cpu_median": statistics.median(u), "cpu_times": u}
    for c, t, u in zip(args.commands, times, cpu_times)
]
with open(args.export_json, "w") as out:
    json.dump({"results": results}, out)
