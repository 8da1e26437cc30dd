//go:build !race

package pipe

// RaceEnabled reports a race-detector build (see race.go).
const RaceEnabled = false
