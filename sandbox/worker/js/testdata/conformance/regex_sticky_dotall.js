const r = /a./sy; console.log(r.test("a\nb"), r.lastIndex, /a.b/s.test("a\nb"), /a.b/.test("a\nb"), r.flags);
