// JSON.parse syntax errors read as V8 (Node 20) words them: what was expected, and where.
const cases = [
  '{bad', '', 'NaN', '{"a":1}x', '[1,]', "{'a':1}", '"abc', '{"a" 1}', '[1 2]', '{"a":1 "b":2}', '"a\u0001"', '"\\x"', '"\\u12"', '-', '1e', '1.', 'tru', '{"a":1,}', '[', '{"a":', 'x'.repeat(40), '{"key": "value", "other": [1, 2, 3], "bad": tru}', '\n\n  {\n "a": x}',
  '01', '[1,2', '{"a":1', '"\\u00zz"', '1 2', '{"a":1}}', ' ', 'true false', '[1,,2]', '{,}', '-x', '.5', '+1', '1.5e+', '"\t"', '{"a"', '{"a":1,', 'nul', 'null x', '[1]]', '"é\u0002"', '{"é": x}', 'undefined', 'Infinity', '[object Object]', '-Infinity', '{"a":[1,{"b":2,}]}', '123abc', '"a" "b"', '{"a":1, "b"}', '[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, x]', 'x'.repeat(21), 'x'.repeat(20), '1e5x', '{"a":tRue}', '\u00a0{}', '{"a":1}\n\nx',
  '"\\', '"\\u12', '[1,', '{"a":1,"b"', '{"a":1, "b" "c"}', '{"a":1, "b" 2}', '{"a":1, "b" true}', '["a" "b"]', '[01]', '-01', '1.e5', '{"a":1,"b":}', '{"a" : 1 , "b" : [ 1 , ]}', '  ', '\t\n', 'x', '{ }x', '[-]', '{"a":-}', '"abc\\"', '{"a\\x":1}'
];
for (const s of cases) {
  try { JSON.parse(s); console.log("ok", JSON.stringify(s)); } catch (e) { console.log(JSON.stringify(s), "=>", e.name, e.message); }
}
console.log(JSON.parse(" [1, {\"a\": \"\\u00e9\"}] ")[1].a);
