package intl

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRangesDataIsFresh re-records every 17th component combination's
// range patterns (and every style's) under Node, when node is on PATH
// with the ICU data.json names, and checks each equals the committed one.
func TestRangesDataIsFresh(t *testing.T) {
	recordingNode(t, "", loadData().ICU)
	dir := t.TempDir()
	cmd := exec.Command("node", "data/gen_ranges.mjs", dir, "17")
	cmd.Env = append(os.Environ(), "TZ=UTC")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node data/gen_ranges.mjs: %v\n%s", err, out)
	}
	for _, loc := range dateLocaleList {
		got := parseDates(string(read(t, filepath.Join(dir, "ranges-"+loc+".txt.gz"))))
		want := loadRanges(loc)
		if len(got.keys) < 2000 {
			t.Errorf("%s: only %d keys recorded", loc, len(got.keys))
		}
		for k := range got.keys {
			g, _ := got.pattern(k)
			if w, ok := want.pattern(k); !ok || w != g {
				t.Errorf("%s %s: recorded %q, committed %q: data/ranges-%s.txt.gz is stale: run `cd sandbox/worker/js/intl && TZ=UTC node data/gen_ranges.mjs`", loc, k, g, w, loc)
				break
			}
		}
	}
}
