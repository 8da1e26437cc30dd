try {
  console.log(typeof arguments);
} catch (e) {
  console.log(e.name, e.message);
}
