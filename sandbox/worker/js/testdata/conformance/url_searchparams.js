const p = new URLSearchParams("a=1&b=2&a=3");
p.append("c", "x y"); p.set("b", "é");
console.log(p.getAll("a").join("|"), p.get("b"), p.has("c"), p.toString());
p.sort(); p.delete("a");
console.log([...p.keys()].join(","), [...p].length, String(new URLSearchParams({ k: "v&w" })));
