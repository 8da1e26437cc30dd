package web

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

func TestClientIP(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	tests := []struct {
		name, remote, xff, want string
	}{
		{"direct", "203.0.113.7:5555", "", "203.0.113.7"},
		{"untrusted peer's header is ignored", "203.0.113.7:5555", "198.51.100.1", "203.0.113.7"},
		{"trusted proxy", "10.1.2.3:80", "198.51.100.1", "198.51.100.1"},
		{"right-most untrusted hop wins", "10.1.2.3:80", "1.1.1.1, 198.51.100.1, 10.9.9.9", "198.51.100.1"},
		{"spoofed left-most hop is ignored", "10.1.2.3:80", "6.6.6.6, 198.51.100.1", "198.51.100.1"},
		{"garbage header keeps the peer", "10.1.2.3:80", "not-an-ip", "10.1.2.3"},
		{"ipv6 keyed by /64", "[2001:db8:1:2:3:4:5:6]:443", "", "2001:db8:1:2::/64"},
		{"mapped ipv4", "[::ffff:203.0.113.9]:1", "", "203.0.113.9"},
		{"trusted ipv6 proxy", "[::1]:80", "192.0.2.5", "192.0.2.5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/ws", nil)
			r.RemoteAddr = tt.remote
			if tt.xff != "" {
				r.Header.Set("X-Forwarded-For", tt.xff)
			}
			if got := clientIP(r, trusted); got != tt.want {
				t.Errorf("clientIP(%s, XFF %q) = %q; want %q", tt.remote, tt.xff, got, tt.want)
			}
		})
	}
}
