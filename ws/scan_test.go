package ws

import (
	"strings"
	"testing"
)

// TestRunIDScanner: the scanner finds the id PeekRunID finds, in any member
// order and however the stream is cut into writes, and never an id nested
// below the top level or of a message that is not a run.
func TestRunIDScanner(t *testing.T) {
	big := strings.Repeat(`x\"{[`, 1000)
	cases := []struct {
		msg, want string
	}{
		{`{"type":"run","id":"r1","files":[]}`, "r1"},
		{`{"files":[{"path":"a.ts","source":"` + big + `"}],"id":"late-1","type":"run"}`, "late-1"},
		{` { "id" : "sp.a:c-1" , "type" : "run" } `, "sp.a:c-1"},
		{`{"type":"run","files":[{"id":"nested","type":"run"}],"id":"outer"}`, "outer"},
		{`{"type":"run","files":[{"id":"nested"}]}`, ""},
		{`{"type":"cancel","id":"r1"}`, ""},
		{`{"type":"run","id":"bad id"}`, ""},
		{`{"type":"run","id":"` + strings.Repeat("a", 65) + `"}`, ""},
		{`{"type":"r\u0075n","id":"r1"}`, ""},
		{`{"type":"run","id":7}`, ""},
		{`{"meta":{"type":"run"},"id":"r1"}`, ""},
		{`{"type":"run","input":{"id":"x"},"id":"r2"}`, "r2"},
		{`{"type":"run","input":"{\"id\":\"x\"}","id":"r3"}`, "r3"},
		{`["type","run","id","r1"]`, ""},
		{`{"type":"run","id":"r4"`, "r4"}, // cut short: what was read counts
	}
	for _, c := range cases {
		for _, step := range []int{len(c.msg), 1, 3, 7} {
			var s runIDScanner
			for i := 0; i < len(c.msg); i += step {
				_, _ = s.Write([]byte(c.msg[i:min(i+step, len(c.msg))]))
			}
			if got := s.runID(); got != c.want {
				t.Errorf("%.80s (writes of %d): %q, want %q", c.msg, step, got, c.want)
			}
		}
		// The scanner takes no escapes (no run id has one); PeekRunID,
		// which decodes, reads "r\u0075n" as "run".
		if id, ok := PeekRunID([]byte(c.msg)); ok && id != c.want && !strings.Contains(c.msg, `\u`) {
			t.Errorf("%.80s: PeekRunID says %q, the scanner %q", c.msg, id, c.want)
		}
	}
}
