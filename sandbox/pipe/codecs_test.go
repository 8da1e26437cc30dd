package pipe

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	segjson "github.com/segmentio/encoding/json"
)

// The lines of BenchmarkCodecs: a log event (the worker's commonest line)
// and a job (the parent's), as in BenchmarkEncodeEvent and
// BenchmarkDecodeJob (docs/benchmarks.md, "Codecs: ours, segmentio,
// encoding/json").
var (
	benchEvent = Message{Event: &Event{Kind: EventLog, T: 12345, Level: "info", Text: "hello world",
		Args: []json.RawMessage{json.RawMessage(`"hello world"`)}}}
	benchJob = Command{Op: OpRun, Job: &Job{Files: []File{
		{Path: "src/main.ts", Source: "import { greet } from './greet';\nconsole.log(greet('world'));\n"},
		{Path: "src/greet.ts", Source: "export const greet = (n: string) => `hello ${n}`;\n"}},
		Entry: "src/main.ts", Timeout: time.Second, Limits: DefaultLimits()}}
)

// TestBenchmarkLinesAgree: on BenchmarkCodecs's lines our codecs give
// encoding/json's bytes and values, so the benchmark compares the same
// work; where segmentio differs is logged (it is not ours to hold: it
// writes a time.Duration as a string, "12.345µs", where encoding/json
// writes the integer the pipe's reader expects).
func TestBenchmarkLinesAgree(t *testing.T) {
	for _, v := range []any{benchEvent, benchJob} {
		want, werr := json.Marshal(v)
		got, ok := appendValue(nil, v)
		if werr != nil || !ok || !bytes.Equal(got, want) {
			t.Fatalf("%T: ours %s (%v); json.Marshal %s (%v)", v, got, ok, want, werr)
		}
		if seg, err := segjson.Marshal(v); err != nil || !bytes.Equal(seg, want) {
			t.Logf("%T: segmentio writes %s (%v)", v, seg, err)
		}
		switch v.(type) {
		case Message:
			var ours, std, seg Message
			if err := DecodeMessage(want, &ours); err != nil {
				t.Fatal(err)
			}
			_ = json.Unmarshal(want, &std)
			if diff := cmp.Diff(std, ours); diff != "" {
				t.Errorf("event (-encoding/json +ours):\n%s", diff)
			}
			if err := segjson.Unmarshal(want, &seg); err != nil || !cmp.Equal(std, seg) {
				t.Logf("segmentio decodes the event as %+v (%v)", seg.Event, err)
			}
		case Command:
			var ours, std, seg Command
			if err := DecodeCommand(want, &ours); err != nil {
				t.Fatal(err)
			}
			_ = json.Unmarshal(want, &std)
			if diff := cmp.Diff(std, ours); diff != "" {
				t.Errorf("job (-encoding/json +ours):\n%s", diff)
			}
			if err := segjson.Unmarshal(want, &seg); err != nil || !cmp.Equal(std, seg) {
				t.Logf("segmentio decodes the job as %+v (%v)", seg.Job, err)
			}
		}
	}
}

// BenchmarkCodecs compares the pipe's codecs with encoding/json and
// github.com/segmentio/encoding/json on the same lines:
//
//	go test -run '^$' -bench Codecs -benchmem -count 5 ./sandbox/pipe
//
// The encoders' "ours" and "segmentio-append" append to one reused buffer,
// as the pipe's Writer does (ours into its bufio.Writer's free space);
// the Marshal functions return fresh bytes. "segmentio-zerocopy" decodes with segmentio's ZeroCopy flag, which
// shares the line's memory as ours does for raw values.
func BenchmarkCodecs(b *testing.B) {
	for _, c := range []struct {
		name string
		v    any
	}{{"event", benchEvent}, {"job", benchJob}} {
		b.Run(c.name+"-encode/ours", func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 4096)
			for b.Loop() {
				buf, _ = appendValue(buf[:0], c.v)
			}
		})
		b.Run(c.name+"-encode/encoding-json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(c.v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"-encode/segmentio", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := segjson.Marshal(c.v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"-encode/segmentio-append", func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 4096)
			for b.Loop() {
				var err error
				if buf, err = segjson.Append(buf[:0], c.v, segjson.EscapeHTML|segjson.SortMapKeys); err != nil {
					b.Fatal(err)
				}
			}
		})
		line, _ := json.Marshal(c.v)
		decode := func(ours bool, unmarshal func([]byte, any) error) func(*testing.B) {
			return func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					var err error
					switch {
					case ours && c.name == "event":
						var m Message
						err = DecodeMessage(line, &m)
					case ours:
						var cmd Command
						err = DecodeCommand(line, &cmd)
					case c.name == "event":
						var m Message
						err = unmarshal(line, &m)
					default:
						var cmd Command
						err = unmarshal(line, &cmd)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
		}
		b.Run(c.name+"-decode/ours", decode(true, nil))
		b.Run(c.name+"-decode/encoding-json", decode(false, json.Unmarshal))
		b.Run(c.name+"-decode/segmentio", decode(false, segjson.Unmarshal))
		b.Run(c.name+"-decode/segmentio-zerocopy", decode(false, func(l []byte, v any) error {
			_, err := segjson.Parse(l, v, segjson.ZeroCopy)
			return err
		}))
	}
}
