const u = new URL("https://x.dev/p?a=1");
u.searchParams.append("b", "2 3");
u.hash = "h";
console.log(u.href, u.searchParams.get("a"));
