package pipe

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
)

// ClientTokens turns a client's key (its IP or API key name, as the
// parent's fair queue knows it) into Job.Client: an HMAC-SHA-256 of the
// key under a secret drawn once per pool, cut to 16 bytes in hex. A
// worker, or a snippet that reaches into one, cannot tell the key from it
// (an IPv4 address space is small enough to hash exhaustively; the secret
// is not in the worker), and equal keys get equal tokens for as long as
// the parent lives. The zero value is unusable: call NewClientTokens.
type ClientTokens struct{ secret []byte }

// NewClientTokens draws a fresh secret.
func NewClientTokens() ClientTokens {
	s := make([]byte, 32)
	_, _ = rand.Read(s) // never fails (crypto/rand)
	return ClientTokens{secret: s}
}

// Token is key's token; "" for "".
func (c ClientTokens) Token(key string) string {
	if key == "" {
		return ""
	}
	m := hmac.New(sha256.New, c.secret)
	m.Write([]byte(key))
	return hex.EncodeToString(m.Sum(nil)[:16])
}
