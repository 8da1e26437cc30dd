#!/bin/bash
# usage: scripts/cpu-per-run.sh BINARY PORT CONNS [DURATION [FILE]]  (needs /tmp/loadgen: go build -o /tmp/loadgen ./cmd/loadgen)
# FILE: run that snippet instead of loadgen's two-file hello (loadgen -file).
# Server CPU: utime+stime of the server; worker CPU: utime+stime of its live
# worker children plus cutime+cstime (workers it reaped: recycled after
# MaxRunsPerWorker runs), from /proc, over a loadgen run.
BIN=$1; PORT=$2; CONNS=$3; DUR=${4:-5s}; FILE=()
[ -n "$5" ] && FILE=(-file "$5")
$BIN -addr 127.0.0.1:$PORT -rate 1e6 -burst 1000000 -log-level warn >/dev/null 2>&1 &
SRV=$!
sleep 1.5
ticks() { local s=0; for p in "$@"; do [ -r /proc/$p/stat ] && s=$((s + $(sed 's/^.*) //' /proc/$p/stat | awk '{print $12+$13}'))); done; echo $s; }
reaped() { sed 's/^.*) //' /proc/$1/stat | awk '{print $14+$15}'; }
/tmp/loadgen -addr 127.0.0.1:$PORT -conns $CONNS -duration 1s "${FILE[@]}" >/dev/null 2>&1
s0=$(ticks $SRV); w0=$(( $(ticks $(pgrep -P $SRV)) + $(reaped $SRV) ))
OUT=$(/tmp/loadgen -addr 127.0.0.1:$PORT -conns $CONNS -duration $DUR "${FILE[@]}" 2>&1)
s1=$(ticks $SRV); w1=$(( $(ticks $(pgrep -P $SRV)) + $(reaped $SRV) ))
RUNS=$(echo "$OUT" | grep -E "^runs" | awk "{print \$2}")
echo "$OUT" | grep -E "^runs|^latency|^memory idle"
python3 -c "r=$RUNS; print('runs',r,'server ms/run %.3f'%(($s1-$s0)*10/r),'worker ms/run %.3f'%(($w1-$w0)*10/r))"
kill $SRV; wait $SRV 2>/dev/null
