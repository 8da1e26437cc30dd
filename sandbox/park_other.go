//go:build !linux

package sandbox

import (
	"os"
	"time"
)

// procCPU is unknown off Linux: runs never park there.
func procCPU(int) (time.Duration, bool) { return 0, false }

const parkingSupported = false

func freezeSignal(bool) os.Signal { return nil }
