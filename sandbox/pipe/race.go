//go:build race

package pipe

// RaceEnabled reports a race-detector build. The detector maps shadow
// memory that RLIMIT_DATA would count, so a race-built worker relies on its
// heap watchdog alone, and the pool starts it with GORACE=atexit_sleep_ms=0
// (a race-built process sleeps 1 s at exit by default).
const RaceEnabled = true
