// Package tracingtest is an in-process OTLP/HTTP trace receiver for tests:
// a server on a loopback port that decodes what an exporter POSTs to
// /v1/traces (protobuf ExportTraceServiceRequest, plain or gzip, as
// https://opentelemetry.io/docs/specs/otlp/#otlphttp-request says) and keeps
// the spans for the test to read. No collector, no Docker.
package tracingtest

import (
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// Span is one received span, flattened for assertions: ids in lowercase
// hex ("" for no parent), attribute values as fmt prints them.
type Span struct {
	Name         string
	TraceID      string
	SpanID       string
	ParentSpanID string
	Kind         string // "SPAN_KIND_SERVER"…
	Start, End   time.Time
	Attributes   map[string]string
	StatusCode   string // "STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"
	Resource     map[string]string
	Scope        string
}

// Receiver is an OTLP/HTTP trace receiver on 127.0.0.1. Its methods are
// safe for concurrent use.
type Receiver struct {
	srv *httptest.Server

	countOnly bool // StartCounter: count the spans, keep nothing

	mu       sync.Mutex
	spans    []Span
	counted  int      // spans received (both kinds)
	requests int      // export requests answered
	bodies   [][]byte // every request body, decompressed
	wake     chan struct{}
}

// Start starts a Receiver on a free loopback port; it stops when the test
// ends.
func Start(t testing.TB) *Receiver { return start(t, false) }

// StartCounter starts a Receiver that only counts the spans of each
// request, walking the protobuf's wire format without decoding a span (a
// benchmark's receiver, whose own CPU should not weigh on the exporter's
// process): Count is set, Spans stays empty and no body is kept.
func StartCounter(t testing.TB) *Receiver { return start(t, true) }

func start(t testing.TB, countOnly bool) *Receiver {
	t.Helper()
	r := &Receiver{wake: make(chan struct{}), countOnly: countOnly}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

// URL is the receiver's base URL (http://127.0.0.1:PORT), what
// -otlp-endpoint takes; the exporter appends /v1/traces.
func (r *Receiver) URL() string { return r.srv.URL }

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost || req.URL.Path != "/v1/traces" {
		http.Error(w, "want POST /v1/traces", http.StatusNotFound)
		return
	}
	if ct := req.Header.Get("Content-Type"); ct != "application/x-protobuf" {
		http.Error(w, "want Content-Type application/x-protobuf, got "+ct, http.StatusUnsupportedMediaType)
		return
	}
	var body io.Reader = req.Body
	if req.Header.Get("Content-Encoding") == "gzip" {
		z, err := gzip.NewReader(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = z
	}
	b, err := io.ReadAll(io.LimitReader(body, 64<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if r.countOnly {
		n, err := countSpans(b)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		r.counted += n
		r.mu.Unlock()
		r.answer(w)
		return
	}
	var m coltracepb.ExportTraceServiceRequest
	if err := proto.Unmarshal(b, &m); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var got []Span
	for _, rs := range m.GetResourceSpans() {
		res := attrs(rs.GetResource().GetAttributes())
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				got = append(got, Span{
					Name: s.GetName(), TraceID: hex.EncodeToString(s.GetTraceId()), SpanID: hex.EncodeToString(s.GetSpanId()),
					ParentSpanID: hex.EncodeToString(s.GetParentSpanId()), Kind: s.GetKind().String(),
					Start: time.Unix(0, int64(s.GetStartTimeUnixNano())), End: time.Unix(0, int64(s.GetEndTimeUnixNano())),
					Attributes: attrs(s.GetAttributes()), StatusCode: s.GetStatus().GetCode().String(),
					Resource: res, Scope: ss.GetScope().GetName(),
				})
			}
		}
	}
	r.mu.Lock()
	r.spans = append(r.spans, got...)
	r.counted += len(got)
	r.bodies = append(r.bodies, b)
	r.mu.Unlock()
	r.answer(w)
}

// answer wakes Wait and sends the empty ExportTraceServiceResponse: every
// span accepted.
func (r *Receiver) answer(w http.ResponseWriter) {
	r.mu.Lock()
	r.requests++
	close(r.wake)
	r.wake = make(chan struct{})
	r.mu.Unlock()
	resp, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(resp)
}

// countSpans counts the spans of an ExportTraceServiceRequest:
// resource_spans (1) → scope_spans (2) → spans (2), per
// opentelemetry-proto's collector/trace/v1 and trace/v1.
func countSpans(b []byte) (int, error) {
	n := 0
	err := eachField(b, 1, func(rs []byte) error {
		return eachField(rs, 2, func(ss []byte) error {
			return eachField(ss, 2, func([]byte) error { n++; return nil })
		})
	})
	return n, err
}

// eachField calls fn with the bytes of each length-delimited field num of
// message b, skipping the others.
func eachField(b []byte, num protowire.Number, fn func([]byte) error) error {
	for len(b) > 0 {
		n, typ, l := protowire.ConsumeTag(b)
		if l < 0 {
			return protowire.ParseError(l)
		}
		b = b[l:]
		if n == num && typ == protowire.BytesType {
			v, l := protowire.ConsumeBytes(b)
			if l < 0 {
				return protowire.ParseError(l)
			}
			if err := fn(v); err != nil {
				return err
			}
			b = b[l:]
			continue
		}
		l = protowire.ConsumeFieldValue(n, typ, b)
		if l < 0 {
			return protowire.ParseError(l)
		}
		b = b[l:]
	}
	return nil
}

func attrs(kvs []*commonpb.KeyValue) map[string]string {
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		v := kv.GetValue()
		switch v.GetValue().(type) {
		case *commonpb.AnyValue_StringValue:
			m[kv.GetKey()] = v.GetStringValue()
		case *commonpb.AnyValue_IntValue:
			m[kv.GetKey()] = fmt.Sprint(v.GetIntValue())
		case *commonpb.AnyValue_BoolValue:
			m[kv.GetKey()] = fmt.Sprint(v.GetBoolValue())
		case *commonpb.AnyValue_DoubleValue:
			m[kv.GetKey()] = fmt.Sprint(v.GetDoubleValue())
		default:
			m[kv.GetKey()] = v.String()
		}
	}
	return m
}

// Spans returns a copy of every span received so far, in arrival order.
func (r *Receiver) Spans() []Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.spans)
}

