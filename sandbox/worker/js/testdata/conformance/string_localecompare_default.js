console.log(["b", "a", "C", "á"].sort((x, y) => x.localeCompare(y)).join(","), "a".localeCompare("B"), "a".localeCompare("a"));
