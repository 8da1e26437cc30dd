package sandbox

import "testing"

// TestStartedCountsOnlyWorkersThatStarted: Stats.Started (what /readyz
// checks) stays 0 while every worker fails to start, though Live counts
// the processes being started; with a working binary it reaches every
// worker the pool keeps.
func TestStartedCountsOnlyWorkersThatStarted(t *testing.T) {
	broken := newTestPool(t, Config{Workers: 1, Command: []string{"/bin/false"}})
	waitFor(t, "a failed start", func() bool { return broken.Stats().Failures > 0 })
	if st := broken.Stats(); st.Started != 0 || st.Live == 0 {
		t.Errorf("no worker can start: Started %d, Live %d; want 0 started while some are being started", st.Started, st.Live)
	}
	ok := newTestPool(t, Config{Workers: 1, Spares: 1})
	waitFor(t, "both workers started", func() bool { return ok.Stats().Started == 2 })
}
