console.log(btoa("hello world"), btoa(""), btoa("a"), btoa("ab"), btoa("\xff\xfe"));
console.log(atob("aGVsbG8gd29ybGQ="), atob(" aGk "), atob("YQ"), JSON.stringify(atob("//4=")));
try { btoa("€"); } catch (e) { console.log(e.name); }
try { atob("abc*"); } catch (e) { console.log(e.name); }