// Count returns how many spans arrived (with either kind of Receiver).
func (r *Receiver) Count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.counted
}

// Requests returns how many export requests arrived.
func (r *Receiver) Requests() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests
}

// Contains reports whether any request's (decompressed) body holds b:
// a test's check that a value never left the process.
func (r *Receiver) Contains(b []byte) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, body := range r.bodies {
		if bytes.Contains(body, b) {
			return true
		}
	}
	return false
}

// Wait returns the spans received once ok reports true of them, or
// fails the test after timeout (give a generous one: an exporter batches
// for up to 5 s). It wakes on each request, never polls.
func (r *Receiver) Wait(t testing.TB, timeout time.Duration, ok func([]Span) bool) []Span {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		r.mu.Lock()
		spans, wake := slices.Clone(r.spans), r.wake
		r.mu.Unlock()
		if ok(spans) {
			return spans
		}
		select {
		case <-wake:
		case <-deadline.C:
			t.Fatalf("tracingtest: after %v the receiver holds %d spans, not those the test waits for: %v", timeout, len(spans), names(spans))
			return nil
		}
	}
}

// WaitCount waits, as Wait does, until Count is at least n.
func (r *Receiver) WaitCount(t testing.TB, timeout time.Duration, n int) {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		r.mu.Lock()
		got, wake := r.counted, r.wake
		r.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-wake:
		case <-deadline.C:
			t.Fatalf("tracingtest: after %v the receiver counted %d spans; want %d", timeout, got, n)
			return
		}
	}
}

func names(spans []Span) []string {
	n := make([]string, len(spans))
	for i, s := range spans {
		n[i] = s.Name
	}
	return n
}
