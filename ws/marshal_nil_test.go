package ws

import "testing"

// TestMarshalNilMessage: a nil pointer to a run message is written as
// encoding/json writes it, null, where the fast encoder used to
// dereference it and panic.
func TestMarshalNilMessage(t *testing.T) {
	for _, v := range []any{(*Started)(nil), (*Log)(nil), (*Done)(nil), (*Fact)(nil), (*Call)(nil),
		(*CallStart)(nil), (*Queued)(nil), (*Error)(nil)} {
		b, err := Marshal(v)
		if err != nil || string(b) != "null" {
			t.Errorf("Marshal(%T(nil)) = %q, %v; want null", v, b, err)
		}
	}
}
