package web

import "testing"

// TestRosterMakesRoomFromTheLargest: the newest socket of the client
// holding the most ends, only when it holds two more than the newcomer.
func TestRosterMakesRoomFromTheLargest(t *testing.T) {
	var r roster
	var ended []string
	end := func(name string) func() { return func() { ended = append(ended, name) } }
	r.add("hog", end("hog0"))
	r.add("hog", end("hog1"))
	removeHog2 := r.add("hog", end("hog2"))
	r.add("small", end("small0"))
	if !r.makeRoom("new") || len(ended) != 1 || ended[0] != "hog2" {
		t.Fatalf("a newcomer: ended %v; want the hog's newest, hog2", ended)
	}
	removeHog2() // its session ends later and takes itself off again: nothing more happens
	if r.held("hog") != 2 {
		t.Errorf("hog holds %d; want 2", r.held("hog"))
	}
	r.add("new", end("new0"))
	// hog 2, small 1, new 1: no one holds two more than new or small.
	if r.makeRoom("new") || r.makeRoom("small") || len(ended) != 1 {
		t.Errorf("ended %v; want no more (hog holds 2, the others 1)", ended)
	}
	if !r.makeRoom("fresh") || ended[1] != "hog1" {
		t.Errorf("a client holding none: ended %v; want hog1 next", ended)
	}
	var empty roster
	if empty.makeRoom("x") {
		t.Error("an empty roster made room")
	}
}
