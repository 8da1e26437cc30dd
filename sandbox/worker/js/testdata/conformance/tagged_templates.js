const tag = (s, ...v) => s.raw.join("|") + ":" + v.join(",");
console.log(tag`a${1}b\n${2}`, String.raw`x\ty`, `multi
line`.split("\n").length);
