package js

import (
	"testing"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/worker/bundle"
)

// newLibraries returns a compiler for the shipped libraries, the small
// ones compiled first when precompile is set (as a worker does before it
// is ready), and their set.
func newLibraries(t *testing.T, precompile bool) (*Libraries, *libs.Set) {
	t.Helper()
	set, err := libs.New("")
	if err != nil {
		t.Fatal(err)
	}
	l := NewLibraries(set)
	if precompile {
		l.Precompile()
	}
	return l, set
}

// TestChunkCacheBoundedByBytes: the compiled chunks kept total at most
// the budget of source bytes; the chunk just built is kept even when it
// alone is over, and the oldest go first; past the budget, a client's new
// chunks evict its own, not another client's (fair.Cache).
func TestChunkCacheBoundedByBytes(t *testing.T) {
	l, _ := newLibraries(t, false)
	if _, _, err := l.chunk("other", "lodash", []string{"chunk"}, true); err != nil {
		t.Fatal(err)
	}
	one := l.owned.Bytes()
	if one <= 0 {
		t.Fatalf("%d bytes after one chunk", one)
	}
	l.owned.SetBudget(4 * one)
	for _, n := range []string{"compact", "difference", "flatten", "uniq", "zip"} {
		if _, _, err := l.chunk("filler", "lodash", []string{n}, true); err != nil {
			t.Fatal(err)
		}
		if b := l.owned.Bytes(); b > 4*one {
			t.Fatalf("after %s: %d bytes cached; want ≤ %d", n, b, 4*one)
		}
		if !l.owned.Contains("filler\x00lodash\x00" + n) {
			t.Fatalf("the chunk of %s, just built, is not cached", n)
		}
	}
	if l.owned.Contains("filler\x00lodash\x00compact") {
		t.Error("the filler's oldest chunk is still cached past the byte bound")
	}
	if !l.owned.Contains("other\x00lodash\x00chunk") {
		t.Error("the filler's chunks evicted another client's")
	}

	l.owned.SetBudget(1) // every chunk is over: only the newest stays
	if _, _, err := l.chunk("filler", "lodash", []string{"sortBy"}, true); err != nil {
		t.Fatal(err)
	}
	if l.owned.Len() != 1 || !l.owned.Contains("filler\x00lodash\x00sortBy") {
		t.Errorf("cache holds %q; want just the chunk of sortBy", l.owned.Keys())
	}
}

// TestChunkFromInstance: a run's mathjs names are read from the instance
// (one program for every set of names) unless the lighter entry has them
// all or one is not a member of the instance.
func TestChunkFromInstance(t *testing.T) {
	l, _ := newLibraries(t, false)
	for _, c := range []struct {
		names    []string
		instance bool
	}{
		{[]string{"evaluate"}, true},
		{[]string{"det", "evaluate", "mean"}, true},
		{[]string{"mean", "std"}, false},           // the lighter entry's
		{[]string{"createAdd", "evaluate"}, false}, // a factory: not a member of the instance
	} {
		if _, instance, err := l.chunk("", "mathjs", c.names, true); err != nil || instance != c.instance {
			t.Errorf("chunk(mathjs, %v): instance %v, %v; want %v", c.names, instance, err, c.instance)
		}
	}
	if ok := l.owned.Contains(ownedKey("", "mathjs", nil, true)); !ok || l.owned.Contains("\x00mathjs\x00evaluate") {
		t.Errorf("instance kept %v, cache %q; want one instance program", ok, l.owned.Keys())
	}
}

// TestChunksPerClient: a chunk is cached per client, so one client's run
// never finds (nor times) the chunk of the names another client's run
// used; a library's instance is one program for every set of names of a
// client, and each client's own.
func TestChunksPerClient(t *testing.T) {
	l, _ := newLibraries(t, false)
	a, _, err := l.chunk("client-a", "lodash", []string{"chunk"}, true)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := l.chunk("client-b", "lodash", []string{"chunk"}, true)
	if err != nil {
		t.Fatal(err)
	}
	if a == b || l.owned.Len() != 2 {
		t.Errorf("client-b got client-a's chunk (same program %v, %d cached)", a == b, l.owned.Len())
	}
	if again, _, _ := l.chunk("client-a", "lodash", []string{"chunk"}, true); again != a {
		t.Error("client-a's second run built its chunk again")
	}
	x, _, _ := l.chunk("client-a", "mathjs", []string{"evaluate"}, true)
	y, _, _ := l.chunk("client-a", "mathjs", []string{"det"}, true)
	z, _, _ := l.chunk("client-b", "mathjs", []string{"evaluate"}, true)
	if x == nil || x != y {
		t.Error("one client's instance programs differ for two sets of names; want one")
	}
	if z == nil || z == x {
		t.Error("client-b got client-a's instance program")
	}
}

