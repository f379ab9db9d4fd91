import { describe, expect, it } from "vitest";
import { parseSubmission } from "~/ui/parse-submission.server";
import { categoriasFiscales } from "./categorias-fiscales";
import {
  accionesOfrecidas,
  enBloqueDeLaPagina,
  entitySchema,
  forRole,
  ordenDeCampos,
  recordName,
  seenBy,
  type Entity,
  type RecordAction,
} from "./entity";
import { empresa } from "./empresa";
import { gastos } from "./gastos";
import { departamentos } from "./departamentos";
import { proveedores } from "./proveedores";
import { sucursales } from "./sucursales";

describe("ordenDeCampos", () => {
  it("el de la pantalla: cada grupo junto, y el que eligió el enlace que abrió el formulario, primero", () => {
    const orden = ordenDeCampos(gastos, gastos.fields);
    const viaje = gastos.grupos!.find((g) => g.alFrente === "clase")!.campos;
    // Gathered where its first field is: its fields one after another.
    const desde = orden.indexOf(viaje[0]!);
    expect(orden.slice(desde, desde + viaje.length)).toEqual(viaje);
    expect(orden.indexOf("descripcion")).toBeLessThan(desde);
    // «Añadir kilometraje» chose the class: the trip's group leads, then the rest as before.
    const km = ordenDeCampos(gastos, gastos.fields, ["clase"]);
    expect(km.slice(0, viaje.length)).toEqual(viaje);
    expect(km.slice(viaje.length)).toEqual(orden.filter((n) => !viaje.includes(n)));
  });
});

describe("forRole", () => {
  it("quita a un empleado la columna y el filtro «Solicitante» de gastos; los demás los ven", () => {
    const empleado = forRole(gastos, "empleado");
    expect(empleado.columns.map((c) => c.name)).not.toContain("solicitante_nombre");
    expect(empleado.filters.map((f) => f.name)).not.toContain("solicitante");
    expect(empleado.columns).toHaveLength(gastos.columns.length - 1);
    for (const rol of ["aprobador", "administrador"] as const) {
      expect(forRole(gastos, rol).columns.map((c) => c.name)).toContain("solicitante_nombre");
      expect(forRole(gastos, rol).filters.map((f) => f.name)).toContain("solicitante");
    }
  });

  it("sin rol conocido solo deja lo que es para todos; una entidad sin `roles` queda igual", () => {
    expect(forRole(gastos, undefined).filters.map((f) => f.name)).not.toContain("solicitante");
    expect(forRole(sucursales, "empleado")).toBe(sucursales);
  });

  it("quita los campos reservados a otros roles: el IBAN y las notas de un proveedor, el presupuesto de un departamento", () => {
    const campos = (e: typeof proveedores) => e.fields.map((f) => f.name);
    expect(campos(forRole(proveedores, "aprobador"))).not.toContain("iban");
    expect(campos(forRole(proveedores, "aprobador"))).not.toContain("notas");
    expect(campos(forRole(proveedores, "aprobador"))).toContain("nif");
    expect(campos(forRole(proveedores, "administrador"))).toEqual(campos(proveedores));
    const empleado = forRole(departamentos, "empleado");
    expect(campos(empleado)).not.toContain("presupuesto_mensual");
    expect(empleado.columns.map((c) => c.name)).not.toContain("presupuesto_mensual");
    expect(campos(forRole(departamentos, "aprobador"))).toContain("presupuesto_mensual");
    expect(campos(forRole(departamentos, undefined))).not.toContain("presupuesto_mensual");
  });
});

describe("seenBy", () => {
  it("una entidad con `roles` solo la ven esos roles; sin `roles`, cualquiera con sesión", () => {
    expect(seenBy(empresa, "administrador")).toBe(true);
    for (const rol of ["aprobador", "empleado", undefined] as const) expect(seenBy(empresa, rol)).toBe(false);
    for (const rol of ["administrador", "aprobador", "empleado"] as const)
      expect(seenBy(departamentos, rol)).toBe(true);
  });
});

describe("recordName", () => {
  it("nombra el registro con la etiqueta de su lista fija, no con su clave", () => {
    expect(recordName(categoriasFiscales, { categoria: "atenciones_clientes" })).toBe("Atenciones a clientes");
    expect(recordName(departamentos, { nombre: "Ventas" })).toBe("Ventas");
    expect(recordName(empresa, { razon_social: null })).toBe("");
  });
});

