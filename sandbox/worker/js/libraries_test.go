package js_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLibraries(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.ts", `
import _ from "lodash";
import { chunk } from "lodash";
import { format, addDays } from "date-fns";
import { v4 as uuid, validate } from "uuid";
import Papa from "papaparse";
import { z } from "zod";
console.log(JSON.stringify(_.chunk([1, 2, 3], 2)), JSON.stringify(chunk([1, 2, 3], 2)), _.VERSION);
console.log(format(addDays(new Date(2024, 0, 30), 3), "yyyy-MM-dd"));
console.log(validate(uuid()));
console.log(JSON.stringify(Papa.parse("a,b\n1,2", { header: true }).data));
const User = z.object({ name: z.string(), age: z.number().int() });
console.log(User.safeParse({ name: "x", age: 1.5 }).success, User.parse({ name: "y", age: 2 }).name);
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.errors())
	}
	want := "[[1,2],[3]]|[[1,2],[3]]|4.18.1\n2024-02-02\ntrue\n[{\"a\":\"1\",\"b\":\"2\"}]\nfalse y"
	got := strings.ReplaceAll(strings.Join(rec.logs(), "\n"), " ", "|")
	want = strings.ReplaceAll(want, " ", "|")
	if got != want {
		t.Errorf("logs:\n%s\nwant:\n%s", got, want)
	}
}

func TestOperatorLibraries(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("greeter.js", "export const greet = (n) => `hi ${n}`;\nexport default { version: 3 };\n")
	write("@acme/tools.mjs", "export function twice(x) { return x * 2; }\n")
	p := newHarness(t, Config{LibraryDir: dir})
	res, rec := run(t, p, Request{Files: files("main.ts", `
import cfg, { greet } from "greeter";
import { twice } from "@acme/tools";
console.log(greet("op"), cfg.version, twice(21));
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.errors())
	}
	if got := rec.logs(); len(got) != 1 || got[0] != "hi op 3 42" {
		t.Errorf("logs = %q", got)
	}

}
