package js

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// The host bridge of fetch (webapi/polyfill.js, group "fetch"): the
// polyfill's I.fetch(request) sends the request to the server as a host
// call of pipe.FetchHost, and I.fetchBytes(string) encodes a body as
// UTF-8 in Go rather than in a JS loop. The server performs the request
// under the operator's policy (package egress); this process never opens
// a connection.
//
// The call's events (the Calls panel, the call messages) describe the
// request as {method, url} and its answer as {status, statusText, url,
// redirected, bytes}: never its headers or body. The server adds the
// policy's secret headers after it received the request, so neither end of
// this bridge ever holds them.
//
// An aborted fetch (AbortSignal) ends here at once: its promise settles,
// its call event says "aborted" and the run no longer waits for it; a
// pipe.HostCall with Cancel set asks the server to cancel the request
// (its handler's ctx ends). The call's late reply matches no pending call
// and is dropped.

// errFetchDisabled is fetch's rejection when the server offers no fetch.
const errFetchDisabled = "fetch is disabled: the server has no fetch policy (-fetch-policy)"

// fetchEnabled reports whether the server offers fetch to this run.
func (e *Runtime) fetchEnabled() bool { return slices.Contains(e.host, pipe.FetchHost) }

// fetchCall is the polyfill's I.fetch(request): request is the plain
// object the polyfill built ({url, method, headers: [[name, value]], body:
// null | string | ArrayBuffer, redirect}). It returns {promise, abort}:
// promise resolves to the response ({url, status, statusText, redirected,
// headers, body: string | ArrayBuffer}) or to {error: text}; abort()
// settles a pending call as aborted.
func (e *Runtime) fetchCall(c goja.FunctionCall) goja.Value {
	if !e.fetchEnabled() {
		e.throw("TypeError", errFetchDisabled)
	}
	if e.numCalls >= e.lim.MaxHostCalls {
		e.throw("RangeError", fmt.Sprintf("fetch: this run made its %d host calls, the limit", e.lim.MaxHostCalls))
	}
	o := c.Argument(0).ToObject(e.vm)
	str := func(k string) string { return o.Get(k).String() }
	req := pipe.FetchRequest{URL: str("url"), Method: str("method"), Redirect: str("redirect")}
	if hs, ok := o.Get("headers").(*goja.Object); ok {
		for _, k := range hs.Keys() {
			pair := hs.Get(k).ToObject(e.vm)
			req.Headers = append(req.Headers, [2]string{pair.Get("0").String(), pair.Get("1").String()})
		}
	}
	size := 0
	switch b := o.Get("body").(type) {
	case nil:
	case *goja.Object:
		if ab, ok := b.Export().(goja.ArrayBuffer); ok {
			s := base64.StdEncoding.EncodeToString(ab.Bytes())
			req.BodyBase64, size = &s, len(ab.Bytes())
		}
	default:
		if !goja.IsNull(b) && !goja.IsUndefined(b) {
			s := b.String()
			req.Body, size = &s, len(s)
		}
	}
	arg, err := json.Marshal(req)
	if err != nil {
		e.throw("TypeError", "fetch: "+err.Error())
	}
	if len(arg) > e.lim.MaxOutputBytes {
		// The request crosses the pipe in one line, which the pool caps
		// by the output limit.
		e.throw("RangeError", fmt.Sprintf("fetch: the request (a %d-byte body) is larger than the run's output limit (%d bytes)", size, e.lim.MaxOutputBytes))
	}
	summary, _ := json.Marshal(struct {
		Method string `json:"method"`
		URL    string `json:"url"`
	}{req.Method, req.URL})
	shown := []json.RawMessage{summary}

	e.numCalls++
	p, resolve, reject := e.vm.NewPromise()
	id := callIDs.Add(1)
	pc := &pendingCall{seq: int64(e.numCalls), name: pipe.FetchHost, args: shown, started: e.clock.now(), resolve: resolve, reject: reject, fetch: true}
	handle := e.vm.NewObject()
	must(handle.Set("promise", p))
	must(handle.Set("abort", func(goja.FunctionCall) goja.Value {
		if _, ok := e.calls[id]; ok {
			delete(e.calls, id)
			e.call(pipe.HostCall{ID: id, Name: pipe.FetchHost, Cancel: true}) // the server ends its request
			e.send(pipe.Event{Kind: pipe.EventCall, CallID: pc.seq, Name: pc.name, Duration: e.clock.now() - pc.started, CallError: "aborted", Args: shown})
			_ = resolve(e.vm.NewObject())
		}
		return goja.Undefined()
	}))
	if !e.send(pipe.Event{Kind: pipe.EventCall, CallID: pc.seq, Pending: true, Name: pc.name, Args: shown}) {
		return handle // the run is stopping (a limit): the call is never made
	}
	e.calls[id] = pc
	now := time.Now()
	if e.clock.virtual {
		now = e.clock.base.Add(e.clock.elapsed)
	}
	e.call(pipe.HostCall{ID: id, Name: pipe.FetchHost, Args: []json.RawMessage{arg}, Now: now})
	return handle
}

