// Example snippets shown on the page. Each is a set of files and an entry.
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
