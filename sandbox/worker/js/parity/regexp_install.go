package parity

import (
	"fmt"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/fair"
	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

// InstallRegExp replaces the global RegExp with the rewriting Proxy.
func (p *Patcher) InstallRegExp() {
	vm := p.vm
	g := vm.GlobalObject()
	target := g.Get("RegExp").ToObject(vm)
	construct, _ := goja.AssertConstructor(target) // no Reflect: a plain run need not build it
	call, _ := goja.AssertFunction(target)
	// fix returns the arguments goja's RegExp takes, and indices: the flags
	// of a d-flag RegExp for p.Indices to decorate (regexpidx), "" for any
	// other. Per call, not shared: the constructor may run snippet code
	// (a pattern's toString) that builds another RegExp.
	fix := func(args []goja.Value) (_ []goja.Value, indices string) {
		if len(args) == 0 {
			return args, ""
		}
		flags := ""
		if len(args) > 1 && !goja.IsUndefined(args[1]) {
			flags = args[1].String()
		}
		if p.Indices != nil && strings.Count(flags, "d") == 1 {
			indices, flags = flags, strings.Replace(flags, "d", "", 1)
			args = append(slices.Clone(args[:1]), vm.ToValue(flags))
		}
		for _, f := range "dv" {
			if strings.ContainsRune(flags, f) {
				name := map[rune]string{'d': "d (match indices, hasIndices)", 'v': "v (unicode sets)"}[f]
				p.h.Throw("SyntaxError", fmt.Sprintf("Invalid regular expression flags '%s': the %s flag is not supported in the playground", flags, name))
			}
		}
		s, ok := intrinsic.PrimitiveString(args[0]) // an object is never exported (getters, cycles)
		if !ok || !strings.Contains(flags, "u") || !strings.Contains(s, `\p{`) && !strings.Contains(s, `\P{`) {
			return args, indices
		}
		out, err := RewriteUnicodeProperties(s)
		if err != nil {
			p.h.Throw("SyntaxError", fmt.Sprintf("Invalid regular expression: /%s/%s: %v", s, flags, err))
		}
		args = slices.Clone(args)
		args[0] = vm.ToValue(out)
		return args, indices
	}
	var self *goja.Object // the Proxy: `new RegExp` passes it as newTarget
	proxy := vm.NewProxy(target, &goja.ProxyTrapConfig{
		Construct: func(t *goja.Object, args []goja.Value, newTarget *goja.Object) *goja.Object {
			args, indices := fix(args)
			if indices != "" {
				v, err := construct(newTarget, args...)
				if err != nil {
					panic(err)
				}
				return p.Indices(v, indices)
			}
			if newTarget == t || newTarget == self { // not a subclass: its prototype is RegExp.prototype
				if v, ok := p.cachedRegExp(args); ok {
					return v.(*goja.Object)
				}
			}
			v, err := construct(newTarget, args...)
			if err != nil {
				panic(err)
			}
			return v
		},
		Apply: func(t *goja.Object, this goja.Value, args []goja.Value) goja.Value {
			args, indices := fix(args)
			if indices != "" {
				v, err := construct(self, args...)
				if err != nil {
					panic(err)
				}
				return p.Indices(v, indices)
			}
			if v, ok := p.cachedRegExp(args); ok { // RegExp(string, flags) is new RegExp(string, flags)
				return v
			}
			v, err := call(this, args...)
			if err != nil {
				panic(err)
			}
			return v
		},
	})
	// goja's instanceof cannot see through a Proxy of a function; the
	// target's own @@hasInstance (which the Proxy forwards to) walks the
	// prototype chain as OrdinaryHasInstance does.
	proto := target.Get("prototype")
	must(target.DefineDataPropertySymbol(goja.SymHasInstance, vm.ToValue(func(c goja.FunctionCall) goja.Value {
		o, ok := c.Argument(0).(*goja.Object)
		for ok {
			pv, err := p.b.GetPrototypeOf(goja.Undefined(), o)
			if err != nil || goja.IsNull(pv) {
				return vm.ToValue(false)
			}
			if pv.StrictEquals(proto) {
				return vm.ToValue(true)
			}
			o, ok = pv.(*goja.Object)
		}
		return vm.ToValue(false)
	}), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE))
	p.guardRegExpReceivers(proto.(*goja.Object))
	po := vm.ToValue(proxy).(*goja.Object)
	self = po
	p.MarkNative(po, "RegExp") // the Proxy prints as the native constructor
	must(g.DefineDataProperty("RegExp", po, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
}

// guardRegExpReceivers wraps RegExp.prototype's @@replace, @@match,
// @@matchAll, @@search and @@split: called on an object that is not a
// RegExp (`RegExp.prototype[Symbol.replace].call({}, "a")`), goja's
// dereferences a RegExp it does not have — a Go panic that ended the run
// with an uncatchable error — or loops. ECMA-262 RegExpExec throws a
// TypeError for an object with no callable exec and no [[RegExpMatcher]];
// V8 names the receiver. These throw that TypeError for any receiver that
// is not a RegExp (one with its own callable exec included: goja's
// methods assume a RegExp throughout), and leave RegExps to goja.
func (p *Patcher) guardRegExpReceivers(proto *goja.Object) {
	vm := p.vm
	for _, m := range []struct {
		sym  *goja.Symbol
		name string
	}{{goja.SymReplace, "[Symbol.replace]"}, {goja.SymMatch, "[Symbol.match]"}, {goja.SymMatchAll, "[Symbol.matchAll]"},
		{goja.SymSearch, "[Symbol.search]"}, {goja.SymSplit, "[Symbol.split]"}} {
		orig, ok := goja.AssertFunction(proto.GetSymbol(m.sym))
		if !ok {
			continue
		}
		length := proto.GetSymbol(m.sym).ToObject(vm).Get("length")
		f := vm.ToValue(func(c goja.FunctionCall) goja.Value {
			if o, ok := c.This.(*goja.Object); !ok || o.ClassName() != "RegExp" || o.ExportType() == proxyType {
				p.h.Throw("TypeError", "Method RegExp.prototype."+m.name+" called on incompatible receiver "+receiverName(c.This))
			}
			return call(orig, c.This, c.Arguments...)
		}).(*goja.Object)
		must(f.DefineDataProperty("name", vm.ToValue(m.name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE))
		must(f.DefineDataProperty("length", length, goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE))
		must(proto.DefineDataPropertySymbol(m.sym, f, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
		p.MarkNative(f, m.name)
	}
}

// receiverName is how V8 names a receiver in "called on incompatible
// receiver": a primitive's value, an object as [object Object]; read
// without running snippet code.
func receiverName(v goja.Value) string {
	switch v.(type) {
	case *goja.Object:
		return "[object Object]"
	case *goja.Symbol:
		return "Symbol()"
	}
	if s, ok := intrinsic.PrimitiveString(v); ok {
		return s
	}
	return "#<Object>"
}

// regexpPrograms caches, per process, a program that is just the regex
// literal /pattern/flags for patterns that `new RegExp(string, flags)`
// builds at run time: goja compiles a literal's pattern once, when the
// program is compiled, and each evaluation makes a fresh RegExp object
// (ECMA-262 RegularExpressionLiteral evaluation), while new RegExp compiles
// the pattern again in every fresh runtime — a library such as
// validator builds its IPv4/IPv6 patterns that way at load, a third of its
// import. Keys are client + NUL + pattern + NUL + flags (Patcher.client:
// a client never hits another's entry, so the time a RegExp takes tells
// nothing of the patterns another client built, issue 22); at most
// maxRegExpPrograms programs and regexpBudget bytes, past which the client
// holding the most loses its least recently used (fair.Cache): a client
// that compiles many patterns evicts its own, not the next client's.
//
// An entry's bytes are what compiling it allocated (the runtime's
// allocation counter around goja.Compile): a pattern's length says little
// of its program (`.{1000}` repeated 140 times is 980 bytes of pattern
// and tens of megabytes compiled). The run that compiles an entry
// allocates it, so the worker's watchdog charges it to that run; later
// runs see it in the worker's retained heap, which is not charged to them
// (sandbox/worker, measureBase).
var regexpPrograms = sync.OnceValue(newRegExpCache)

func newRegExpCache() *regexpCache {
	return &regexpCache{m: fair.New[string, *goja.Program](maxRegExpPrograms, regexpBudget)}
}

// regexpKey is a program's key in regexpPrograms: unambiguous, as neither
// a client token (pipe.ClientTokens: hex) nor the flags (gimsuy) holds
// the NUL that separates them from the pattern, which may.
func regexpKey(client, pattern, flags string) string {
	return client + "\x00" + pattern + "\x00" + flags
}

// Bounds of regexpPrograms.
const (
	maxRegExpPrograms = 512
	regexpBudget      = 8 << 20
)

type regexpCache struct {
	m *fair.Cache[string, *goja.Program] // by regexpKey, owned by the client; bytes compiling it allocated
}

// add keeps prg under key for client, bytes what compiling it allocated;
// a program over a quarter of regexpBudget is not kept.
func (c *regexpCache) add(key, client string, prg *goja.Program, bytes int64) {
	bytes += int64(len(key))
	if bytes > regexpBudget/4 {
		return
	}
	c.m.Add(key, prg, client, bytes)
}

// allocatedBytes is the heap this process has allocated so far.
func allocatedBytes() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// maxCachedPattern bounds the patterns regexpPrograms keeps (bytes).
const maxCachedPattern = 4 << 10

// cachedRegExp returns a fresh RegExp for args = (pattern, flags) from the
// program cache, or false when args are not a pattern string and a flags
// string (or none) that a literal can spell exactly: no "/", no line
// terminator, not empty, not starting with "*" (a comment), flags only
// from "gimsuy". Anything else — or a pattern goja refuses — takes the
// intrinsic constructor, which throws its own SyntaxError.
func (p *Patcher) cachedRegExp(args []goja.Value) (goja.Value, bool) {
	if len(args) == 0 || len(args) > 2 {
		return nil, false
	}
	pattern, ok := intrinsic.PrimitiveString(args[0])
	if !ok || pattern == "" || len(pattern) > maxCachedPattern || pattern[0] == '*' ||
		strings.ContainsAny(pattern, "/\n\r\u2028\u2029") {
		return nil, false
	}
	flags := ""
	if len(args) == 2 && !goja.IsUndefined(args[1]) {
		if flags, ok = intrinsic.PrimitiveString(args[1]); !ok || strings.Trim(flags, "gimsuy") != "" {
			return nil, false
		}
	}
	key := regexpKey(p.client, pattern, flags)
	cache := regexpPrograms()
	prg, ok := cache.m.Get(key)
	if !ok {
		before := allocatedBytes()
		var err error
		if prg, err = goja.Compile("", "/"+pattern+"/"+flags, true); err != nil {
			return nil, false
		}
		cache.add(key, p.client, prg, allocatedBytes()-before)
	}
	v, err := p.vm.RunProgram(prg)
	if err != nil {
		return nil, false
	}
	return v, true
}
