package webapi_test

import (
	"testing"

	"github.com/playground-dev/playground/sandbox/worker/js/jstest"
)

// The snippets run end to end in a real runtime (jstest).
func TestMain(m *testing.M) { jstest.Main(m) }

// hostileCase is a snippet and the console lines it must print.
type hostileCase struct {
	name, src string
	want      []string
	outcome   string // "" means ok
}

func runHostile(t *testing.T, cases []hostileCase) {
	t.Helper()
	cs := make([]jstest.Case, len(cases))
	for i, c := range cases {
		cs[i] = jstest.Case{Name: c.name, Src: c.src, Want: c.want, Outcome: c.outcome}
	}
	jstest.RunCases(t, cs)
}
