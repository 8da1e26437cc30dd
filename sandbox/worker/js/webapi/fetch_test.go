package webapi_test

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/js/jstest"
)

// fakeServer answers the fetch host call as the server would (package
// egress), from a handler per URL, recording each request it received.
type fakeServer struct {
	mu   sync.Mutex
	seen []map[string]any
}

func (f *fakeServer) fetch(args []json.RawMessage) (json.RawMessage, error) {
	var req map[string]any
	if len(args) != 1 || json.Unmarshal(args[0], &req) != nil {
		return nil, errors.New("bad request")
	}
	f.mu.Lock()
	f.seen = append(f.seen, req)
	f.mu.Unlock()
	switch url := req["url"].(string); {
	case strings.HasSuffix(url, "/json"):
		return json.RawMessage(`{"url":"` + url + `","status":200,"statusText":"OK","redirected":false,"headers":[["content-type","application/json"],["x-b","2"]],"body":"{\"a\":1}"}`), nil
	case strings.HasSuffix(url, "/echo"):
		b, _ := json.Marshal(map[string]any{"url": url, "status": 201, "statusText": "Created", "redirected": true,
			"headers": [][2]string{{"content-type", "application/json"}}, "body": string(args[0])})
		return b, nil
	case strings.HasSuffix(url, "/binary"):
		return json.RawMessage(`{"url":"` + url + `","status":200,"statusText":"OK","redirected":false,"headers":[],"bodyBase64":"AP/+AQ=="}`), nil
	case strings.HasSuffix(url, "/404"):
		return json.RawMessage(`{"url":"` + url + `","status":404,"statusText":"Not Found","redirected":false,"headers":[],"body":"nope"}`), nil
	default:
		return nil, errors.New(url + ": the fetch policy allows no request to it")
	}
}

func fetchHarness(t *testing.T) (*jstest.Harness, *fakeServer) {
	f := &fakeServer{}
	return jstest.New(t, jstest.Config{Host: map[string]jstest.HostFunc{pipe.FetchHost: f.fetch}}), f
}

func TestFetchDisabledWithoutPolicy(t *testing.T) {
	runHostile(t, []hostileCase{{"rejects with a TypeError naming the policy", `
console.log(typeof fetch, typeof Headers, typeof Request, typeof Response);
try { await fetch("https://api.example.org/"); console.log("resolved") } catch (e) { console.log(e.name, e.message) }`, []string{
		"function function function function",
		"TypeError fetch is disabled: the server has no fetch policy (-fetch-policy)"}, ""}})
}

func TestFetch(t *testing.T) {
	h, srv := fetchHarness(t)
	logs := h.RunOK(t, jstest.Request{Files: jstest.Files("main.js", `
const res = await fetch("https://api.example.org/json", { headers: { "X-A": "1" } });
console.log(res.status, res.ok, res.statusText, res.url, res.redirected, res.type, res.bodyUsed);
console.log([...res.headers].join(" | "), res.headers.get("Content-Type"), res.headers.get("missing"));
console.log(JSON.stringify(await res.json()), res.bodyUsed);
try { await res.text() } catch (e) { console.log(e.name, e.message) }
try { res.headers.set("x", "y") } catch (e) { console.log(e.name, e.message) }

const post = await fetch(new Request("https://api.example.org/echo", { method: "post", body: "héllo", redirect: "manual" }));
const sent = await post.json();
console.log(post.status, post.redirected, sent.method, sent.body, sent.redirect, JSON.stringify(sent.headers));

const bin = await fetch("https://api.example.org/binary");
console.log(new Uint8Array(await bin.clone().arrayBuffer()).join(","), (await bin.bytes()).length);
const bytes = await fetch("https://api.example.org/echo", { method: "PUT", body: new Uint8Array([0, 255]) });
console.log((await bytes.json()).bodyBase64);
const form = await fetch("https://api.example.org/echo", { method: "POST", body: new URLSearchParams({ q: "a b" }) });
const f = await form.json();
console.log(f.body, JSON.stringify(f.headers));

const missing = await fetch("https://api.example.org/404");
console.log(missing.status, missing.ok, await missing.text());
try { await fetch("https://elsewhere.example/") } catch (e) { console.log(e.name, e.message, e.cause.message) }
`)})
	want := []string{
		"200 true OK https://api.example.org/json false basic false",
		"content-type,application/json | x-b,2 application/json null",
		`{"a":1} true`,
		"TypeError Body is unusable: Body has already been read",
		"TypeError immutable",
		`201 true POST héllo manual [["content-type","text/plain;charset=UTF-8"]]`,
		"0,255,254,1 4",
		"AP8=",
		`q=a+b [["content-type","application/x-www-form-urlencoded;charset=UTF-8"]]`,
		"404 false nope",
		"TypeError fetch failed: https://elsewhere.example/: the fetch policy allows no request to it https://elsewhere.example/: the fetch policy allows no request to it",
	}
	if strings.Join(logs, "\n") != strings.Join(want, "\n") {
		t.Errorf("logs:\n%s\nwant:\n%s", strings.Join(logs, "\n"), strings.Join(want, "\n"))
	}
	if len(srv.seen) != 7 || srv.seen[0]["method"] != "GET" {
		t.Fatalf("the server saw %d requests (%v); want 7", len(srv.seen), srv.seen)
	}
	if h := srv.seen[0]["headers"]; h == nil || h.([]any)[0].([]any)[0] != "x-a" {
		t.Errorf("the first request's headers = %v; want the snippet's x-a", h)
	}
}

