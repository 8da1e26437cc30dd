package intl

import (
	"os/exec"
	"strings"
	"testing"
)

// recordingNode skips t unless node is on PATH and can re-record what was
// recorded under Node recordedNode (its version, "v20.20.2"; "" when the
// file does not say) with ICU recordedICU: the same major version and the
// same ICU. Another patch release of Node 20 with the same ICU records the
// same data, so it checks freshness; another major version or ICU would
// print differently for reasons that are not staleness, so it skips,
// naming both.
func recordingNode(t *testing.T, recordedNode, recordedICU string) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH")
	}
	out, err := exec.Command("node", "-p", `process.version + " " + process.versions.icu`).Output()
	if err != nil {
		t.Fatalf("node -p process.version: %v", err)
	}
	version, icu, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	major := func(v string) string { m, _, _ := strings.Cut(v, "."); return m }
	if recordedNode != "" && major(version) != major(recordedNode) {
		t.Skipf("recorded under Node %s; this node is %s (re-record under Node %s)", recordedNode, version, major(recordedNode))
	}
	if icu != recordedICU {
		t.Skipf("recorded with ICU %s; this node (%s) has ICU %s", recordedICU, version, icu)
	}
}
