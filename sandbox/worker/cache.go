package worker

import (
	"crypto/sha256"

	"github.com/dop251/goja"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/bundle"
	"github.com/playground-dev/playground/sandbox/worker/js"
)

// programCache keeps compiled bundles by content hash, least recently used
// out first. A *goja.Program is immutable and shared by the runtimes of
// later runs. Bundle errors are cached too: the same files fail the same way.
type programCache struct {
	libs *js.Libraries
	m    *lru.Cache[[32]byte, *compiled]
}

type compiled struct {
	prg     *goja.Program
	imports []bundle.LibraryUse // what the bundle evaluates of each library it imports, by name
	mode    string              // the mode the bundle was built for (bundle.Result.Mode)
	errs    []pipe.Error
}

func newProgramCache(size int, libs *js.Libraries) *programCache {
	m, err := lru.New[[32]byte, *compiled](size)
	if err != nil {
		panic(err) // only for a size < 1
	}
	return &programCache{libs: libs, m: m}
}

// has reports whether the bundle of key (bundleKey) is cached.
func (c *programCache) has(key [32]byte) bool { return c.m.Contains(key) }

// get returns the compiled bundle of files in mode ("" detects it), whose
// bundleKey is key, bundling and compiling it on a miss, or the errors that
// stopped it.
func (c *programCache) get(key [32]byte, files []pipe.File, entry, mode string) *compiled {
	if e, ok := c.m.Get(key); ok {
		return e
	}
	b := bundle.BundleMode(files, entry, mode, c.libs.Set())
	e := &compiled{errs: b.Errors, imports: b.Uses, mode: b.Mode}
	if len(e.errs) == 0 {
		prg, err := js.Compile(b.Code)
		if err != nil {
			e.errs = []pipe.Error{{Kind: pipe.KindSyntax, Message: err.Error()}}
		}
		e.prg = prg
	}
	c.m.Add(key, e)
	return e
}

// bundleKey hashes what decides a bundle's bytes: the bundler version
// (options live in this binary), the mode, the entry and the files, each
// length-prefixed.
func bundleKey(files []pipe.File, entry, mode string) [32]byte {
	h := sha256.New()
	write := func(s string) {
		var n [8]byte
		for i := range 8 {
			n[i] = byte(len(s) >> (8 * i))
		}
		h.Write(n[:])
		h.Write([]byte(s))
	}
	write(bundle.Version)
	write(mode)
	write(entry)
	for _, f := range files {
		write(f.Path)
		write(f.Source)
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}
