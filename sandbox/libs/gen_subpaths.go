//go:build ignore

// This file is part of gen.go (go run gen.go gen_sections.go gen_subpaths.go):
// subpaths of a package vendored as libraries of their own.

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// subpathLibraries are subpaths of a package of package.json that are
// vendored as libraries of their own, by their package: date-fns/locale,
// the locale objects date-fns's functions take as an option
// (format(d, "PPPP", { locale: de })). Each is built as a package is (a
// whole script from its CommonJS form, an ES module source whose entry
// re-exports each member module by name, so that a chunk reads and
// evaluates only the members a run names: subpathEntry), and its member
// modules (date-fns/locale/zh-CN) are its libs.Library.Subpaths, read from
// the package's exports map.
var subpathLibraries = map[string]string{"date-fns/locale": "date-fns"}

// packageOf is the npm package whose files library name is made from.
func packageOf(name string) string {
	if pkg, ok := subpathLibraries[name]; ok {
		return pkg
	}
	return name
}

// reExportConst is a member module's export of its value: date-fns's
// locale/de.js has `export const de = {`.
var reExportConst = regexp.MustCompile(`(?m)^export const ([A-Za-z_$][\w$]*) = `)

// subpathMembers maps each member of subpath library name (a key
// "./<sub>/<member>" of its package's exports map, with an "import"
// condition) to the one name its ES module exports besides default.
// Every one of exports (the whole script's names) must be exactly one
// member's, and every member's name one of exports: a locale date-fns
// adds or renames then fails here rather than going missing.
func subpathMembers(dir, name string, exports []string) (map[string]string, error) {
	pkg := packageOf(name)
	sub := strings.TrimPrefix(name, pkg+"/")
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", pkg, "package.json"))
	if err != nil {
		return nil, err
	}
	var meta struct{ Exports map[string]json.RawMessage }
	if err := json.Unmarshal(b, &meta); err != nil {
		return nil, fmt.Errorf("%s/package.json: %w", pkg, err)
	}
	members := map[string]string{}
	owner := map[string]string{} // export → member
	for key, raw := range meta.Exports {
		member, ok := strings.CutPrefix(key, "./"+sub+"/")
		if !ok || strings.Contains(member, "/") {
			continue
		}
		var cond struct {
			Import struct{ Default string } `json:"import"`
		}
		if err := json.Unmarshal(raw, &cond); err != nil || cond.Import.Default == "" {
			return nil, fmt.Errorf("%s/package.json: exports[%q] has no import condition", pkg, key)
		}
		code, err := os.ReadFile(filepath.Join(dir, "node_modules", pkg, cond.Import.Default))
		if err != nil {
			return nil, err
		}
		m := reExportConst.FindAllStringSubmatch(string(code), -1)
		if len(m) != 1 {
			return nil, fmt.Errorf("%s: %d `export const` statements; want 1", cond.Import.Default, len(m))
		}
		export := m[0][1]
		if !slices.Contains(exports, export) {
			return nil, fmt.Errorf("%s exports %s, which %s does not", key, export, name)
		}
		if prev, dup := owner[export]; dup {
			return nil, fmt.Errorf("%s and %s both export %s", prev, member, export)
		}
		members[member], owner[export] = export, member
	}
	for _, e := range exports {
		if _, ok := owner[e]; !ok {
			return nil, fmt.Errorf("%s exports %s, which no module %s/%s/<name> does", name, e, pkg, sub)
		}
	}
	return members, nil
}

// subpathEntry is the ES module entry of subpath library name: a named
// re-export of each member's export from the member's module, sorted by
// member. Being named re-exports only, a chunk's build is served just
// the statements of the names it uses (libs.ESMSource.PluginFor), and so
// parses the modules of those members only.
func subpathEntry(dir, name string, exports []string) (string, error) {
	members, err := subpathMembers(dir, name, exports)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, member := range slices.Sorted(func(yield func(string) bool) {
		for m := range members {
			if !yield(m) {
				return
			}
		}
	}) {
		fmt.Fprintf(&b, "export { %s } from %s;\n", members[member], strconvQuote(name+"/"+member))
	}
	return b.String(), nil
}
