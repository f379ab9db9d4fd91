import { todayISO } from "~/lib/dates";
import { createTestApp, type TestApp, type TestUser } from "../support/app";
import { entityPages } from "../support/entity-pages";
import { insertDepartamento, insertSucursal, setProfile } from "../support/fixtures";
import { gastosPage } from "../support/gastos";
import { pantallasDe } from "../support/pantallas";

const sucursalRoute = pantallasDe("sucursales").ficha;

const sucursalesRoute = pantallasDe("sucursales").lista;

/**
 * A filter value that cannot be read is said, not dropped: the list's state carries the
 * error (what was typed and why) for the filter form, and the list is not filtered by it.
 */
let app: TestApp;
let admin: TestUser;
const hoy = todayISO();

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  const dep = await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN" });
  await setProfile(app.db, admin.id, { departamento_id: dep, sucursal_id: await insertSucursal(app.db) });
  for (const importe of ["10,00", "250,00"]) {
    const r = await gastos.post(
      {
        intent: "crear",
        _envio: crypto.randomUUID(),
        descripcion: `Gasto de ${importe}`,
        fecha_gasto: hoy,
        categoria: "comidas",
        importe,
        metodo_pago: "tarjeta_corporativa",
      },
      admin.cookie,
    );
    expect(r.status).toBe(302);
  }
});
afterAll(() => app.close());

const gastos = gastosPage(() => app);
const sucursales = entityPages("/sucursales", { index: sucursalesRoute, record: sucursalRoute }, () => ({
  app,
  cookie: admin.cookie,
}));

describe("/gastos", () => {
  it("un importe ilegible: error en el filtro, con lo escrito, y la lista sin ese filtro", async () => {
    const data = await gastos.list("?importe_max=abc&importe_min=100", admin.cookie);
    expect(data.state.errores).toEqual({
      importe_max: { valor: "abc", mensaje: "Escriba el importe máximo como un importe, por ejemplo 1.234,50" },
    });
    expect(data.state.filtros).toEqual({ importe_min: "100" });
    // importe_min still applies: only the 250,00 € one.
    expect(data.result.rows.map((r: { importe: string }) => r.importe)).toEqual(["250.00"]);
  });

  it("«desde» después de «hasta»: error en las dos fechas y la lista sin ese rango", async () => {
    const data = await gastos.list(`?desde=2026-12-31&hasta=2026-01-01`, admin.cookie);
    expect(data.state.errores).toEqual({
      hasta: { valor: "2026-01-01", mensaje: "«Fecha hasta» debe ser igual o posterior a «Fecha desde»" },
      desde: { valor: "2026-12-31", mensaje: "«Fecha desde» es posterior a «Fecha hasta»" },
    });
    expect(data.state.filtros).toEqual({});
    expect(data.result.total).toBe(2);
  });

  it("importe mínimo mayor que el máximo: error, sin filtrar; un rango correcto filtra", async () => {
    const malo = await gastos.list("?importe_min=300&importe_max=5", admin.cookie);
    expect(Object.keys(malo.state.errores).sort()).toEqual(["importe_max", "importe_min"]);
    expect(malo.result.total).toBe(2);
    const bueno = await gastos.list("?importe_min=5&importe_max=20", admin.cookie);
    expect(bueno.state.errores).toEqual({});
    expect(bueno.result.total).toBe(1);
  });

  it("una fecha imposible también se dice", async () => {
    const data = await gastos.list("?desde=2026-02-30", admin.cookie);
    expect(data.state.errores.desde.mensaje).toMatch(/Escriba la fecha desde como una fecha real/);
    expect(data.result.total).toBe(2);
  });
});

describe("/sucursales", () => {
  it("un valor que no está entre las opciones se dice y no filtra; uno válido filtra", async () => {
    const data = await sucursales.list("?pais=XX&activo=quizas");
    expect(data.state.errores).toEqual({
      pais: { valor: "XX", mensaje: "Elija un país de la lista" },
      activo: { valor: "quizas", mensaje: "Elija Sí, No o Todos en «Activa»" },
    });
    expect(data.result.total).toBe(1);
    const ok = await sucursales.list("?activo=no");
    expect(ok.state.errores).toEqual({});
    expect(ok.result.total).toBe(0);
  });
});
