console.log(/\p{N}/u.test("٣"), "a1b٢".match(/\p{Nd}/gu).length, /^[\p{L}\p{N}_]+$/u.test("ab_12"));
