// the d flag (hasIndices): match indices (package regexpidx)
try { const re = new RegExp("a(b)", "d"); console.log(re.exec("xab").indices[1].join()); } catch (e) { console.log(e.name); }
