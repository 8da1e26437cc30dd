package sandbox

import (
	"testing"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// TestRunMemoryFromBudget: a run's heap cap is its process's share of the
// budget, so that every process the pool may run fits it together; within
// the bounds, and set by hand it is kept.
func TestRunMemoryFromBudget(t *testing.T) {
	c := Config{Workers: 2, Spares: 1, MaxParked: 16, MemoryBudget: 18 << 30}.withDefaults()
	if c.Processes() != 19 {
		t.Fatalf("processes %d, want 19", c.Processes())
	}
	if got := int64(c.Processes()) * (c.MemoryBytes + pipe.Baseline); got > c.MemoryBudget {
		t.Errorf("%d processes need %d bytes, over the budget %d", c.Processes(), got, c.MemoryBudget)
	}
	if c.MemoryBytes < 800<<20 {
		t.Errorf("run cap %d MiB: an 18 GiB budget over 19 processes leaves ~874 MiB", c.MemoryBytes>>20)
	}
	if small := RunMemoryFor(1<<30, 19); small != MinRunMemory {
		t.Errorf("a small budget gives %d, want the floor %d", small, MinRunMemory)
	}
	if huge := RunMemoryFor(1<<40, 3); huge != MaxRunMemory {
		t.Errorf("a huge budget gives %d, want the ceiling %d", huge, MaxRunMemory)
	}
	if set := (Config{MemoryBytes: 128 << 20}).withDefaults(); set.MemoryBytes != 128<<20 {
		t.Errorf("MemoryBytes set by hand became %d", set.MemoryBytes)
	}
	if d := DefaultMemoryBudget(); d <= 0 {
		t.Errorf("DefaultMemoryBudget() = %d", d)
	}
}

// TestSparesNoneOrDefault: zero spares is the default, a negative count is
// none (cmd/playground's -spare-workers 0), and neither is subtracted from
// the processes.
func TestSparesNoneOrDefault(t *testing.T) {
	for _, c := range []struct{ in, want int }{{0, DefaultConfig().Spares}, {-1, 0}, {3, 3}} {
		got := Config{Workers: 2, Spares: c.in, MaxParked: -1}.withDefaults()
		if got.Spares != c.want || got.Processes() != 2+c.want {
			t.Errorf("Spares %d: %d spares, %d processes; want %d, %d", c.in, got.Spares, got.Processes(), c.want, 2+c.want)
		}
	}
}