// TestFetchCallEvents: a fetch shows in the Calls panel as its method and
// URL, then its status: never its headers or body.
func TestFetchCallEvents(t *testing.T) {
	h, _ := fetchHarness(t)
	res, rec := h.Run(t, jstest.Request{Files: jstest.Files("main.js", `
await fetch("https://api.example.org/echo", { method: "POST", headers: { authorization: "mine" }, body: "secret body" });`)})
	if res.Outcome != pipe.OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	var calls []pipe.Event
	for _, ev := range rec.Events() {
		if ev.Kind == pipe.EventCall {
			calls = append(calls, ev)
		}
	}
	if len(calls) != 2 {
		t.Fatalf("call events = %+v; want pending and settled", calls)
	}
	for _, ev := range calls {
		b, _ := json.Marshal(ev)
		if strings.Contains(string(b), "secret body") || strings.Contains(string(b), "mine") {
			t.Errorf("call event %s holds the request's body or headers", b)
		}
		if ev.Name != "fetch" || len(ev.Args) != 1 || string(ev.Args[0]) != `{"method":"POST","url":"https://api.example.org/echo"}` {
			t.Errorf("call event %s; want fetch with {method, url}", b)
		}
	}
	if !calls[1].OK || !strings.Contains(string(calls[1].Result), `"status":201`) || !strings.Contains(string(calls[1].Result), `"bytes":`) {
		t.Errorf("settled event result = %s; want the status and size", calls[1].Result)
	}
}

func TestFetchAbort(t *testing.T) {
	h, _ := fetchHarness(t)
	logs := h.RunOK(t, jstest.Request{Files: jstest.Files("main.js", `
const c = new AbortController();
const p = fetch("https://api.example.org/json", { signal: c.signal });
c.abort();
try { await p; console.log("resolved") } catch (e) { console.log(e.name, e.message, e instanceof DOMException) }
try { await fetch("https://api.example.org/json", { signal: AbortSignal.abort("why") }) } catch (e) { console.log(e) }
const ok = await fetch("https://api.example.org/json", { signal: new AbortController().signal });
console.log(ok.status);`)})
	want := []string{"AbortError This operation was aborted true", "why", "200"}
	if strings.Join(logs, "\n") != strings.Join(want, "\n") {
		t.Errorf("logs:\n%s\nwant:\n%s", strings.Join(logs, "\n"), strings.Join(want, "\n"))
	}
}

