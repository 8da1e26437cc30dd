console.log(/\p{Script=Greek}/u.test("α"), /\p{Script=Greek}/u.test("a"), "日本語abc".replace(/\p{Script=Han}/gu, "#"), /\P{L}/u.test("a"));
