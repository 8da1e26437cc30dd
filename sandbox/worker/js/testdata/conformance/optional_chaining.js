const o = { a: { b: null }, f: null };
console.log(o?.a?.b?.c, o.f?.(), o.x ?? "def", (o.n ||= 5), (o.a.b ??= 7), o.a.b);
