package js

import (
	"testing"

	"github.com/playground-dev/playground/sandbox/libs"
)

// TestChunkCacheBoundedByBytes: the compiled chunks kept total at most
// maxChunkBytes of source; the chunk just built is kept even when it alone
// is over, and the oldest go first.
func TestChunkCacheBoundedByBytes(t *testing.T) {
	set, err := libs.New("")
	if err != nil {
		t.Fatal(err)
	}
	l := NewLibraries(set)
	if l.maxChunkBytes != cachedChunkBytes {
		t.Fatalf("maxChunkBytes = %d; want cachedChunkBytes", l.maxChunkBytes)
	}
	first := []string{"chunk"}
	if _, _, err := l.chunk("", "lodash", first); err != nil {
		t.Fatal(err)
	}
	one := l.chunkBytes
	if one <= 0 {
		t.Fatalf("chunkBytes = %d after one chunk", one)
	}
	l.maxChunkBytes = 3 * one
	for _, n := range []string{"compact", "difference", "flatten", "uniq", "zip"} {
		if _, _, err := l.chunk("", "lodash", []string{n}); err != nil {
			t.Fatal(err)
		}
		if l.chunkBytes > l.maxChunkBytes {
			t.Fatalf("after %s: %d bytes cached; want ≤ %d", n, l.chunkBytes, l.maxChunkBytes)
		}
		if !l.chunks.Contains("\x00lodash\x00" + n) {
			t.Fatalf("the chunk of %s, just built, is not cached", n)
		}
	}
	if l.chunks.Contains("\x00lodash\x00chunk") {
		t.Error("the oldest chunk is still cached past the byte bound")
	}
	sum := 0
	for _, k := range l.chunks.Keys() {
		c, _ := l.chunks.Peek(k)
		sum += c.size
	}
	if sum != l.chunkBytes {
		t.Errorf("chunkBytes = %d; the cached chunks' sizes sum to %d", l.chunkBytes, sum)
	}

	l.maxChunkBytes = 1 // every chunk is over: only the newest stays
	if _, _, err := l.chunk("", "lodash", []string{"sortBy"}); err != nil {
		t.Fatal(err)
	}
	if l.chunks.Len() != 1 || !l.chunks.Contains("\x00lodash\x00sortBy") {
		t.Errorf("cache holds %v; want just the chunk of sortBy", l.chunks.Keys())
	}
}

// TestChunkFromInstance: a run's mathjs names are read from the instance
// (one program for every set of names) unless the lighter entry has them
// all or one is not a member of the instance.
func TestChunkFromInstance(t *testing.T) {
	set, err := libs.New("")
	if err != nil {
		t.Fatal(err)
	}
	l := NewLibraries(set)
	for _, c := range []struct {
		names    []string
		instance bool
	}{
		{[]string{"evaluate"}, true},
		{[]string{"det", "evaluate", "mean"}, true},
		{[]string{"mean", "std"}, false},           // the lighter entry's
		{[]string{"createAdd", "evaluate"}, false}, // a factory: not a member of the instance
	} {
		if _, instance, err := l.chunk("", "mathjs", c.names); err != nil || instance != c.instance {
			t.Errorf("chunk(mathjs, %v): instance %v, %v; want %v", c.names, instance, err, c.instance)
		}
	}
	if !l.chunks.Contains("mathjs\x00instance") || l.chunks.Contains("\x00mathjs\x00evaluate") {
		t.Errorf("cached %v; want one instance program", l.chunks.Keys())
	}
}

// TestChunksPerClient: a chunk is cached per client, so one client's run
// never finds (nor times) the chunk of the names another client's run
// used; a library's instance, the same for every set of names, is shared.
func TestChunksPerClient(t *testing.T) {
	set, err := libs.New("")
	if err != nil {
		t.Fatal(err)
	}
	l := NewLibraries(set)
	a, _, err := l.chunk("client-a", "lodash", []string{"chunk"})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := l.chunk("client-b", "lodash", []string{"chunk"})
	if err != nil {
		t.Fatal(err)
	}
	if a == b || l.chunks.Len() != 2 {
		t.Errorf("client-b got client-a's chunk (same program %v, %d cached)", a == b, l.chunks.Len())
	}
	if again, _, _ := l.chunk("client-a", "lodash", []string{"chunk"}); again != a {
		t.Error("client-a's second run built its chunk again")
	}
	x, _, _ := l.chunk("client-a", "mathjs", []string{"evaluate"})
	y, _, _ := l.chunk("client-b", "mathjs", []string{"det"})
	if x == nil || x != y {
		t.Error("two clients' instance programs differ; want one")
	}
}