// TestLibrariesCompiledPerClient: a library Precompile did not compile
// is compiled for the client whose run uses it first, and again for the
// next client (neither can time the other's use, issue 22), once per
// client; a precompiled one is one program for all. What is compiled for
// clients is charged to them (fair.Cache): past the budget a client's new
// program evicts its own, not another client's.
func TestLibrariesCompiledPerClient(t *testing.T) {
	l, set := newLibraries(t, true)
	for _, name := range set.Modules()[1:] {
		a, err := l.program("a", name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := l.program("b", name)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := l.program("a", name)
		_, precompiled := l.wholes[name]
		switch {
		case again != a:
			t.Errorf("%s: a's second use compiled it again", name)
		case precompiled && a != b:
			t.Errorf("%s: precompiled, but two clients got two programs", name)
		case !precompiled && a == b:
			t.Errorf("%s: b's first use found a's program", name)
		}
	}
	if err := l.Warm([]bundle.LibraryUse{{Name: "zod"}}, "c"); err != nil {
		t.Fatal(err)
	}
	if !l.owned.Contains(ownedKey("c", "zod", nil, false)) {
		t.Error("Warm for c did not compile zod for c")
	}

	l = NewLibraries(set)
	l.owned.SetBudget(2 << 20)
	for _, use := range []struct{ client, name string }{
		{"other", "validator"}, // 130 KiB of source
		{"filler", "date-fns"}, // 146 KiB
		{"filler", "zod"},      // 482 KiB
		{"filler", "date-fns/locale"},
		{"filler", "mathjs"}, // 1,049 KiB: the filler is over the budget, and holds the most
	} {
		if _, err := l.program(use.client, use.name); err != nil {
			t.Fatal(err)
		}
	}
	if b := l.owned.Bytes(); b > 2<<20 {
		t.Errorf("%d bytes of source cached; budget %d", b, 2<<20)
	}
	if !l.owned.Contains(ownedKey("other", "validator", nil, false)) {
		t.Errorf("the filler's programs evicted another client's: %q", l.owned.Keys())
	}
	if l.owned.Contains(ownedKey("filler", "date-fns", nil, false)) || !l.owned.Contains(ownedKey("filler", "mathjs", nil, false)) {
		t.Errorf("cache %q; want the filler's oldest gone and its newest kept", l.owned.Keys())
	}
}

// TestChunkFromWholeUntilAsked: with the small libraries precompiled, a
// run reads its names from the whole library, and no chunk is built, until
// its client asks for the same names chunkAfterAsks + 1 times (Warm: build);
// the run itself (lib: no build) never builds one; another client's asks
// count for it alone; names the whole library lacks still get their
// chunk; exactly the libraries within precompileBytes are precompiled.
func TestChunkFromWholeUntilAsked(t *testing.T) {
	l, set := newLibraries(t, true)
	for _, name := range set.Modules()[1:] {
		src, err := set.Source(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := l.wholes[name]; ok != (len(src) <= precompileBytes) {
			t.Errorf("%s (%d bytes) precompiled: %v; precompileBytes %d", name, len(src), ok, precompileBytes)
		}
	}
	if _, ok := l.wholes["lodash"]; !ok {
		t.Fatal("lodash not precompiled")
	}
	whole := l.wholes["lodash"].prg
	names := []string{"groupBy", "sortBy"}
	ask := func(client string, build bool) (bool, bool) {
		t.Helper()
		prg, members, err := l.chunk(client, "lodash", names, build)
		if err != nil {
			t.Fatal(err)
		}
		return prg == whole, members
	}
	for i := range chunkAfterAsks {
		if fromWhole, members := ask("a", true); !fromWhole || !members || l.owned.Len() != 0 {
			t.Fatalf("a's ask %d: whole %v, members %v, %d chunks; want the whole library, no chunk", i+1, fromWhole, members, l.owned.Len())
		}
	}
	if fromWhole, _ := ask("a", false); !fromWhole {
		t.Error("a's run: not the whole library")
	}
	if fromWhole, members := ask("b", true); !fromWhole || !members {
		t.Error("b's first ask: not the whole library (a's ask counted for b)")
	}
	if fromWhole, members := ask("a", true); fromWhole || members || l.owned.Len() != 1 {
		t.Fatalf("a's last ask: whole %v, members %v, %d chunks; want its chunk built", fromWhole, members, l.owned.Len())
	}
	if fromWhole, _ := ask("a", false); fromWhole {
		t.Error("a's run after its chunk was built: the whole library")
	}
	if fromWhole, _ := ask("b", false); !fromWhole {
		t.Error("b's run found a's chunk")
	}
	if prg, members, err := l.chunk("a", "lodash", []string{"groupBy", "notAnExport"}, false); err == nil && (members || prg == whole) {
		t.Error("a name lodash lacks was read from the whole library")
	}
}
