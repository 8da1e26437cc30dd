// Example snippets shown on the page. Each is a set of files and an entry,
// and optionally an input (JSON) that the page puts in its Input pane.
export const examples = [
  {
    name: "Counter (multi-file TypeScript)",
    entry: "src/main.ts",
    files: [
      {
        path: "src/main.ts",
        source: `import { facts } from "playground";
import { Counter } from "./counter.js";

const counter = new Counter("clicks");
facts.count = counter.value;
facts.history = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (let i = 1; i <= 5; i++) {
  await sleep(200);
  counter.increment();
  facts.count = counter.value;
  facts.history.push(counter.value);
  console.log(\`tick \${i}\`, { value: counter.value });
}

console.info("done counting", counter);
export default { final: counter.value };
`,
      },
      {
        path: "src/counter.ts",
        source: `export class Counter {
  value = 0;
  constructor(readonly name: string) {}

  increment(by = 1): number {
    this.value += by;
    return this.value;
  }
}
`,
      },
    ],
  },
  {
    name: "Timers and live facts",
    entry: "main.ts",
    files: [
      {
        path: "main.ts",
        source: `import { facts } from "playground";

// Facts update live while timers fire; nested changes are reported too.
facts.ticks = 0;
facts.log = [];

const started = performance.now();
await new Promise<void>((resolve) => {
  const id = setInterval(() => {
    facts.ticks++;
    facts.log.push(Math.round(performance.now() - started));
    if (facts.ticks === 5) {
      clearInterval(id);
      resolve();
    }
  }, 150);
});

queueMicrotask(() => console.log("microtasks run before the next timer"));
setTimeout(() => console.log("a last timeout, after", facts.ticks, "ticks"), 100);
`,
      },
    ],
  },
  {
    name: "Host calls (sleep, key/value store)",
    entry: "main.ts",
    files: [
      {
        path: "main.ts",
        source: `import { facts, host } from "playground";

// host.* functions run in the server and are traced as call events.
const visits = ((await host.kv.get("visits")) ?? 0) + 1;
await host.kv.set("visits", visits); // survives between runs of this tab
facts.visits = visits;

console.log("server time:", await host.time());
const slept = await host.sleep(250);
console.log(\`slept \${slept} ms; echo says\`, await host.echo({ hello: "world" }));

try {
  await host.kv.set("", 1);
} catch (e) {
  console.warn("host errors reject the promise:", String(e));
}
`,
      },
    ],
  },
  {
    name: "Host functions as globals (await sleep(…))",
    entry: "main.js",
    files: [
      {
        path: "main.js",
        source: `// This server also exposes some host functions as globals (-host-globals,
// by default echo and sleep), so code written for a page that registers
// functions runs as written. The Calls tab shows each call while in flight.
console.log("sleeping on the server…");
const ms = await sleep(500);
console.log(\`slept \${ms} ms\`);
console.log(await echo({ hello: "world", at: new Date(0) }));

// Arguments cross as JSON: a function (or a symbol, BigInt, cycle, Map…) is refused.
try {
  await echo(() => "a function");
} catch (e) {
  console.warn(String(e));
}
`,
      },
    ],
  },
  {
    name: "Agent script (input, require, output)",
    entry: "main.js",
    // The Input pane gets this JSON; the script reads it as the global input.
    input: { values: [10, 20, 30, 40, 50], label: "scores" },
    files: [
      {
        path: "main.js",
        source: `// A script as agent code-execution services run it: no import/export,
// so it runs in script mode. \`input\` is the run's Input (a mutable copy),
// require() loads the allowed libraries, and the final value of \`output\`
// (or a top-level return) is the run's output.
const _ = require("lodash");

const { values, label } = input;
const sum = _.sum(values);
console.log(\`\${label}: \${values.length} values\`);

if (values.length === 0) return { error: "no values" };

output = {
  sum,
  average: sum / values.length,
  spread: _.max(values) - _.min(values),
  buckets: _.countBy(values, (v) => (v >= 30 ? "high" : "low")),
};
`,
      },
    ],
  },
  {
    name: "Statistics with mathjs",
    entry: "main.ts",
    files: [
      {
        path: "main.ts",
        source: `import { mean, median, std, variance, min, max } from "mathjs";

const data = [2, 4, 4, 4, 5, 5, 7, 9];

console.log("mean", mean(data));
console.log("median", median(data));
console.log("std (sample)", std(data));
console.log("variance (sample)", variance(data));
console.log("range", min(data), "…", max(data));

export default { mean: mean(data), median: median(data), std: std(data) };
`,
      },
    ],
  },
  {
    name: "Libraries (lodash, date-fns, zod)",
    entry: "main.ts",
    files: [
      {
        path: "main.ts",
        source: `import _ from "lodash";
import { addDays, format } from "date-fns";
import { z } from "zod";
import { v4 as uuid } from "uuid";

console.log(_.chunk(["a", "b", "c", "d", "e"], 2));
console.log(format(addDays(new Date(2024, 1, 27), 3), "EEEE d MMMM yyyy"));

const User = z.object({ name: z.string().min(1), age: z.number().int().positive() });
const result = User.safeParse({ name: "", age: 4.5 });
console.log(result.success ? "valid" : result.error.issues.map((i) => i.message));
console.log("id", uuid());
`,
      },
    ],
  },
  {
    name: "An error in another file",
    entry: "src/main.ts",
    files: [
      {
        path: "src/main.ts",
        source: `import { parse } from "./parse";

console.log("parsing…");
const n = parse("forty-two");
console.log("never printed", n);
`,
      },
      {
        path: "src/parse.ts",
        source: `export function parse(text: string): number {
  const n = Number(text);
  if (Number.isNaN(n)) {
    throw new RangeError(\`not a number: \${text}\`);
  }
  return n;
}
`,
      },
    ],
  },
  {
    name: "A timeout (infinite loop)",
    entry: "main.ts",
    files: [
      {
        path: "main.ts",
        source: `console.log("about to spin forever; the run's time limit stops it");
let i = 0;
while (true) {
  i++;
}
`,
      },
    ],
  },
];
