package ws_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/playground-dev/playground/ws"
)

func ptr[T any](v T) *T { return &v }

func TestDecode(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    ws.Message
		wantErr error
		runErr  string // the RunError's Field, when one is expected
	}{
		{"run", `{"type":"run","id":"r1","files":[{"path":"src/main.ts","source":"1"}]}`,
			&ws.Run{ID: "r1", Files: []ws.File{{Path: "src/main.ts", Source: "1"}}}, nil, ""},
		{"run with all fields", `{"type":"run","id":"a.b:c-1_2","files":[{"path":"a.js","source":""},{"path":"b/c.json","source":"{}"}],"entry":"a.js","input":{"n":1},"timeoutMs":250,"deterministic":true,"mode":"script"}`,
			&ws.Run{ID: "a.b:c-1_2", Files: []ws.File{{Path: "a.js"}, {Path: "b/c.json", Source: "{}"}}, Entry: "a.js", Input: json.RawMessage(`{"n":1}`), TimeoutMs: ptr(250.0), Deterministic: true, Mode: "script"}, nil, ""},
		{"cancel", `{"type":"cancel","id":"r1"}`, &ws.Cancel{ID: "r1"}, nil, ""},
		{"ping", `{"type":"ping","t":[1,"x"]}`, &ws.Ping{T: json.RawMessage(`[1,"x"]`)}, nil, ""},
		{"ping without t", `{"type":"ping"}`, &ws.Ping{}, nil, ""},
		{"watch", `{"type":"watch","id":"r1","token":"Xq0s9v1H3bWm2kT7YcLd4A","after":7}`, &ws.Watch{ID: "r1", Token: "Xq0s9v1H3bWm2kT7YcLd4A", After: 7}, nil, ""},
		{"watch from the start", `{"type":"watch","id":"r1","token":"t"}`, &ws.Watch{ID: "r1", Token: "t"}, nil, ""},
		{"watch without token", `{"type":"watch","id":"r1"}`, nil, ws.ErrBadField, ""},
		{"watch empty token", `{"type":"watch","id":"r1","token":""}`, nil, ws.ErrBadField, ""},
		{"watch huge token", `{"type":"watch","id":"r1","token":"` + strings.Repeat("t", 129) + `"}`, nil, ws.ErrBadField, ""},
		{"watch bad id", `{"type":"watch","id":"a b","token":"t"}`, nil, ws.ErrBadField, ""},
		{"watch negative after", `{"type":"watch","id":"r1","token":"t","after":-1}`, nil, ws.ErrBadField, ""},
		{"watch fractional after", `{"type":"watch","id":"r1","token":"t","after":1.5}`, nil, ws.ErrBadField, ""},
		{"watch unknown field", `{"type":"watch","id":"r1","token":"t","cancel":true}`, nil, ws.ErrBadField, ""},
		{"run with detach", `{"type":"run","id":"r1","files":[{"path":"a.js","source":""}],"detach":{"graceMs":5000}}`,
			&ws.Run{ID: "r1", Files: []ws.File{{Path: "a.js"}}, Detach: &ws.Detach{GraceMs: 5000}}, nil, ""},
		{"not json", `{"type":`, nil, ws.ErrBadJSON, ""},
		{"array", `[1,2]`, nil, ws.ErrBadJSON, ""},
		{"unknown type", `{"type":"nope"}`, nil, ws.ErrUnknownType, ""},
		{"huge unknown type", `{"type":"` + strings.Repeat("t", 1<<20) + `"}`, nil, ws.ErrUnknownType, ""},
		{"huge unknown field", `{"type":"cancel","id":"x","` + strings.Repeat("f", 1<<20) + `":1}`, nil, ws.ErrBadField, ""},
		{"missing type", `{"id":"r1"}`, nil, ws.ErrBadField, ""},
		{"cancel without id", `{"type":"cancel"}`, nil, ws.ErrBadField, ""},
		{"cancel unknown field", `{"type":"cancel","id":"x","extra":1}`, nil, ws.ErrBadField, ""},
		{"trailing data", `{"type":"ping"} {}`, nil, ws.ErrBadJSON, ""},
		{"run without id", `{"type":"run","files":[{"path":"a.js","source":""}]}`, nil, ws.ErrBadField, ""},
		{"run bad id", `{"type":"run","id":"a b","files":[]}`, nil, ws.ErrBadField, ""},
		{"run long id", `{"type":"run","id":"` + strings.Repeat("x", 65) + `","files":[]}`, nil, ws.ErrBadField, ""},
		{"run no files", `{"type":"run","id":"r1"}`, nil, nil, "files"},
		{"run empty files", `{"type":"run","id":"r1","files":[]}`, nil, nil, "files"},
		{"run dotdot", `{"type":"run","id":"r1","files":[{"path":"../a.ts","source":""}]}`, nil, nil, "files[0].path"},
		{"run absolute", `{"type":"run","id":"r1","files":[{"path":"/a.ts","source":""}]}`, nil, nil, "files[0].path"},
		{"run bad extension", `{"type":"run","id":"r1","files":[{"path":"a.ts","source":""},{"path":"a.py","source":""}]}`, nil, nil, "files[1].path"},
		{"run bad char", `{"type":"run","id":"r1","files":[{"path":"a b.ts","source":""}]}`, nil, nil, "files[0].path"},
		{"run duplicate", `{"type":"run","id":"r1","files":[{"path":"a.ts","source":""},{"path":"a.ts","source":""}]}`, nil, nil, "files[1].path"},
		{"run entry missing", `{"type":"run","id":"r1","entry":"b.ts","files":[{"path":"a.ts","source":""}]}`, nil, nil, "entry"},
		{"run unknown field", `{"type":"run","id":"r1","files":[{"path":"a.ts","source":""}],"x":1}`, nil, nil, "message"},
		{"run source not string", `{"type":"run","id":"r1","files":[{"path":"a.ts","source":1}]}`, nil, nil, "message"},
		{"run path too long", `{"type":"run","id":"r1","files":[{"path":"` + strings.Repeat("a", 198) + `.ts","source":""}]}`, nil, nil, "files[0].path"},
		{"run path too deep", `{"type":"run","id":"r1","files":[{"path":"a/b/c/d/e/f/g/h/i/j/k.ts","source":""}]}`, nil, nil, "files[0].path"},
		{"run bad mode", `{"type":"run","id":"r1","files":[{"path":"a.ts","source":""}],"mode":"cjs"}`, nil, nil, "mode"},
		{"run negative timeout", `{"type":"run","id":"r1","files":[{"path":"a.ts","source":""}],"timeoutMs":-1}`, nil, nil, "timeoutMs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ws.Decode([]byte(tt.in))
			if err != nil && len(err.Error()) > 300 {
				t.Errorf("error is %d bytes; want the client's text clipped", len(err.Error()))
			}
			if tt.runErr != "" {
				var re *ws.RunError
				if !errors.As(err, &re) || re.Field != tt.runErr || re.ID != "r1" {
					t.Fatalf("Decode(%s) error = %v; want RunError on %s for r1", tt.in, err, tt.runErr)
				}
				return
			}
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Decode(%s) error = %v; want %v", tt.in, err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Decode(%s) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestCheckPath(t *testing.T) {
	for _, p := range []string{"a.ts", "src/main.ts", "a/b/c-d_e.f.tsx", "x.json", "m.mjs"} {
		if err := ws.CheckPath(p); err != nil {
			t.Errorf("CheckPath(%q) = %v; want nil", p, err)
		}
	}
	for _, p := range []string{"", "/a.ts", "./a.ts", "a/../b.ts", "a//b.ts", "a.txt", "a", "ä.ts", "a/.ts/"} {
		if err := ws.CheckPath(p); err == nil {
			t.Errorf("CheckPath(%q) = nil; want an error", p)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"type":"run","id":"r1","entry":"main.ts","files":[{"path":"main.ts","source":"1"}]}`))
	f.Add([]byte(`{"type":"cancel","id":"r1"}`))
	f.Add([]byte(`{"type":"ping","t":1}`))
	f.Add([]byte(`{"type":"run","id":"r1","files":[{"path":"a/../b.ts","source":""}],"input":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ws.Decode(b) // must not panic
		if err == nil && m == nil {
			t.Fatalf("Decode(%q) = nil, nil", b)
		}
		if r, ok := m.(*ws.Run); ok {
			if len(r.Files) == 0 || r.ID == "" {
				t.Fatalf("Decode(%q) accepted a run without files or id", b)
			}
			for _, f := range r.Files {
				if err := ws.CheckPath(f.Path); err != nil {
					t.Fatalf("Decode(%q) accepted path %q: %v", b, f.Path, err)
				}
			}
		}
	})
}
