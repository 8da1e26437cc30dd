package sandbox

import (
	"strings"
	"testing"
)

func TestLibraries(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1})
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