// settleFetch settles a fetch's call with the server's reply r: its event
// carries a summary of the response, its promise the response or
// {error}.
func (e *Runtime) settleFetch(pc *pendingCall, r pipe.HostReply, d time.Duration) {
	var res pipe.FetchResponse
	errText := r.Error
	if errText == "" {
		if err := json.Unmarshal(r.Result, &res); err != nil {
			errText = "the server's answer is not a fetch response"
		}
	}
	var body goja.Value = goja.Null()
	bytes := len(res.Body)
	if errText == "" && res.BodyBase64 != "" {
		b, err := base64.StdEncoding.DecodeString(res.BodyBase64)
		if err != nil {
			errText = "the server's answer is not a fetch response"
		}
		bytes = len(b)
		body = e.vm.ToValue(e.vm.NewArrayBuffer(b))
	} else if errText == "" {
		body = e.vm.ToValue(res.Body)
	}
	var result json.RawMessage
	if errText == "" {
		result, _ = json.Marshal(struct {
			Status     int    `json:"status"`
			StatusText string `json:"statusText"`
			URL        string `json:"url"`
			Redirected bool   `json:"redirected"`
			Bytes      int    `json:"bytes"`
		}{res.Status, res.StatusText, res.URL, res.Redirected, bytes})
	}
	e.send(pipe.Event{Kind: pipe.EventCall, CallID: pc.seq, Name: pc.name, Duration: d, OK: errText == "", CallError: errText, Args: pc.args, Result: result})
	out := e.vm.NewObject()
	if errText != "" {
		must(out.Set("error", errText))
		_ = pc.resolve(out)
		return
	}
	must(out.Set("url", res.URL))
	must(out.Set("status", res.Status))
	must(out.Set("statusText", res.StatusText))
	must(out.Set("redirected", res.Redirected))
	headers := make([]any, 0, len(res.Headers))
	for _, h := range res.Headers {
		headers = append(headers, e.vm.NewArray(strings.ToLower(h[0]), h[1]))
	}
	must(out.Set("headers", e.vm.NewArray(headers...)))
	must(out.Set("body", body))
	_ = pc.resolve(out)
}

// fetchBytes is the polyfill's I.fetchBytes(string): the string as UTF-8
// (a lone surrogate as U+FFFD, as TextEncoder writes it) in a new
// ArrayBuffer.
func (e *Runtime) fetchBytes(c goja.FunctionCall) goja.Value {
	s := strings.ToValidUTF8(c.Argument(0).String(), "\uFFFD")
	return e.vm.ToValue(e.vm.NewArrayBuffer([]byte(s)))
}

// fetchJSON is the polyfill's I.fetchJSON(text), Body.json's parse: the
// run's JSON parser (parseJSON), a SyntaxError for text that is not JSON.
func (e *Runtime) fetchJSON(c goja.FunctionCall) goja.Value {
	v, err := e.parseJSON([]byte(c.Argument(0).String()))
	if err != nil {
		panic(err)
	}
	return v
}

// fetchStringify is the polyfill's I.fetchStringify(value), Response.json's
// JSON.stringify (the global's, as the snippet sees it).
func (e *Runtime) fetchStringify(c goja.FunctionCall) goja.Value {
	stringify, ok := goja.AssertFunction(e.vm.Get("JSON").ToObject(e.vm).Get("stringify"))
	if !ok {
		e.throw("TypeError", "JSON.stringify is not a function")
	}
	v, err := stringify(goja.Undefined(), c.Argument(0))
	if err != nil {
		panic(err)
	}
	return v
}