func TestFetchClassesHostile(t *testing.T) {
	runHostile(t, []hostileCase{{"WHATWG semantics and errors", `
const h = new Headers([["B", "2"], ["a", " 1 "]]);
h.append("b", "3");
console.log([...h.keys()].join(), h.get("B"), h.get("a"), h.has("A"));
try { new Headers({ "bad name": "x" }) } catch (e) { console.log(e.name, e.message) }
try { h.set("x", "a\r\nb") } catch (e) { console.log(e.name, e.message) }
try { new Request("/relative") } catch (e) { console.log(e.name, e.message) }
try { new Request("https://u:p@example.org/") } catch (e) { console.log(e.name, e.message) }
try { new Request("https://example.org/", { method: "GET", body: "x" }) } catch (e) { console.log(e.name, e.message) }
try { new Request("https://example.org/", { method: "CONNECT" }) } catch (e) { console.log(e.name, e.message) }
try { new Request("https://example.org/", { redirect: "nope" }) } catch (e) { console.log(e.name, e.message) }
try { new Response("x", { status: 99 }) } catch (e) { console.log(e.name, e.message) }
try { new Response("x", { status: 204 }) } catch (e) { console.log(e.name, e.message) }
const r = Response.json({ a: [1] }, { status: 202 });
console.log(r.status, r.headers.get("content-type"), await r.text());
const red = Response.redirect("https://example.org/x", 301);
console.log(red.status, red.headers.get("location"), Response.error().type, Response.error().status);
const req = new Request("https://example.org/a?b#c", { method: "patch", body: "1" });
console.log(req.method, req.url, req.redirect, req.signal.aborted, await req.clone().text(), await req.text());
console.log(Object.prototype.toString.call(h), Object.prototype.toString.call(req), Object.prototype.toString.call(r));
try { await fetch() } catch (e) { console.log(e.name, e.message) }
try { await fetch("not a url") } catch (e) { console.log(e.name, e.message) }
try { await new Response("{").json() } catch (e) { console.log(e.name) }
console.log(await new Response(new Uint8Array([104, 105])).text(), new Uint8Array(await new Response("hé").arrayBuffer()).join());`, []string{
		"a,b 2, 3 1 true",
		`TypeError Headers.append: "bad name" is an invalid header name.`,
		`TypeError Headers.set: "a` + "\r\n" + `b" is an invalid header value.`,
		"TypeError Failed to parse URL from /relative",
		"TypeError Request cannot be constructed from a URL that includes credentials: https://u:p@example.org/",
		"TypeError Request with GET/HEAD method cannot have body.",
		"TypeError 'CONNECT' HTTP method is unsupported.",
		"TypeError Request constructor: 'nope' is not a valid redirect mode (follow, error or manual)",
		`RangeError init["status"] must be in the range of 200 to 599, inclusive.`,
		"TypeError Response constructor: Invalid response status code 204",
		`202 application/json {"a":[1]}`,
		"301 https://example.org/x error 0",
		"patch https://example.org/a?b#c follow false 1 1",
		"[object Headers] [object Request] [object Response]",
		"TypeError fetch: 1 argument required",
		"TypeError Failed to parse URL from not a url",
		"SyntaxError",
		"hi 104,195,169",
	}, ""}})
}

// TestFetchInspect: console.log shows a Response and a Request by their
// fields, as Node's (undici's) inspect does.
func TestFetchInspect(t *testing.T) {
	h, _ := fetchHarness(t)
	logs := h.RunOK(t, jstest.Request{Files: jstest.Files("main.js", `
console.log(await fetch("https://api.example.org/json"));
console.log(new Request("https://a.example/", { method: "POST" }));`)})
	want := []string{
		"Response {\n  status: 200,\n  statusText: 'OK',\n  headers: Headers {},\n  body: null,\n  bodyUsed: false,\n  ok: true,\n  redirected: false,\n  type: 'basic',\n  url: 'https://api.example.org/json'\n}",
		"Request {\n  method: 'POST',\n  url: 'https://a.example/',\n  headers: Headers {},\n  redirect: 'follow',\n  signal: AbortSignal { aborted: false }\n}",
	}
	if strings.Join(logs, "\n") != strings.Join(want, "\n") {
		t.Errorf("logs:\n%s\nwant:\n%s", strings.Join(logs, "\n"), strings.Join(want, "\n"))
	}
}
