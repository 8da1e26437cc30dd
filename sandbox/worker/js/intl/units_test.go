package intl

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"testing"
)

// TestUnitsDataIsFresh re-records data/units.json.gz under Node (when
// node is on PATH, with the ICU the file names) and compares.
func TestUnitsDataIsFresh(t *testing.T) {
	committed := read(t, "data/units.json.gz")
	var d struct{ ICU string }
	if err := json.Unmarshal(committed, &d); err != nil {
		t.Fatal(err)
	}
	recordingNode(t, "", d.ICU)
	out, err := exec.Command("node", "data/gen_units.mjs").Output()
	if err != nil {
		t.Fatalf("node data/gen_units.mjs: %v", err)
	}
	if !bytes.Equal(bytes.TrimSpace(out), bytes.TrimSpace(committed)) {
		t.Error("data/units.json.gz is stale: run `cd sandbox/worker/js/intl && node data/gen_units.mjs | gzip -9n > data/units.json.gz`")
	}
}

// TestUnitsDataCoversLocales: every NumberFormat locale has every unit in
// every display with an "other" pattern, and compact patterns that can
// be picked (an entry without "other" must have every category the
// mantissas of its width can take; the golden cases check those).
func TestUnitsDataCoversLocales(t *testing.T) {
	d := loadUnits()
	if len(d.Units) != 45 {
		t.Errorf("%d units; want Node 20's 45", len(d.Units))
	}
	for _, loc := range numberLocaleList {
		l := d.Locales[loc]
		if l == nil {
			t.Errorf("%s: no data", loc)
			continue
		}
		if l.Exponent == "" || l.Approx == "" || l.Range == "" {
			t.Errorf("%s: exponent %q, approx %q, range %q", loc, l.Exponent, l.Approx, l.Range)
		}
		for _, u := range d.Units {
			for _, disp := range []string{"short", "long", "narrow"} {
				if _, ok := l.Unit.get(u + "/" + disp + "/other"); !ok {
					t.Errorf("%s %s/%s: no \"other\" pattern", loc, u, disp)
				}
			}
		}
		for _, disp := range []string{"short", "long"} {
			if n := len(l.Compact[disp]); n != 15 {
				t.Errorf("%s compact %s: %d powers; want 15", loc, disp, n)
			}
			for e, c := range l.Compact[disp] {
				if c != nil && c.Cats.len() == 0 {
					t.Errorf("%s compact %s 1e%d: no patterns", loc, disp, e)
				}
			}
		}
	}
}
