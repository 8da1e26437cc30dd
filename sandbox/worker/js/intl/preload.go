package intl

import (
	"sync"
	"sync/atomic"
)

// The package's data is loaded once per process and shared by every
// runtime the process makes. A worker serves many clients in turn, so a
// load on first use would tell a run, by its timing, what an earlier
// client's run used (a locale's date patterns cost milliseconds the next
// run does not pay; issue 22). The worker calls Preload before it serves
// its first run; after that no run loads anything. Everything is loaded,
// not only what is likely, because what is left out is what leaks.
//
// Each loader is made by lazy at package initialization, which registers
// it, so Preload cannot miss one. Per-locale data is loaded for a fixed
// list of locales: no cache of the package grows with what a snippet
// passes (time zones are cached per runtime: env.zones). The large
// tables are built at generate time and embedded in their final form
// (compact.go), so loading them only slices the binary's read-only data.

// loader is one registered piece of data: load computes it once, raw
// computes it afresh (BenchmarkLoad).
type loader struct {
	name string
	load func()
	raw  func() any
}

// loaders is every lazy loader, in registration order. It is appended to
// only during package initialization and read-only after.
var loaders []loader

// loads counts the loads done (each loader once at most): tests check that
// nothing loads after Preload.
var loads atomic.Int64

// lazy returns a function that computes f on its first call and returns
// that value to every call, and registers it for Preload under name. It
// must be called only from a package-level variable's initializer.
func lazy[T any](name string, f func() T) func() T {
	get := sync.OnceValue(func() T {
		loads.Add(1)
		return f()
	})
	loaders = append(loaders, loader{name: name, load: func() { get() }, raw: func() any { return f() }})
	return get
}

// Preload loads all of the package's data: every locale's, in about
// 2 ms of CPU (nearly all of it parsing data/data.json), retaining about
// 0.4 MB of heap; the large tables stay in the binary's read-only data,
// shared by the worker processes (BenchmarkLoad, BenchmarkPreloadGC). A
// worker process calls it once before serving its first run, so that no
// run's timing depends on what an earlier run used. It is safe to call more than once
// and concurrently with runtimes using the package (a second call does
// nothing).
func Preload() {
	for _, l := range loaders {
		l.load()
	}
}
