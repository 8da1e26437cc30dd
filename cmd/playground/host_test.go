package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestKVStoreBounds(t *testing.T) {
	s := newKVStore(2)
	s.maxKeys, s.maxValue = 3, 10
	for i := range 3 {
		if err := s.set("tab1", fmt.Sprint("k", i), json.RawMessage("1")); err != nil {
			t.Fatalf("set %d: %v", i, err)
		}
	}
	if err := s.set("tab1", "k3", json.RawMessage("1")); err == nil || !strings.Contains(err.Error(), "3 keys") {
		t.Errorf("a 4th key: err = %v; want the key limit", err)
	}
	if err := s.set("tab1", "k0", json.RawMessage(`"too long!"`)); err == nil {
		t.Errorf("an 11-byte value: err = nil; want the value limit")
	}
	if err := s.set("tab1", "k0", json.RawMessage("2")); err != nil {
		t.Errorf("replacing a key at the key limit: %v", err)
	}
	if got := string(s.get("tab1", "k0")); got != "2" {
		t.Errorf("get = %s; want 2", got)
	}
	// A third tab evicts the least recently used one.
	s.set("tab2", "a", json.RawMessage("1"))
	s.get("tab1", "k0") // tab1 is now the most recent
	s.set("tab3", "a", json.RawMessage("1"))
	if s.get("tab2", "a") != nil || s.get("tab1", "k0") == nil {
		t.Errorf("after a third tab: tab2 %s, tab1 %s; want tab2 evicted, tab1 kept", s.get("tab2", "a"), s.get("tab1", "k0"))
	}
	if got := s.keys("tab1"); strings.Join(got, ",") != "k0,k1,k2" {
		t.Errorf("keys = %v", got)
	}
}
func TestHostCallsOverWebSocket(t *testing.T) {
	addr := server(t)
	c := dial(t, addr)
	host, _ := c.hello["host"].([]any)
	if len(host) < 5 {
		t.Errorf("hello.host = %v; want the shipped host functions", host)
	}
	c.send(runMsg("r1", "main.ts", `import { host } from "playground";
await host.kv.set("visits", 1);
console.log(await host.echo("hi"), await host.sleep(20));
`))
	ms := c.until("r1")
	if types(ms) != "started call call call log done" {
		t.Fatalf("messages = %s", types(ms))
	}
	calls := only(ms, "call")
	if calls[0].str("name") != "kv.set" || calls[2].str("name") != "sleep" || calls[2].num("ms") < 15 || calls[2]["ok"] != true {
		t.Errorf("calls = %v", calls)
	}
	// The store survives into the next run of the same tab, not another tab's.
	c.send(runMsg("r2", "main.ts", `import { host } from "playground";
console.log(await host.kv.get("visits"), JSON.stringify(await host.kv.list()));`))
	if logs := only(c.until("r2"), "log"); len(logs) != 1 || logs[0].str("text") != `1 ["visits"]` {
		t.Errorf("second run logs = %v", logs)
	}
	other := dial(t, addr)
	other.send(runMsg("r3", "main.ts", `import { host } from "playground";
console.log(await host.kv.get("visits"));`))
	if logs := only(other.until("r3"), "log"); len(logs) != 1 || logs[0].str("text") != "undefined" {
		t.Errorf("another tab sees %v; want undefined", logs)
	}
}
