console.log(new URL("../d?q", "https://example.com/a/b/c").href);
console.log(new URL("//other.org/x", "https://example.com").href);
try { new URL("not a url"); } catch (e) { console.log(e.name, e.code); }
