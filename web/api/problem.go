package api

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"time"
)

// Problem is an RFC 9457 problem detail (application/problem+json), the
// body of every 4xx and 5xx answer of the HTTP API.
type Problem struct {
	// Type is a URI naming the kind of problem: urn:playground:problem: plus
	// invalid-request, body-too-large, batch-too-large, unsupported-media-type, method-not-allowed,
	// unauthorized, rate-limited, busy, not-found or internal.
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	// Field names the request field at fault for invalid-request, as a
	// JSON path ("files[1].path", "timeoutMs", "body").
	Field string `json:"field,omitempty"`
	// RetryAfterMs says when to retry for rate-limited and busy (the
	// Retry-After header holds the same, rounded up to whole seconds).
	RetryAfterMs *float64 `json:"retryAfterMs,omitempty"`
	// Outcome is the run outcome the problem stands for (invalid,
	// rate_limited, busy), when a run was refused.
	Outcome string `json:"outcome,omitempty"`
}

func writeProblem(w http.ResponseWriter, p Problem) {
	if p.Title == "" {
		p.Title = http.StatusText(p.Status)
	}
	if p.RetryAfterMs != nil {
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(*p.RetryAfterMs/1000)))))
	}
	if p.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="playground", error="invalid_token"`)
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(p.Status)
	b, _ := json.Marshal(p)
	w.Write(append(b, '\n'))
}

func invalid(field, detail string) Problem {
	return Problem{Type: "urn:playground:problem:invalid-request", Status: http.StatusBadRequest, Field: field, Detail: detail, Outcome: "invalid"}
}

func retryProblem(status int, typ, outcome, detail string, after time.Duration) Problem {
	ms := float64(after.Milliseconds())
	if ms <= 0 {
		ms = 1000
	}
	return Problem{Type: "urn:playground:problem:" + typ, Status: status, Detail: detail, RetryAfterMs: &ms, Outcome: outcome}
}