/** Which record actions a record page offers: role, `disponible` and the database's `motivos`. */
describe("accionesOfrecidas", () => {
  const accion = (intent: string, o: Partial<RecordAction> = {}): RecordAction => ({
    intent,
    label: intent,
    funcion: `${intent}_cosa`,
    disponible: (record) => record.estado === "pendiente",
    hecho: () => "Hecho.",
    ...o,
  });
  const entidad: Pick<Entity, "acciones"> = {
    acciones: [accion("aprobar", { roles: ["aprobador", "administrador"] }), accion("retirar")],
  };
  const aprobador = { id: "a", rol: "aprobador" as const };
  const empleado = { id: "e", rol: "empleado" as const };
  const pendiente = { estado: "pendiente" };

  it("sin `motivos`: las que su rol puede y `disponible` admite, en su orden", () => {
    expect(accionesOfrecidas(entidad, pendiente, aprobador)).toEqual(["aprobar", "retirar"]);
    expect(accionesOfrecidas(entidad, pendiente, empleado)).toEqual(["retirar"]);
    expect(accionesOfrecidas(entidad, { estado: "aprobado" }, aprobador)).toEqual([]);
  });

  it("con `motivos`: solo las que la base no niega; ninguna si el registro no se ve (null)", () => {
    const motivos = { aprobar: "Usted creó este gasto: debe aprobarlo otra persona.", retirar: null };
    expect(accionesOfrecidas(entidad, pendiente, aprobador, motivos)).toEqual(["retirar"]);
    expect(accionesOfrecidas(entidad, pendiente, aprobador, { aprobar: null, retirar: null })).toEqual([
      "aprobar",
      "retirar",
    ]);
    expect(accionesOfrecidas(entidad, pendiente, aprobador, null)).toEqual([]);
    // The database's yes does not override the record's state or the role.
    expect(accionesOfrecidas(entidad, { estado: "aprobado" }, aprobador, { aprobar: null, retirar: null })).toEqual([]);
    expect(accionesOfrecidas(entidad, pendiente, empleado, { aprobar: null, retirar: null })).toEqual(["retirar"]);
  });
});

describe("enBloqueDeLaPagina", () => {
  const admin = { id: "a", rol: "administrador" as const };
  const aprobador = { id: "p", rol: "aprobador" as const };
  const pendiente = { id: "1", estado: "pendiente", puede_aprobar: true };
  const aprobado = { id: "2", estado: "aprobado", puede_aprobar: false };
  const intents = (r: { acciones: readonly { intent: string }[] }) => r.acciones.map((a) => a.intent);

  it("ofrece solo lo que su rol puede y se aplica a alguna fila de la página; la casilla, donde se aplica", () => {
    const pagina = enBloqueDeLaPagina(gastos, admin, [pendiente, aprobado]);
    expect(intents(pagina)).toEqual(["aprobar_seleccion", "rechazar_seleccion", "pagar_seleccion"]);
    expect(pagina.seleccionable(pendiente)).toBe(true);
    expect(pagina.seleccionable(aprobado)).toBe(true);
    // An aprobador never marks as paid: an approved row gets no box.
    const suya = enBloqueDeLaPagina(gastos, aprobador, [pendiente, aprobado]);
    expect(intents(suya)).toEqual(["aprobar_seleccion", "rechazar_seleccion"]);
    expect(suya.seleccionable(aprobado)).toBe(false);
    expect(intents(enBloqueDeLaPagina(gastos, admin, [aprobado]))).toEqual(["pagar_seleccion"]);
    expect(intents(enBloqueDeLaPagina(gastos, undefined, [pendiente]))).toEqual([]);
  });
});

describe("campos de una sola clase de gasto (aplicaSi)", () => {
  // As the server reads a post (Conform's coercion, then the schema).
  const enviar = (campos: Record<string, string>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries({
      descripcion: "Taxi al aeropuerto",
      fecha_gasto: new Date().toISOString().slice(0, 10),
      categoria: "viajes_transporte",
      metodo_pago: "efectivo",
      ...campos,
    }))
      form.append(k, v);
    const r = parseSubmission(form, (zod) => entitySchema(zod, gastos));
    return r.status === "success" ? { errores: null, valores: r.value } : { errores: r.error ?? null, valores: null };
  };

  it("lo escrito en los de otra clase, que no se ven, ni se comprueba ni se guarda", () => {
    for (const clase of ["", "ordinario"]) {
      const r = enviar({ importe: "12,50", clase, km: "abc", km_origen: "x", dieta_lugar: "luna" });
      expect(r.errores).toBeNull();
      expect(r.valores).toMatchObject({ km: null, km_origen: null, dieta_lugar: null });
    }
    // A dieta keeps its own fields and drops a kilometraje's.
    const dieta = enviar({
      clase: "dieta",
      viaje_id: "7b6f1a52-8a0e-4f0e-9a51-3f1f6a0f2c11",
      km: "abc",
      dieta_pernocta: "on",
    });
    expect(dieta.errores).toBeNull();
    expect(dieta.valores).toMatchObject({ clase: "dieta", dieta_pernocta: true, km: null });
  });

  it("un kilometraje no lleva importe escrito: lo calcula la base de datos", () => {
    const r = enviar({ clase: "kilometraje", importe: "999", km: "100", km_origen: "Madrid", km_destino: "Toledo" });
    expect(r.errores).toBeNull();
    expect(r.valores).toMatchObject({ clase: "kilometraje", importe: null, km: "100" });
    // With no class chosen (an ordinario), it is what it always was: required.
    expect(Object.keys(enviar({ clase: "" }).errores ?? {})).toContain("importe");
  });

  it("los de la clase elegida se comprueban como siempre", () => {
    const r = enviar({ clase: "kilometraje", km: "abc", km_origen: "x" });
    expect(Object.keys(r.errores ?? {})).toEqual(expect.arrayContaining(["km", "km_origen"]));
  });
});
