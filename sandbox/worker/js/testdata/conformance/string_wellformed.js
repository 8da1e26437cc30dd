console.log("ab".isWellFormed(), "a\uD800".isWellFormed(), "😀".isWellFormed(), JSON.stringify("a\uD800b\uDC00".toWellFormed()));
