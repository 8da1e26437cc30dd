package pipe

import (
	"strings"
	"testing"
)

// TestClientTokens: a token is stable per key within one pool, differs
// between keys and between pools (a fresh secret), and does not carry
// the key (an IP or API key name never reaches a worker).
func TestClientTokens(t *testing.T) {
	a, b := NewClientTokens(), NewClientTokens()
	ip := "203.0.113.7"
	if first := a.Token(ip); a.Token(ip) != first {
		t.Error("token not stable for one key")
	}
	if a.Token(ip) == a.Token("203.0.113.8") {
		t.Error("two keys share a token")
	}
	if a.Token(ip) == b.Token(ip) {
		t.Error("two pools give one key the same token (no secret)")
	}
	if tok := a.Token(ip); strings.Contains(tok, ip) || len(tok) != 32 {
		t.Errorf("token %q; want 32 hex digits that do not carry the key", tok)
	}
	if a.Token("") != "" {
		t.Error("empty key has a token")
	}
}
