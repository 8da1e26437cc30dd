package parity

import (
	"reflect"

	"github.com/dop251/goja/file"
)

// Walk visits root and every AST node under it, parents first, in
// source order, descending into a node only when visit returns true. It is
// the one walk of a parsed bundle (js.Compile) that the rewrites here and
// the core's usage summary share.
func Walk(root any, visit func(n any) bool) {
	fileType := reflect.TypeOf(file.File{})
	stack := []reflect.Value{reflect.ValueOf(root)}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch v.Kind() {
		case reflect.Interface: // the node is the pointer inside: visited once, there
			if !v.IsNil() {
				stack = append(stack, v.Elem())
			}
		case reflect.Pointer:
			if !v.IsNil() && visit(v.Interface()) {
				stack = append(stack, v.Elem())
			}
		case reflect.Struct:
			if v.Type() == fileType {
				continue
			}
			for i := v.NumField() - 1; i >= 0; i-- { // pushed in reverse: visited in order
				if !v.Type().Field(i).IsExported() {
					continue
				}
				f := v.Field(i)
				if f.Kind() == reflect.Struct && f.CanAddr() {
					// A node held by value (DotExpression.Identifier,
					// PropertyShort.Name): visited as a pointer too.
					f = f.Addr()
				}
				stack = append(stack, f)
			}
		case reflect.Slice:
			for i := v.Len() - 1; i >= 0; i-- {
				stack = append(stack, v.Index(i))
			}
		}
	}
}
