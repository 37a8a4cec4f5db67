#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for SECONDS (default 60) on its seed corpus.
# A crash fails the run; the input that caused it lands in fuzz-artifacts/ — add it to
# Fuzz/Regressions/<corpus>/ so the tests replay it from then on.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzPlistReader FuzzPromotions FuzzCart FuzzCatalog)
swift build -c debug --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 | tail -1
bin=$(swift build -c debug --show-bin-path)
mkdir -p ../fuzz-artifacts
for target in "${targets[@]}"; do
    case $target in
        FuzzPlistReader) corpus=plist ;;
        FuzzPromotions) corpus=promotions ;;
        FuzzCart) corpus=cart ;;
        FuzzCatalog) corpus=catalog ;;
        *) echo "unknown target $target"; exit 64 ;;
    esac
    work=$(mktemp -d)
    log=$(mktemp)
    echo "== $target for ${seconds}s"
    status=0
    SWIFT_BACKTRACE=enable=no "$bin/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=5 -max_len=65536 \
        -artifact_prefix=../fuzz-artifacts/"$target"- -print_final_stats=1 "$work" "Corpus/$corpus" "Regressions/$corpus" >"$log" 2>&1 || status=$?
    grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss|==[0-9]+==ERROR|SUMMARY|Test unit written)" "$log" || true
    rm -rf "$work"
    if [ "$status" -ne 0 ]; then
        tail -40 "$log"
        rm -f "$log"
        echo "$target failed (exit $status): the input is in fuzz-artifacts/; keep it in Fuzz/Regressions/$corpus/"
        exit 1
    fi
    rm -f "$log"
done
