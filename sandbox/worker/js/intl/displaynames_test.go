package intl

import (
	"encoding/json"
	"os/exec"
	"reflect"
	"testing"
)

// TestNamesDataIsFresh re-records two locales' names under Node (when
// node is on PATH with the ICU names.json.gz names) and compares them
// with the recorded ones (which TestCompactUnitsAndNamesMatchFiles
// compares with the table, data/names.bin).
func TestNamesDataIsFresh(t *testing.T) {
	type names struct {
		ICU     string
		Locales map[string]any
	}
	var committed names
	readJSON(t, "data/names.json.gz", &committed)
	recordingNode(t, "", committed.ICU)
	out, err := exec.Command("node", "data/gen_names.mjs", "en-US", "de-CH").Output()
	if err != nil {
		t.Fatalf("node data/gen_names.mjs: %v", err)
	}
	var got names
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	for loc, l := range got.Locales {
		if !reflect.DeepEqual(l, committed.Locales[loc]) {
			t.Errorf("%s: data/names.json.gz is stale: run `cd sandbox/worker/js/intl && node data/gen_names.mjs | gzip -9n > data/names.json.gz && go generate .`", loc)
		}
	}
	if len(got.Locales) != 2 {
		t.Errorf("recorded %d locales; want 2", len(got.Locales))
	}
}

// TestNamesCoverLocales: every DisplayNames locale has names of every
// type, Node's composition pattern, and dialect names.
func TestNamesCoverLocales(t *testing.T) {
	d := loadNames()
	for _, loc := range numberLocaleList {
		n := d.Locales[loc]
		if n == nil {
			t.Errorf("%s: no names", loc)
			continue
		}
		if n.Region.Long.len() < 250 || n.Script.Long.len() < 100 || n.Currency.Long.len() < 150 || n.Language.Long.len() < 500 {
			t.Errorf("%s: %d regions, %d scripts, %d currencies, %d languages", loc, n.Region.Long.len(), n.Script.Long.len(), n.Currency.Long.len(), n.Language.Long.len())
		}
		if n.Pattern == "" || n.Separator == "" || n.Dialect.Long.len() == 0 {
			t.Errorf("%s: pattern %q, separator %q, %d dialect names", loc, n.Pattern, n.Separator, n.Dialect.Long.len())
		}
	}
}
