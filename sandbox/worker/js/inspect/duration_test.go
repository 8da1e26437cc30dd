package inspect

import "testing"

// TestFormatDuration checks console.timeEnd's readings against Node 20's
// formatTime (lib/internal/console/constructor.js).
func TestFormatDuration(t *testing.T) {
	for _, c := range []struct {
		ms   float64
		want string
	}{
		{0, "0ms"},
		{0.15, "0.15ms"},
		{0.0021, "0.002ms"},
		{12.3456, "12.346ms"},
		{999.9999, "1000ms"},
		{1234.5, "1.234s"},
		{62345, "1:02.345 (m:ss.mmm)"},
		{600000, "10:00.000 (m:ss.mmm)"},
		{3723456, "1:02:03.456 (h:mm:ss.mmm)"},
		{0.0625, "0.063ms"}, // an exact tie: toFixed takes the larger
		{1062.5, "1.063s"},
		{0.0615, "0.061ms"}, // not a tie in binary (0.06149999…)
	} {
		if got := FormatDuration(c.ms); got != c.want {
			t.Errorf("FormatDuration(%v) = %q; want %q", c.ms, got, c.want)
		}
	}
}
