package js

import (
	"github.com/dop251/goja"
)

// webapiHost is the Runtime as the web APIs' webapi.Host: a conversion,
// not a second value.
type webapiHost Runtime

func (h *webapiHost) Throw(class, msg string) { (*Runtime)(h).throw(class, msg) }

func (h *webapiHost) ThrowDOM(name, msg string) { (*Runtime)(h).throwDOM(name, msg) }

func (h *webapiHost) DataViewBytes(o *goja.Object) ([]byte, error) {
	return (*Runtime)(h).enc.DataViewBytes(o)
}

// throwDOM throws a DOMException named name (its code follows from the
// name), as Web APIs do.
func (e *Runtime) throwDOM(name, msg string) {
	ctor := e.group("DOMException").Get("DOMException")
	o, err := e.vm.New(ctor, e.vm.ToValue(msg), e.vm.ToValue(name))
	if err != nil {
		panic(err)
	}
	e.markGoThrown(o)
	panic(o)
}
