package js

import (
	"context"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/bundle"
)

// BenchmarkErrors is the cost of errors in a run, per run of 1000: made
// and dropped, made and caught, made and caught with the stack read (the
// caught ones get V8's stack: v8StackOf).
func BenchmarkErrors(b *testing.B) {
	set, err := libs.New("")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, code string }{
		{"create", `for (let i = 0; i < 1000; i++) new Error("x");`},
		{"catch", `for (let i = 0; i < 1000; i++) { try { throw new Error("x"); } catch (e) {} }`},
		{"catch-read-stack", `let n = 0; for (let i = 0; i < 1000; i++) { try { throw new Error("x"); } catch (e) { n += e.stack.length; } }`},
	} {
		res := bundle.BundleMode([]pipe.File{{Path: "main.js", Source: c.code + "\nexport {};"}}, "main.js", pipe.ModeModule, set)
		if len(res.Errors) > 0 {
			b.Fatal(res.Errors)
		}
		prg, err := Compile(res.Code)
		if err != nil {
			b.Fatal(err)
		}
		j := Job{Program: prg, Timeout: 10 * time.Second, Limits: pipe.DefaultLimits(), Mode: pipe.ModeModule, Entry: "main.js"}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if r := New(j).Execute(context.Background(), j, func(pipe.Event) {}); r.Outcome != pipe.OutcomeOK {
					b.Fatal(r.Outcome)
				}
			}
		})
	}
}

// BenchmarkScriptHello is a script-mode run of one line (bundled once).
func BenchmarkScriptHello(b *testing.B) {
	set, err := libs.New("")
	if err != nil {
		b.Fatal(err)
	}
	res := bundle.BundleMode([]pipe.File{{Path: "main.js", Source: `console.log("hello"); output = 1;`}}, "main.js", pipe.ModeScript, set)
	if len(res.Errors) > 0 {
		b.Fatal(res.Errors)
	}
	prg, err := Compile(res.Code)
	if err != nil {
		b.Fatal(err)
	}
	j := Job{Program: prg, Timeout: 10 * time.Second, Limits: pipe.DefaultLimits(), Mode: pipe.ModeScript, Entry: "main.js"}
	for b.Loop() {
		if r := New(j).Execute(context.Background(), j, func(pipe.Event) {}); r.Outcome != pipe.OutcomeOK {
			b.Fatal(r.Outcome)
		}
	}
}
