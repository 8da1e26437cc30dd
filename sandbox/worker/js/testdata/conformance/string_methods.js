console.log("abc".at(-1), "a-b-c".replaceAll("-", "+"), "5".padStart(3, "0"), [..."a1b2".matchAll(/\d/g)].map((m) => m[0]).join(""), "  x ".trimEnd() + "|");
