package main

import (
	"fmt"
	"io"
	"strings"
)

// ms formats a p50 in milliseconds.
func ms(v float64) string {
	switch {
	case v < 1:
		return fmt.Sprintf("%.2f", v)
	case v < 100:
		return fmt.Sprintf("%.1f", v)
	default:
		s := fmt.Sprintf("%.0f", v)
		if len(s) > 3 {
			s = s[:len(s)-3] + "," + s[len(s)-3:]
		}
		return s
	}
}

// cell is a result as the table shows it: its p50, or its outcome.
func cell(r result) string {
	if r.Outcome == "" {
		return "–"
	}
	if !r.ok() {
		return "**" + r.Outcome + "**"
	}
	return ms(p50(r.Ms))
}

// goal is the bound for the row: data, ≤ 3 × node --jitless + 2
// ms; interpretation, ≤ 1.1 × bare goja + 2 ms. ok is false when the
// reference itself did not finish.
func goal(rw row) (bound float64, ok bool) {
	switch rw.Kind {
	case "data":
		if j := rw.Results["jitless"]; j.ok() {
			return 3*p50(j.Ms) + 2, true
		}
	case "interpretation":
		if b := rw.Results["bare"]; b.ok() {
			return 1.1*p50(b.Ms) + 2, true
		}
	}
	return 0, false
}

// verdict is pass or FAIL for the row: both of our ways within the goal.
// The goals bind at n ≥ 1e4; at smaller n the verdict is in parentheses.
func verdict(rw row) string {
	bound, ok := goal(rw)
	if !ok {
		return "?"
	}
	pass := true
	for _, way := range []string{"http", "ws"} {
		r, ran := rw.Results[way]
		if ran && (!r.ok() || p50(r.Ms) > bound) {
			pass = false
		}
	}
	v := map[bool]string{true: "pass", false: "FAIL"}[pass]
	if rw.N < 10000 {
		v = "(" + strings.ToLower(v) + ")"
	}
	return v
}

func ratio(a, b result) string {
	if !a.ok() || !b.ok() || p50(b.Ms) == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f×", p50(a.Ms)/p50(b.Ms))
}

func writeTable(out io.Writer, rows []row, o options) {
	fmt.Fprintln(out, "| workload | kind | n | node | node --jitless | ours HTTP | ours WS | HTTP bundle / run / other | bare goja | ours/jitless | ours/bare | goal (ms) | verdict | ×10 n costs | same output |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	prev := map[string]result{}
	for _, rw := range rows {
		h := rw.Results["http"]
		split := "–"
		if h.ok() {
			split = ms(p50(h.BundleMs)) + " / " + ms(p50(h.RunMs)) + " / " + ms(p50(h.OtherMs))
		}
		g := "–"
		if bound, ok := goal(rw); ok {
			g = "≤ " + ms(bound)
		}
		growth := "–"
		if p, ok := prev[rw.Workload]; ok && h.ok() && p.ok() {
			growth = ratio(h, p)
		}
		prev[rw.Workload] = h
		fmt.Fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			rw.Workload, rw.Kind[:4], sci(rw.N), cell(rw.Results["node"]), cell(rw.Results["jitless"]),
			cell(h), cell(rw.Results["ws"]), split, cell(rw.Results["bare"]),
			ratio(h, rw.Results["jitless"]), ratio(h, rw.Results["bare"]), g, verdict(rw), growth, orDash(rw.Agree))
	}
	fmt.Fprintf(out, "\nms, p50 of %d after a warm-up; timeoutMs %d.\n", o.reps, o.timeout.Milliseconds())
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// sci writes 1000 as 1e3.
func sci(n int) string {
	e := 0
	m := n
	for m >= 10 && m%10 == 0 {
		m /= 10
		e++
	}
	if m == 1 && e > 0 {
		return fmt.Sprintf("1e%d", e)
	}
	return fmt.Sprint(n)
}
