package web

import "testing"

func TestHostAllowed(t *testing.T) {
	for _, tt := range []struct {
		host     string
		patterns []string
		want     bool
	}{
		{"evil.example:8080", nil, true}, // no list: no check
		{"localhost:8080", LoopbackHosts, true},
		{"LOCALHOST.", LoopbackHosts, true},
		{"app.localhost:8080", LoopbackHosts, true},
		{"127.0.0.1:8080", LoopbackHosts, true},
		{"[::1]:8080", LoopbackHosts, true},
		{"10.1.2.3", LoopbackHosts, true}, // an IP literal cannot be rebound
		{"rebind.attacker.example:8080", LoopbackHosts, false},
		{"localhost.attacker.example", LoopbackHosts, false},
		{"play.example.com", []string{"play.example.com"}, true},
		{"docs.example.com", []string{"*.example.com"}, true},
		{"example.com", []string{"*.example.com"}, false},
		{"", []string{"play.example.com"}, false},
	} {
		if got := hostAllowed(tt.host, tt.patterns); got != tt.want {
			t.Errorf("hostAllowed(%q, %v) = %v; want %v", tt.host, tt.patterns, got, tt.want)
		}
	}
}
