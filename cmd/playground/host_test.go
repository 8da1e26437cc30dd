package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestKVStoreBounds(t *testing.T) {
	s := newKVStore(kvLimits{maxTabs: 2, maxKeys: 3, maxValue: 10, totalBytes: 1 << 20, clientBytes: 1 << 20, ttl: time.Hour})
	for i := range 3 {
		if err := s.set("tab1", "ip1", fmt.Sprint("k", i), json.RawMessage("1")); err != nil {
			t.Fatalf("set %d: %v", i, err)
		}
	}
	if err := s.set("tab1", "ip1", "k3", json.RawMessage("1")); err == nil || !strings.Contains(err.Error(), "3 keys") {
		t.Errorf("a 4th key: err = %v; want the key limit", err)
	}
	if err := s.set("tab1", "ip1", "k0", json.RawMessage(`"too long!"`)); err == nil {
		t.Errorf("an 11-byte value: err = nil; want the value limit")
	}
	if err := s.set("tab1", "ip1", "k0", json.RawMessage("2")); err != nil {
		t.Errorf("replacing a key at the key limit: %v", err)
	}
	if got := string(s.get("tab1", "k0")); got != "2" {
		t.Errorf("get = %s; want 2", got)
	}
	// A third tab evicts the least recently used one.
	s.set("tab2", "ip1", "a", json.RawMessage("1"))
	s.get("tab1", "k0") // tab1 is now the most recent
	s.set("tab3", "ip1", "a", json.RawMessage("1"))
	if s.get("tab2", "a") != nil || s.get("tab1", "k0") == nil {
		t.Errorf("after a third tab: tab2 %s, tab1 %s; want tab2 evicted, tab1 kept", s.get("tab2", "a"), s.get("tab1", "k0"))
	}
	if got := s.keys("tab1"); strings.Join(got, ",") != "k0,k1,k2" {
		t.Errorf("keys = %v", got)
	}
	// tab1 holds k0..k2 (3 bytes each: key and value), tab3 holds a (2 bytes).
	if total, ip1 := s.usage("ip1"); total != 11 || ip1 != 11 {
		t.Errorf("usage = %d in all, %d for ip1; want 11 and 11 (evicted tabs are not counted)", total, ip1)
	}
	s.delete("tab1", "k1")
	if total, _ := s.usage("ip1"); total != 8 {
		t.Errorf("after a delete: %d bytes; want 8", total)
	}
}

// TestKVStoreBudgets: one client cannot hold more than its budget, the store
// never more than its total (least recently used tabs go first, whoever owns
// them), and an idle tab's data expires.
func TestKVStoreBudgets(t *testing.T) {
	now := time.Unix(0, 0)
	s := newKVStore(kvLimits{maxTabs: 1000, maxKeys: 100, maxValue: 1000, totalBytes: 5000, clientBytes: 3000, ttl: time.Minute})
	s.now = func() time.Time { return now }
	val := json.RawMessage(strings.Repeat("v", 990)) // 1,000 bytes with a 10-byte key
	for i := range 3 {
		if err := s.set(fmt.Sprint("attacker-tab", i), "attacker", fmt.Sprint("key-000000", i)[:10], val); err != nil {
			t.Fatalf("attacker's set %d: %v", i, err)
		}
	}
	if err := s.set("attacker-tab9", "attacker", "key-0000xx", val); err == nil || !strings.Contains(err.Error(), "limit is 3000") {
		t.Errorf("past the client budget: %v; want refused", err)
	}
	if _, a := s.usage("attacker"); a != 3000 {
		t.Errorf("attacker holds %d bytes; want 3000", a)
	}
	for i := range 3 { // a second client fills the store past its total: the oldest tabs go
		now = now.Add(time.Second)
		if err := s.set(fmt.Sprint("victim-tab", i), "victim", fmt.Sprint("key-000000", i)[:10], val); err != nil {
			t.Fatalf("victim's set %d: %v", i, err)
		}
	}
	if total, _ := s.usage(""); total > 5000 {
		t.Errorf("the store holds %d bytes; want at most its total of 5000", total)
	}
	if s.get("victim-tab2", "key-000000") == nil {
		t.Error("the most recent tab was dropped; want the least recently used ones dropped")
	}
	now = now.Add(2 * time.Minute) // every tab idle past the ttl
	s.set("fresh", "other", "k", json.RawMessage("1"))
	if total, _ := s.usage(""); total != 2 || s.get("victim-tab2", "key-000000") != nil {
		t.Errorf("after the ttl: %d bytes held; want only the fresh tab's 2 (idle tabs expire)", total)
	}
}

// TestKVRefusedToStatelessRequests: host.kv from POST /api/v1/run and
// /mcp (no tab: nothing stored could be read again) fails with an error
// saying why, and stores nothing against the client; the client's tab
// still stores and reads.
func TestKVRefusedToStatelessRequests(t *testing.T) {
	addr := server(t, "-kv-client-bytes", "1000")
	code := "import { host } from 'playground';\nawait host.kv.set('k', 'x'.repeat(600));"
	body, _ := json.Marshal(map[string]any{"code": code})
	resp, err := http.Post("http://"+addr+"/api/v1/run", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Outcome string
		Errors  []struct{ Message string }
	}
	err = json.NewDecoder(resp.Body).Decode(&r)
	resp.Body.Close()
	if err != nil || r.Outcome != "error" || len(r.Errors) == 0 || !strings.Contains(r.Errors[0].Message, "/api/v1/run or /mcp stands alone") {
		t.Errorf("host.kv.set from /api/v1/run: %+v, %v; want outcome error saying why", r, err)
	}
	mcpBody, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": "run_in_sandbox", "arguments": map[string]any{"code": code}}})
	req, _ := http.NewRequest("POST", "http://"+addr+"/mcp", bytes.NewReader(mcpBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), "stands alone") {
		t.Errorf("host.kv.set from /mcp: %s; want the error saying why", b)
	}
	// Two 600-byte values would pass the client's 1000 bytes: the tab's
	// own store is untouched by the refused requests.
	c := dial(t, addr)
	c.send(runMsg("tab", "main.ts", "import { host } from 'playground';\nawait host.kv.set('k', 'x'.repeat(600));\nconsole.log((await host.kv.get('k')).length);"))
	ms := c.until("tab")
	if done := ms[len(ms)-1]; done.str("outcome") != "ok" || strings.Join(logTexts(ms), ",") != "600" {
		t.Errorf("the tab's kv after refused requests: %s %v; want ok and 600", types(ms), logTexts(ms))
	}
}
