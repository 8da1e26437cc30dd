console.log(/\p{L}/u.test("é"), /^\p{Lu}+$/u.test("ABC"), /\p{L}/u.test("1"), "héllo wörld 42".match(/\p{L}+/gu).join("|"));
