const u = new URL("https://user:pw@example.com:8080/a/b/../c?x=1&y=two#frag");
console.log(u.href); console.log(u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.origin);
