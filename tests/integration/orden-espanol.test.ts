import * as usuariosRecord from "~/routes/usuarios.$id";
import * as usuariosList from "~/routes/usuarios._index";
import { createTestApp, type TestApp, type TestUser } from "../support/app";
import { entityPages } from "../support/entity-pages";
import { insertSucursal } from "../support/fixtures";
import { pantallasDe } from "../support/pantallas";

const sucursalesRecord = pantallasDe("sucursales").ficha;

const sucursalesList = pantallasDe("sucursales").lista;

/**
 * Issue 31: every text sort is Spanish alphabetical order (the columns' ICU collation), not byte
 * order, in which «Álvaro» and «Íñigo» came after «Víctor».
 */
let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ nombre: "Víctor", rol: "administrador" });
  await app.createUser({ nombre: "Íñigo" });
  await app.createUser({ nombre: "Álvaro" });
  await app.createUser({ nombre: "alba" });
  await app.createUser({ nombre: "Zoe" });
});
afterAll(() => app.close());

const usuarios = entityPages("/usuarios", { index: usuariosList, record: usuariosRecord }, () => ({
  app,
  cookie: admin.cookie,
}));
const sucursales = entityPages("/sucursales", { index: sucursalesList, record: sucursalesRecord }, () => ({
  app,
  cookie: admin.cookie,
}));

it("usuarios por nombre: «alba», «Álvaro», «Íñigo», «Víctor», «Zoe», y al revés", async () => {
  const nombres = async (dir: string) =>
    (await usuarios.list(`?orden=nombre_completo&dir=${dir}`)).result.rows.map(
      (r: { nombre_completo: string }) => r.nombre_completo,
    );
  expect(await nombres("asc")).toEqual(["alba", "Álvaro", "Íñigo", "Víctor", "Zoe"]);
  expect(await nombres("desc")).toEqual(["Zoe", "Víctor", "Íñigo", "Álvaro", "alba"]);
});

it("sucursales por ciudad y por nombre: «Ávila» y «Écija» antes de «Valencia»; la «ñ» tras la «n»", async () => {
  for (const [nombre, ciudad, codigo] of [
    ["Valencia Puerto", "Valencia", "VAL"],
    ["Ávila Centro", "Ávila", "AVI"],
    ["Écija Sur", "Écija", "ECI"],
    ["Ñoño Norte", "Nules", "NON"],
    ["Oviedo", "Oviedo", "OVI"],
  ])
    await insertSucursal(app.db, { nombre: nombre!, ciudad: ciudad!, codigo: codigo!, direccion: "Calle Mayor 1" });
  const columna = async (orden: string) =>
    (await sucursales.list(`?orden=${orden}&dir=asc`)).result.rows.map((r: Record<string, string>) => r[orden]);
  expect(await columna("ciudad")).toEqual(["Ávila", "Écija", "Nules", "Oviedo", "Valencia"]);
  expect(await columna("nombre")).toEqual(["Ávila Centro", "Écija Sur", "Ñoño Norte", "Oviedo", "Valencia Puerto"]);
});
