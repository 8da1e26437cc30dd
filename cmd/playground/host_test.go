package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestKVStoreBounds(t *testing.T) {
	s := newKVStore()
	s.maxTabs, s.maxKeys, s.maxValue = 2, 3, 10
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
