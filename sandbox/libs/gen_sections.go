//go:build ignore

// This file is part of gen.go (go run gen.go gen_sections.go gen_subpaths.go):
// jstat's script cut into sections.

package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/dop251/goja"
	"github.com/playground-dev/playground/sandbox/libs"
)

var (
	reSectionStart = regexp.MustCompile(`^(?:\(function\(jStat, Math\) \{|jStat\.models = \(function\(\)\{)$`)
	reFactoryStart = regexp.MustCompile(`^\}\)\(this, function \(\) \{$`)
	reSectionRef   = regexp.MustCompile(`(?:\bjStat(?:\.fn|\.utils)?|\bthis)\.([A-Za-z_$][\w$]*)`)
)

// sections cuts script (a UMD factory: `(function (window, factory) {…})(this,
// function () { <core> <sections> jStat.jStat = jStat; return jStat; });`)
// into a libs.ESMWrapper: a CommonJS module whose export is the factory's
// result, with a part per section after the first sectionBase. A part's
// Methods are the names whose paths (to depth 2 below jStat: jStat.x,
// jStat.normal.cdf, jStat.fn.x) it adds, plus those of the sections that
// need it (needs). It proves, in goja, that every subset it can produce
// evaluates and gives each path the same function (by its source text)
// as the whole script, and it refuses a section whose text reads a name
// (jStat.x, jStat.fn.x, this.x) that only a section outside its needs
// defines.
func sections(dir, script string, needs map[int][]int) (*libs.ESMWrapper, error) {
	code, err := os.ReadFile(filepath.Join(dir, "node_modules", script))
	if err != nil {
		return nil, err
	}
	lines := strings.SplitAfter(string(code), "\n")
	start, end := -1, -1
	for i, l := range lines {
		t := strings.TrimRight(l, "\n")
		if start < 0 && reFactoryStart.MatchString(t) {
			start = i + 1
		}
		if t == "  jStat.jStat = jStat;" {
			end = i
		}
	}
	if start < 0 || end < start {
		return nil, fmt.Errorf("%s: not the expected UMD factory", script)
	}
	var secs []string
	for _, l := range lines[start:end] {
		if reSectionStart.MatchString(strings.TrimRight(l, "\n")) || len(secs) == 0 {
			secs = append(secs, "")
		}
		secs[len(secs)-1] += l
	}
	if len(secs) != 7 {
		return nil, fmt.Errorf("%s: %d sections; want 7 (core, vector, special, distribution, linalg, test, models)", script, len(secs))
	}
	const head, tail = "module.exports = (function () {\n", "  jStat.jStat = jStat;\n  return jStat;\n})();\n"
	eval := func(keep func(i int) bool) (map[string]string, error) {
		var b strings.Builder
		b.WriteString("(function () {\n")
		for i, sec := range secs {
			if keep(i) {
				b.WriteString(sec)
			}
		}
		b.WriteString(`  var out = {}, seen = new Set();
  function walk(o, path, d) {
    if (o == null || (typeof o != "object" && typeof o != "function") || seen.has(o) || d > 2) return;
    seen.add(o);
    Object.getOwnPropertyNames(o).forEach(function (k) {
      var v; try { v = o[k]; } catch (e) { return; }
      out[path + k] = typeof v == "function" ? String(v) : typeof v;
      walk(v, path + k + ".", d + 1);
    });
    if (typeof o == "function" && o.prototype) walk(o.prototype, path + "prototype.", d + 1);
  }
  walk(jStat, "", 0);
  return out;
})()`)
		v, err := goja.New().RunString(b.String())
		if err != nil {
			return nil, err
		}
		var out map[string]string
		return out, goja.New().ExportTo(v, &out)
	}
	closure := func(i int) map[int]bool {
		c := map[int]bool{i: true}
		for changed := true; changed; {
			changed = false
			for j := range c {
				for _, k := range needs[j] {
					if !c[k] {
						c[k], changed = true, true
					}
				}
			}
		}
		return c
	}
	whole, err := eval(func(int) bool { return true })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", script, err)
	}
	prev, err := eval(func(i int) bool { return i < sectionBase }) // the base's paths
	if err != nil {
		return nil, fmt.Errorf("%s: the first %d sections: %w", script, sectionBase, err)
	}
	defines := map[int]map[string]bool{} // section → the last names of the paths it adds
	base := map[string]bool{}
	for p := range prev {
		base[p[strings.LastIndexByte(p, '.')+1:]] = true
	}
	for i := sectionBase; i < len(secs); i++ {
		c := closure(i)
		got, err := eval(func(j int) bool { return j < sectionBase || c[j] })
		if err != nil {
			return nil, fmt.Errorf("%s: section %d with its needs: %w", script, i, err)
		}
		without, err := eval(func(j int) bool { return j < sectionBase || c[j] && j != i })
		if err != nil {
			return nil, fmt.Errorf("%s: the needs of section %d: %w", script, i, err)
		}
		defines[i] = map[string]bool{}
		for p, v := range got {
			if whole[p] != v {
				return nil, fmt.Errorf("%s: section %d with its needs gives %s another value than the whole script", script, i, p)
			}
			if _, ok := without[p]; ok {
				continue
			}
			// A snippet reaches a new path through its first new part:
			// jStat.models.ols by models, jStat(xs).add by add.
			q := p
			for k := range strings.Count(p, ".") + 1 {
				q = strings.Join(strings.SplitN(p, ".", k+2)[:k+1], ".")
				if _, ok := without[q]; !ok {
					break
				}
			}
			defines[i][q[strings.LastIndexByte(q, '.')+1:]] = true
		}
	}
	for i, sec := range secs { // every name a section reads is defined by it, its needs or the base
		c := closure(i)
		for _, m := range reSectionRef.FindAllStringSubmatch(sec, -1) {
			n := m[1]
			if base[n] || i >= sectionBase && defines[i][n] {
				continue
			}
			ok, elsewhere := false, false
			for j, d := range defines {
				if d[n] {
					elsewhere = true
					ok = ok || c[j] && (i >= sectionBase || j < sectionBase)
				}
			}
			if elsewhere && !ok {
				return nil, fmt.Errorf("%s: section %d reads %q, defined only by sections it does not need (sectionNeeds)", script, i, n)
			}
		}
	}
	w := &libs.ESMWrapper{Path: script, Call: "jStat"}
	w.Parts = append(w.Parts, libs.ESMPart{Text: head + strings.Join(secs[:sectionBase], "")})
	for i := sectionBase; i < len(secs); i++ {
		methods := map[string]bool{}
		for j := sectionBase; j < len(secs); j++ {
			if closure(j)[i] { // j needs i (or is i): j's names keep i
				for n := range defines[j] {
					methods[n] = true
				}
			}
		}
		w.Parts = append(w.Parts, libs.ESMPart{Methods: slices.Sorted(maps.Keys(methods)), Text: secs[i]})
	}
	w.Parts = append(w.Parts, libs.ESMPart{Text: tail})
	return w, nil
}
