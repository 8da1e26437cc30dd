package intl

import "github.com/dop251/goja"

func (e *env) installCollator(ns *goja.Object) *goja.Object           { return nil }
func (e *env) installPluralRules(ns *goja.Object) *goja.Object        { return nil }
func (e *env) installRelativeTimeFormat(ns *goja.Object) *goja.Object { return nil }
func (e *env) installListFormat(ns *goja.Object) *goja.Object         { return nil }
