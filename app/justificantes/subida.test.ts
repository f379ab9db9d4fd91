import { soloCambiaElAncla, urlDeDatos } from "./subida";

it("la petición de datos de una acción: sin el ancla, con la ruta, conservando su consulta", () => {
  expect(
    urlDeDatos("/gastos?vista=mios&index#nuevo", "routes/gastos._index", "http://oficina.test/gastos?gasto=1"),
  ).toBe("http://oficina.test/gastos?vista=mios&index=&_data=routes%2Fgastos._index");
  expect(
    urlDeDatos(
      "/gastos/abc/justificantes?volver=%2Fgastos%3Fgasto%3Dabc",
      "routes/gastos.$id.justificantes",
      "http://oficina.test/",
    ),
  ).toBe(
    "http://oficina.test/gastos/abc/justificantes?volver=%2Fgastos%3Fgasto%3Dabc&_data=routes%2Fgastos.%24id.justificantes",
  );
});

it("solo el ancla cambia (el router no cargaría nada) cuando ruta y consulta son las mismas y el destino lleva ancla", () => {
  const aqui = "http://oficina.test/gastos?gasto=1#gasto";
  expect(soloCambiaElAncla(aqui, "/gastos?gasto=1#contenido")).toBe(true);
  expect(soloCambiaElAncla("http://oficina.test/gastos?gasto=1", "/gastos?gasto=1#contenido")).toBe(true);
  expect(soloCambiaElAncla(aqui, "/gastos?gasto=1")).toBe(false);
  expect(soloCambiaElAncla(aqui, "/gastos?gasto=2#contenido")).toBe(false);
  expect(soloCambiaElAncla(aqui, "/login?volver=%2Fgastos")).toBe(false);
});
