package js

import (
	"github.com/playground-dev/playground/sandbox/worker/js/intl"
)

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
