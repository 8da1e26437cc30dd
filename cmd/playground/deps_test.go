package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/playground-dev/playground"

// allowedImports is the package graph of DESIGN.md: project package ->
// project packages it may import. cmd/playground may import everything.
var allowedImports = map[string][]string{
	"ws":        {},
	"sandbox":   {},
	"ratelimit": {},
	"static":    {},
	"session":   {"ws", "sandbox"},
	"web":       {"ws", "session", "static"},
	"web/api":   {"ws", "session"},
}

func TestPackageGraph(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(f[0], module), "/")
		if pkg == "cmd/playground" || pkg == "cmd/loadgen" {
			continue // commands wire packages together
		}
		allowed, known := allowedImports[pkg]
		if !known {
			t.Errorf("package %s is not in allowedImports; decide where it sits in the graph", pkg)
			continue
		}
		seen++
		for _, imp := range f[1:] {
			dep, ok := strings.CutPrefix(imp, module+"/")
			if ok && !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s; not allowed by allowedImports", pkg, dep)
			}
		}
	}
	if seen != len(allowedImports) {
		t.Errorf("checked %d packages; want %d", seen, len(allowedImports))
	}
}

// TestSandboxStaysSmall bans from the sandbox's transitive dependencies what
// the worker binary must not carry (the WebSocket library, templ, testing).
func TestSandboxStaysSmall(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", module+"/sandbox").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, banned := range []string{"github.com/coder/websocket", "github.com/a-h/templ", "testing"} {
		if slices.Contains(deps, banned) {
			t.Errorf("sandbox depends on %s", banned)
		}
	}
}
