console.log("$10 €20".match(/(?<=\$)\d+/)[0], "a1b2".replace(/(?<!a)\d/g, "#"), /\bfoo\b/.test("a foo b"));
