import { format, formatRelative, setDefaultOptions, startOfWeek } from "date-fns";
import { fr, ru } from "date-fns/locale";

const d = new Date(Date.UTC(2024, 5, 10, 8, 30, 0));
console.log(format(d, "PPPP"));
setDefaultOptions({ locale: fr });
console.log(format(d, "PPPP"), startOfWeek(d).toISOString());
setDefaultOptions({ locale: ru });
console.log(format(d, "PPPP"), formatRelative(d, new Date(Date.UTC(2024, 5, 13, 8, 0, 0))));
setDefaultOptions({});
console.log(format(d, "PPPP"));
