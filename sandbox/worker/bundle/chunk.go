package bundle

import (
	"fmt"
	"strings"

	"github.com/playground-dev/playground/sandbox/libs"
)

// LibraryChunk bundles the named exports of an ES module library source
// (libs.Set.ESM) into a script that evaluates to an object holding exactly
// those exports, tree-shaken: only the modules they need are in it. It
// uses src's lighter entry when that exports every name (mathjs/number
// for mathjs's number functions). Every name must be one of src.Exports;
// src.Namespace among them is an object of just the other names.
// When src.Wraps(), the chunk evaluates to the library's callable
// default export with just the names as methods (jstat's jStat).
// It is safe for concurrent use; it costs one esbuild build over the
// package's modules (≈0.1–0.5 s for mathjs), so callers cache the result.
func LibraryChunk(src *libs.ESMSource, names []string) (string, error) {
	if len(names) == 0 {
		// Imported or required and never used (import _ from "lodash" with
		// no _. after it): nothing of the library is reached, so none of it
		// runs; its exports object is empty.
		return "({});\n", nil
	}
	for _, n := range names {
		if !src.Has(n) {
			return "", fmt.Errorf("the library exports no %q", n)
		}
	}
	var plain []string // names other than src.Namespace
	ns := false
	for _, n := range names {
		if n == src.Namespace {
			ns = true
		} else {
			plain = append(plain, n)
		}
	}
	list := strings.Join(plain, ", ")
	entry := "export { " + list + " } from " + jsString(src.EntryFor(plain)) + ";\n"
	value := ""                               // the chunk's value: its exports object
	plugin := src.PluginFor("library", plain) // reads only the modules plain reach
	if src.Wraps() {
		// jStat itself, with just these methods: what jStat(xs) wraps
		// calls them by name (libs.ESMSource.WrapperSource).
		entry = "export { default } from " + jsString(libs.ESMWrapped) + ";\n"
		value = ".default"
		plugin = src.PluginWrapper("library", names)
	} else if ns {
		// The namespace export holds just the names used through it. Each
		// is imported under an alias: an export may be named by a reserved
		// word (zod's z.enum, z.null, z.void, z.instanceof, z.function),
		// which an import cannot bind and a shorthand property cannot hold.
		imports, exports, fields := make([]string, len(plain)), make([]string, len(plain)), make([]string, len(plain))
		for i, n := range plain {
			alias := fmt.Sprintf("__ns%d", i)
			imports[i] = n + " as " + alias
			exports[i] = alias + " as " + n
			fields[i] = n + ": " + alias
		}
		entry = "import { " + strings.Join(imports, ", ") + " } from " + jsString(src.EntryFor(plain)) + ";\n" +
			"export { " + strings.Join(exports, ", ") + " };\nexport const " + src.Namespace + " = Object.seal({ " + strings.Join(fields, ", ") + " });\n"
	}
	return libs.Script(entry, value, plugin)
}
