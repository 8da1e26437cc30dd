package parity

import (
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// freshRegExpCache gives the test an empty regexpPrograms of its own (the
// process's is shared by every test of the binary, -count runs included),
// and puts the process's back when it ends. Tests using it do not run in
// parallel.
func freshRegExpCache(t *testing.T) *regexpCache {
	c := newRegExpCache()
	saved := regexpPrograms
	regexpPrograms = func() *regexpCache { return c }
	t.Cleanup(func() { regexpPrograms = saved })
	return c
}

// TestRegExpCacheIsPerClient reproduces issue 22's side channel: the
// time a new RegExp took told which pattern (built from customer names)
// the previous client compiled. Entries are keyed per client: another
// client's identical pattern is a miss (compiled again, a new entry),
// the same client's a hit.
func TestRegExpCacheIsPerClient(t *testing.T) {
	vm := goja.New()
	pattern := vm.ToValue("customer-ada-[0-9]+")
	cache := freshRegExpCache(t)
	build := func(client string) {
		t.Helper()
		p := &Patcher{vm: vm, client: client}
		v, ok := p.cachedRegExp([]goja.Value{pattern})
		if !ok || !strings.Contains(v.String(), "customer-ada") {
			t.Fatalf("cachedRegExp for %q = %v, %v", client, v, ok)
		}
	}
	n := cache.m.Len()
	build("client-a")
	if got := cache.m.Len(); got != n+1 {
		t.Fatalf("%d entries after client a; want %d", got, n+1)
	}
	build("client-b")
	if got := cache.m.Len(); got != n+2 {
		t.Errorf("%d entries after client b built the same pattern; want %d (a miss: its own entry)", got, n+2)
	}
	build("client-a")
	if got := cache.m.Len(); got != n+2 {
		t.Errorf("%d entries after client a again; want %d (a hit)", got, n+2)
	}
}

// TestRegExpCacheHasAByteBudget reproduces issue 22's "the per-worker
// RegExp program cache (512 entries, no byte budget) is charged to later
// runs": `".{1000}".repeat(n)` patterns are short strings whose programs
// are large. An entry is counted by what compiling it allocated, not by
// its pattern's length; one over a quarter of the budget is not kept;
// and the cache stays within regexpBudget however many arrive.
func TestRegExpCacheHasAByteBudget(t *testing.T) {
	vm := goja.New()
	cache := freshRegExpCache(t)
	p := &Patcher{vm: vm, client: "budget"}
	key := func(src string) string { return regexpKey(p.client, src, "") }
	huge := strings.Repeat(".{1000}", 140) // 980 bytes of pattern
	if _, ok := p.cachedRegExp([]goja.Value{vm.ToValue(huge)}); !ok {
		t.Fatal("huge pattern not built")
	}
	if cache.m.Contains(key(huge)) {
		t.Error("a program over a quarter of the budget was kept")
	}
	for i := range 60 {
		src := strings.Repeat(".{1000}", 2) + strings.Repeat("x", i) // 14+ bytes of pattern
		if _, ok := p.cachedRegExp([]goja.Value{vm.ToValue(src)}); !ok {
			t.Fatalf("pattern %d not built", i)
		}
		before, _ := cache.m.Owned(p.client)
		if _, ok := p.cachedRegExp([]goja.Value{vm.ToValue(src + "y")}); !ok {
			t.Fatalf("pattern %dy not built", i)
		}
		if after, _ := cache.m.Owned(p.client); !cache.m.Contains(key(src+"y")) || after-before < int64(len(src))*1000 && after <= regexpBudget/2 {
			t.Fatalf("pattern %dy: kept %v, counted %d bytes; want it kept at what its program took (far more than its %d bytes)", i, cache.m.Contains(key(src+"y")), after-before, len(src))
		}
		if b := cache.m.Bytes(); b > regexpBudget {
			t.Fatalf("cache holds %d bytes after pattern %d; want at most %d", b, i, regexpBudget)
		}
	}
	if cache.m.Contains(key(strings.Repeat(".{1000}", 2))) {
		t.Error("the oldest entry is still cached past the budget")
	}
}

// TestRegExpCacheChargesTheFiller: a client that compiles patterns past
// the budget evicts its own oldest, not another client's (fair.Cache):
// two runs compiling big patterns made another client's run slower to
// find its own (issue 22).
func TestRegExpCacheChargesTheFiller(t *testing.T) {
	vm := goja.New()
	cache := freshRegExpCache(t)
	other := &Patcher{vm: vm, client: "other"}
	if _, ok := other.cachedRegExp([]goja.Value{vm.ToValue("order-[0-9]{6}")}); !ok {
		t.Fatal("other's pattern not built")
	}
	filler := &Patcher{vm: vm, client: "filler"}
	full := false // past the count or the byte budget
	for i := range maxRegExpPrograms + 8 {
		full = full || cache.m.Bytes() > regexpBudget*3/4 || cache.m.Len() == maxRegExpPrograms
		src := strings.Repeat(".{1000}", 3) + strconv.Itoa(i)
		if _, ok := filler.cachedRegExp([]goja.Value{vm.ToValue(src)}); !ok {
			t.Fatalf("pattern %d not built", i)
		}
	}
	if !full {
		t.Fatalf("the cache never filled: %d entries, %d bytes", cache.m.Len(), cache.m.Bytes())
	}
	if !cache.m.Contains(regexpKey("other", "order-[0-9]{6}", "")) {
		t.Error("the filler's patterns evicted another client's")
	}
}
