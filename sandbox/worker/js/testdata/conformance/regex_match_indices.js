// the d flag (hasIndices) is not supported: a SyntaxError at the user's line
try { const re = new RegExp("a(b)", "d"); console.log(re.exec("xab").indices[1].join()); } catch (e) { console.log(e.name); }
