package js

import (
	"golang.org/x/text/unicode/norm"

	"github.com/playground-dev/playground/sandbox/worker/js/intl"
)

// LoadTables loads every table a run could otherwise load on first use and
// keep for the life of the process: intl's locale data (intl.Preload) and
// the composition table of String.prototype.normalize's NFC and NFKC forms
// (golang.org/x/text/unicode/norm builds it on first use). Loaded lazily,
// the first run to need one paid for it and every later run on the worker,
// anyone's, did not, so a run's timing told which locale or form an
// earlier client had used (issue 22, item 1). The worker calls it before
// it says ready; it takes ≈2 ms and keeps ≈0.4 MB of heap (intl's large
// tables are embedded read-only data, not loaded: intl.Preload).
func LoadTables() {
	intl.Preload()
	_ = norm.NFC.String("e\u0301")
}

// Locale-sensitive methods and Intl: parity.Patcher.InstallLocale replaces
// goja's locale methods with package intl's formatters.

// locale is the runtime's intl.Locale, made on first use (it builds nothing
// until a method or the namespace needs it).
func (e *Runtime) locale() *intl.Locale {
	if e.loc == nil {
		e.loc = intl.NewLocale(e.vm, e.throw)
	}
	return e.loc
}
