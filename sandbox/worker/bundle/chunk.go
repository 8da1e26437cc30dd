package bundle

import (
	"fmt"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

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
	return libraryScript(entry, value, plugin)
}

// InstanceScript bundles entry, a module importing from libs.ESMEntry whose
// default export is an instance of src's package (mathjs's create(all)),
// into a script that evaluates to that instance, tree-shaken and minified
// as a chunk is. The generate step (sandbox/libs/gen.go) calls it once and
// ships the script as libs.ESMSource.Instance, so no worker bundles it.
func InstanceScript(src *libs.ESMSource, entry string) (string, error) {
	return libraryScript(entry, ".default", src.Plugin("library"))
}

// libraryScript bundles entry, an ES module the plugin's modules serve,
// into a script that evaluates to its exports object followed by value
// ("" or a member of it: ".default").
func libraryScript(entry, value string, plugin api.Plugin) (string, error) {
	res := api.Build(api.BuildOptions{
		Stdin:            &api.StdinOptions{Contents: entry, Sourcefile: "library-chunk.js", Loader: api.LoaderJS},
		Bundle:           true,
		Write:            false,
		Format:           api.FormatESModule,
		Platform:         api.PlatformBrowser,
		Target:           libs.Target,
		Supported:        libs.EngineFeatures(),
		TreeShaking:      api.TreeShakingTrue,
		MinifySyntax:     true,
		MinifyWhitespace: true,
		LegalComments:    api.LegalCommentsNone,
		Charset:          api.CharsetUTF8,
		LogLevel:         api.LogLevelSilent,
		Plugins:          []api.Plugin{plugin},
	})
	if len(res.Errors) > 0 {
		return "", fmt.Errorf("bundling the library's exports: %s", res.Errors[0].Text)
	}
	body, object, err := exportsObject(string(res.OutputFiles[0].Contents))
	if err != nil {
		return "", err
	}
	return "(() => {" + body + "return " + object + ";\n})()" + value + ";\n", nil
}

// exportsObject splits esbuild's ES module output into its code and an
// object literal of its exports: the output ends in one export clause,
// `export{a as chunk,b};` (esbuild writes a bundle's exports so, once, at
// its end), which becomes `{chunk:a,b}`. A chunk evaluates to that plain
// object. (The IIFE format's interop, an object of getters copied by
// __toCommonJS, cost a date-fns addDays chunk 80 of its 115 µs and 30 of
// its 47 KiB, in every run that imports it.) The bindings are read once,
// after the chunk's code has run: a library that reassigned an exported
// binding later would not be seen, and none of the shipped ones does
// (their tests compare runs with Node's).
func exportsObject(code string) (body, object string, err error) {
	trimmed := strings.TrimRight(code, "\n")
	i := strings.LastIndex(trimmed, "export{")
	if i < 0 || !strings.HasSuffix(trimmed, "};") || strings.ContainsAny(trimmed[i+len("export{"):len(trimmed)-2], "{}") {
		return "", "", fmt.Errorf("bundling the library's exports: the output does not end in one export clause")
	}
	var fields []string
	for item := range strings.SplitSeq(trimmed[i+len("export{"):len(trimmed)-2], ",") {
		local, exported, as := strings.Cut(strings.TrimSpace(item), " as ")
		if !as {
			fields = append(fields, local) // shorthand: the same name
			continue
		}
		fields = append(fields, exported+":"+local) // exported may be a quoted string: a key too
	}
	return trimmed[:i], "{" + strings.Join(fields, ",") + "}", nil
}
