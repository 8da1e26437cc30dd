console.log("istanbul".toLocaleUpperCase("tr-TR"), "ISTANBUL".toLocaleLowerCase("tr-TR"), "İzmir".toLocaleLowerCase("tr"));
console.log("Iıİi".toLocaleUpperCase("az"), "Iıİi".toLocaleLowerCase("az"), "Iıİi".toLocaleUpperCase("en-US"), "Iıİi".toLocaleLowerCase("en-US").length);
console.log("i̇".toLocaleUpperCase("lt").length, "Ì".toLocaleLowerCase("lt").length, "istanbul".toLocaleUpperCase(["tr"]));
