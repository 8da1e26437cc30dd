package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestDataSizedRunsOverHTTP: at the defaults, the HTTP API takes a run
// with a 5 MB input and gives back a 5 MB output, as the isolated-vm pool
// does; /api/v1/info announces the input cap, a socket's hello announces
// its own tighter output cap, and an input over the cap is refused by
// name.
func TestDataSizedRunsOverHTTP(t *testing.T) {
	addr := server(t, "-max-timeout", "60s")
	var rows strings.Builder
	rows.WriteString(`[`)
	n := 0
	for rows.Len() < 5<<20 {
		if n > 0 {
			rows.WriteByte(',')
		}
		fmt.Fprintf(&rows, `{"id":%d,"name":"item-%d","v":%d.5}`, n, n, n)
		n++
	}
	rows.WriteString(`]`)
	body := `{"mode":"script","timeoutMs":60000,"code":"output = { n: input.rows.length, rows: input.rows };","input":{"rows":` + rows.String() + `}}`
	resp, err := http.Post("http://"+addr+"/api/v1/run", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var done struct {
		Outcome string
		Output  struct {
			N    int
			Rows []struct{ ID int }
		}
	}
	if err := json.Unmarshal(b, &done); err != nil || resp.StatusCode != 200 || done.Outcome != "ok" {
		t.Fatalf("POST a %d-byte input: %d %s (%v)", rows.Len(), resp.StatusCode, b[:min(len(b), 300)], err)
	}
	if done.Output.N != n || len(done.Output.Rows) != n || done.Output.Rows[n-1].ID != n-1 {
		t.Errorf("output holds %d of %d rows (n %d)", len(done.Output.Rows), n, done.Output.N)
	}
	if len(b) < 5<<20 {
		t.Errorf("answer %d bytes; want the 5 MB output in it", len(b))
	}

	resp, err = http.Get("http://" + addr + "/api/v1/info")
	if err != nil {
		t.Fatal(err)
	}
	var info struct{ Limits map[string]float64 }
	_ = json.NewDecoder(resp.Body).Decode(&info)
	resp.Body.Close()
	if info.Limits["maxInputBytes"] != 8<<20 || info.Limits["maxOutputBytes"] != 8<<20 {
		t.Errorf("/api/v1/info limits: maxInputBytes %v, maxOutputBytes %v; want 8 MiB each", info.Limits["maxInputBytes"], info.Limits["maxOutputBytes"])
	}
	c := dial(t, addr)
	if lim, _ := c.hello["limits"].(map[string]any); lim["maxOutputBytes"] != float64(1<<20) || lim["maxInputBytes"] != nil {
		t.Errorf("hello.limits: maxOutputBytes %v, maxInputBytes %v; want 1 MiB and none", lim["maxOutputBytes"], lim["maxInputBytes"])
	}
	// The socket's cap binds a socket's run: 2 MiB of output is over it
	// there, and within the HTTP API's.
	big2 := "export default 'x'.repeat(2 << 20);"
	c.send(runMsg("big", "main.ts", big2))
	if ms := c.until("big"); ms[len(ms)-1].str("outcome") != "output_limit" {
		t.Errorf("a socket run with 2 MiB of output: %v; want output_limit at the socket's 1 MiB", ms[len(ms)-1])
	}
	resp, err = http.Post("http://"+addr+"/api/v1/run", "application/json", strings.NewReader(`{"code":"export default 'x'.repeat(2 << 20);"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"outcome":"ok"`) || len(b) < 2<<20 {
		t.Errorf("the same run over HTTP: %d, %d bytes; want ok with its 2 MiB output", resp.StatusCode, len(b))
	}

	big := `{"code":"output = 1","mode":"script","input":"` + strings.Repeat("x", 9<<20) + `"}`
	resp, err = http.Post("http://"+addr+"/api/v1/run", "application/json", strings.NewReader(big))
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), `"field":"input"`) || !strings.Contains(string(b), "maxInputBytes=8388608") {
		t.Errorf("a 9 MiB input: %d %s; want 400 naming the input and maxInputBytes", resp.StatusCode, b)
	}
}
