package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// harnessPath is harness.js written out once per process.
var harnessPath string

func harness() (string, error) {
	if harnessPath != "" {
		return harnessPath, nil
	}
	b, err := files.ReadFile("harness.js")
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "realwork-")
	if err != nil {
		return "", err
	}
	harnessPath = filepath.Join(dir, "harness.js")
	return harnessPath, os.WriteFile(harnessPath, b, 0o644)
}

// nodeJob is harness.js's job file.
type nodeJob struct {
	Code      string `json:"code,omitempty"`
	InputFile string `json:"inputFile,omitempty"`
	Reps      int    `json:"reps"`
	Libs      string `json:"libs"`
	Lib       string `json:"lib,omitempty"`
	Touch     string `json:"touch,omitempty"`
}

// runNode runs a job in a fresh node process (flags: nil or --jitless):
// one warm-up and o.reps timed runs of the workload, in one process.
func runNode(ctx context.Context, o options, flags []string, w workload, input []byte) result {
	p, err := harness()
	if err != nil {
		return result{Outcome: "error", Detail: err.Error()}
	}
	in := filepath.Join(filepath.Dir(p), "input.json")
	if err := os.WriteFile(in, input, 0o644); err != nil {
		return result{Outcome: "error", Detail: err.Error()}
	}
	return nodeExec(ctx, o, flags, nodeJob{Code: w.code, InputFile: in, Reps: o.reps},
		time.Duration(o.reps+1)*o.timeout+10*time.Second)
}

func nodeExec(ctx context.Context, o options, flags []string, job nodeJob, limit time.Duration) result {
	p, err := harness()
	if err != nil {
		return result{Outcome: "error", Detail: err.Error()}
	}
	job.Libs = filepath.Join(o.libs, "node_modules")
	jb, _ := json.Marshal(job)
	jf := filepath.Join(filepath.Dir(p), "job.json")
	if err := os.WriteFile(jf, jb, 0o644); err != nil {
		return result{Outcome: "error", Detail: err.Error()}
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, o.node, append(append([]string{}, flags...), p, jf)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		return result{Outcome: "timeout"}
	}
	if err != nil {
		msg := stderr.String()
		if strings.Contains(msg, "heap out of memory") {
			return result{Outcome: "memory_limit"}
		}
		return result{Outcome: "error", Detail: trim(err.Error() + ": " + msg)}
	}
	var r struct {
		Ms     []float64       `json:"ms"`
		Output json.RawMessage `json:"output"`
		Facts  json.RawMessage `json:"facts"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return result{Outcome: "error", Detail: trim(errors.Join(err, errors.New(stdout.String())).Error())}
	}
	return result{Outcome: "ok", Ms: r.Ms, Output: r.Output, Facts: r.Facts}
}
