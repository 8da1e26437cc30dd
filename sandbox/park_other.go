//go:build !linux

package sandbox

import "time"

// procCPU is unknown off Linux: runs never park there.
func procCPU(int) (time.Duration, bool) { return 0, false }

const parkingSupported = false
