package libs

import (
	"fmt"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// InstanceScript bundles entry, a module importing from ESMEntry whose
// default export is an instance of s's package (mathjs's create(all)),
// into a script that evaluates to that instance, tree-shaken and minified
// as a chunk is. The generate step (gen.go) calls it once and ships the
// script as Instance, so no worker bundles it.
func (s *ESMSource) InstanceScript(entry string) (string, error) {
	return Script(entry, ".default", s.Plugin("library"))
}

// Script bundles entry, an ES module whose imports plugin serves (an
// ESMSource's), into a script that evaluates to its exports object
// followed by value ("" or a member of it: ".default"): tree-shaken and
// minified for Target and EngineFeatures. It is what a worker evaluates
// of a library (sandbox/worker/bundle.LibraryChunk) and what the generate
// step ships (InstanceScript). The error names esbuild's first.
func Script(entry, value string, plugin api.Plugin) (string, error) {
	res := build(entry, plugin)
	if len(res.Errors) > 0 {
		return "", fmt.Errorf("bundling the library's exports: %s", res.Errors[0].Text)
	}
	body, object, err := exportsObject(string(res.OutputFiles[0].Contents))
	if err != nil {
		return "", err
	}
	return "(() => {" + body + "return " + object + ";\n})()" + value + ";\n", nil
}

// build bundles entry as Script does, into an ES module (its one output
// file) ending in its export clause.
func build(entry string, plugin api.Plugin) api.BuildResult {
	return api.Build(api.BuildOptions{
		Stdin:            &api.StdinOptions{Contents: entry, Sourcefile: "library-chunk.js", Loader: api.LoaderJS},
		Bundle:           true,
		Write:            false,
		Format:           api.FormatESModule,
		Platform:         api.PlatformBrowser,
		Target:           Target,
		Supported:        EngineFeatures(),
		TreeShaking:      api.TreeShakingTrue,
		MinifySyntax:     true,
		MinifyWhitespace: true,
		LegalComments:    api.LegalCommentsNone,
		Charset:          api.CharsetUTF8,
		LogLevel:         api.LogLevelSilent,
		Plugins:          []api.Plugin{plugin},
	})
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
