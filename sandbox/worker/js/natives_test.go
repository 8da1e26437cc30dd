package js_test

import (
	"strings"
	"testing"
)

// TestBuiltinsLookNative: no Go symbol shows in a built-in's name, its
// toString() or a stack through it.
func TestBuiltinsLookNative(t *testing.T) {
	p := newHarness(t, Config{Host: map[string]HostFunc{"echo": nil, "kv.get": nil}})
	res, rec := run(t, p, Request{Files: files("main.ts", `
import { host } from "playground";
const fns: any[] = [console.log, console.table, console.group, console.groupCollapsed, setTimeout, clearInterval, performance.now, crypto.randomUUID, crypto.getRandomValues, host.echo, (host as any).kv.get];
console.log(fns.map((f) => f.name).join(","));
console.log(String(console.log), String(host.echo));
try { crypto.getRandomValues(1 as any) } catch (e: any) { console.log(e.stack) }
`)})
	out := strings.Join(rec.Logs(), "\n")
	if res.Outcome != "ok" || strings.Contains(out, "github.com") {
		t.Fatalf("outcome %s; output shows Go symbols:\n%s", res.Outcome, out)
	}
	want := []string{
		"log,table,group,groupCollapsed,setTimeout,clearInterval,now,randomUUID,getRandomValues,echo,get",
		"function log() { [native code] } function echo() { [native code] }",
	}
	for i, w := range want {
		if got := rec.Logs()[i]; got != w {
			t.Errorf("line %d = %q; want %q", i, got, w)
		}
	}
	if !strings.Contains(rec.Logs()[2], "\n    at getRandomValues (<anonymous>)\n") {
		t.Errorf("stack = %q; want a native frame named getRandomValues, as V8 prints one", rec.Logs()[2])
	}
}
