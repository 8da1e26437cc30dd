package session

import "testing"

func TestBudget(t *testing.T) {
	b := NewBudget(100, 60)
	if !b.reserve("a", 60) || b.reserve("a", 1) {
		t.Error("key a: want 60 bytes accepted, the 61st refused")
	}
	if !b.reserve("b", 40) || b.reserve("c", 1) {
		t.Error("want b's 40 accepted and c refused: the total of 100 is reached")
	}
	b.release("a", 60)
	if total, a := b.Used("a"); total != 40 || a != 0 {
		t.Errorf("after release: total %d, a %d; want 40 and 0", total, a)
	}
	if !b.reserve("c", 60) {
		t.Error("c: want 60 accepted after a's release")
	}
	var none *Budget
	if !none.reserve("x", 1<<30) {
		t.Error("a nil budget refused")
	}
	none.release("x", 1)
}
