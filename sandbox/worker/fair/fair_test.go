package fair

import (
	"fmt"
	"slices"
	"testing"
)

// TestFillerEvictsItsOwn: a client that adds entries past the budget
// evicts its own, oldest first; another client's entries all stay.
func TestFillerEvictsItsOwn(t *testing.T) {
	c := New[string, int](100, 10)
	c.Add("b1", 1, "b", 2)
	c.Add("b2", 2, "b", 2)
	for i := range 20 {
		c.Add(fmt.Sprint("a", i), i, "a", 2)
		if c.Bytes() > 10 {
			t.Fatalf("after a%d: %d bytes; budget 10", i, c.Bytes())
		}
	}
	if !c.Contains("b1") || !c.Contains("b2") {
		t.Errorf("b's entries evicted by a's: %v", c.Keys())
	}
	if got, want := c.Keys(), []string{"b1", "b2", "a17", "a18", "a19"}; !slices.Equal(got, want) {
		t.Errorf("keys %v; want %v", got, want)
	}
	if b, n := c.Owned("a"); b != 6 || n != 3 {
		t.Errorf("a owns %d bytes in %d entries; want 6 in 3", b, n)
	}
}

// TestLargestOwnerPays: over the budget, the owner holding the most bytes
// loses its least recently used entry, even when another owner's entry is
// older; Get makes an entry recent.
func TestLargestOwnerPays(t *testing.T) {
	c := New[string, int](100, 10)
	c.Add("b", 0, "small", 1)
	c.Add("x1", 0, "big", 4)
	c.Add("x2", 0, "big", 4)
	c.Get("x1")               // x2 is now big's oldest
	c.Add("c", 0, "small", 3) // 12 > 10: big (8) pays
	if got, want := c.Keys(), []string{"b", "x1", "c"}; !slices.Equal(got, want) {
		t.Errorf("keys %v; want %v", got, want)
	}
}

// TestCountBound: past count entries, the owner with the most entries
// pays; the entry just added stays even when it alone is over the budget.
func TestCountBound(t *testing.T) {
	c := New[int, int](3, 1<<20)
	c.Add(1, 0, "x", 1)
	c.Add(2, 0, "y", 1)
	c.Add(3, 0, "y", 1)
	c.Add(4, 0, "z", 1)
	if got, want := c.Keys(), []int{1, 3, 4}; !slices.Equal(got, want) {
		t.Errorf("keys %v; want %v (y held the most entries)", got, want)
	}
	c.SetBudget(5)
	c.Add(5, 0, "z", 100)
	if got := c.Keys(); !slices.Equal(got, []int{5}) || c.Bytes() != 100 {
		t.Errorf("keys %v, %d bytes; want just the newest, over the budget", got, c.Bytes())
	}
	for _, o := range []string{"x", "y"} {
		if _, n := c.Owned(o); n != 0 {
			t.Errorf("%s still owns %d entries", o, n)
		}
	}
}

// TestReplace: adding a key again replaces its value, size and owner.
func TestReplace(t *testing.T) {
	c := New[string, int](10, 100)
	c.Add("k", 1, "a", 30)
	c.Add("k", 2, "b", 5)
	if v, ok := c.Get("k"); !ok || v != 2 || c.Bytes() != 5 || c.Len() != 1 {
		t.Errorf("Get = %d %v, %d bytes, %d entries; want 2, 5 bytes, 1 entry", v, ok, c.Bytes(), c.Len())
	}
	if b, n := c.Owned("a"); b != 0 || n != 0 {
		t.Errorf("a still owns %d bytes, %d entries", b, n)
	}
}
