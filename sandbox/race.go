//go:build race

package sandbox

// raceEnabled: the race detector maps shadow memory that RLIMIT_DATA would
// count, so a race-built worker relies on its heap watchdog alone.
const raceEnabled = true
