package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"strings"
	"testing"
)

// The house rules of docs/architecture.md that a size can check: no Go
// source file over maxFileLines (tests and generated templ code aside), and
// no package over maxPackageLines unless it has subpackages to move code
// into. Every file git tracks counts, so a new one cannot slip past.
const (
	maxFileLines    = 800
	maxPackageLines = 5000
)

func TestFileAndPackageSizes(t *testing.T) {
	out, err := exec.Command("git", "-C", "../..", "ls-files", "*.go").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	packages := map[string]int{}
	for _, f := range strings.Fields(string(out)) {
		if strings.HasSuffix(f, "_test.go") || strings.HasSuffix(f, "_templ.go") || strings.Contains(f, "node_modules/") {
			continue
		}
		b, err := os.ReadFile("../../" + f)
		if err != nil {
			t.Fatal(err)
		}
		n := bytes.Count(b, []byte("\n"))
		if n > maxFileLines {
			t.Errorf("%s: %d lines; the limit is %d (split it by what its parts do)", f, n, maxFileLines)
		}
		packages[path.Dir(f)] += n
	}
	for dir, n := range packages {
		if n <= maxPackageLines {
			continue
		}
		sub := false
		for other := range packages {
			sub = sub || strings.HasPrefix(other, dir+"/")
		}
		if !sub {
			t.Errorf("package %s: %d lines and no subpackage; the limit is %d", dir, n, maxPackageLines)
		}
	}
	if len(packages) < 20 {
		t.Fatalf("found %d packages: %s", len(packages), fmt.Sprint(packages))
	}
}
