import {
  CATEGORIAS_GASTO,
  CATEGORIAS_PROVEEDOR,
  ESTADOS_GASTO,
  isValueOf,
  labelOf,
  METODOS_PAGO,
  PAISES,
  ROLES,
  TIPOS_PERSONA,
  type Option,
} from "./opciones";

const slugs = (list: readonly Option[]) => list.map((o) => o.value);
const labels = (list: readonly Option[]) => list.map((o) => o.label);

describe("las listas de opciones", () => {
  // The database check constraints use exactly these slugs.
  it("has the fourteen expense categories, in order", () => {
    expect(slugs(CATEGORIAS_GASTO)).toEqual([
      "alojamiento",
      "comidas",
      "viajes_transporte",
      "combustible",
      "aparcamiento_peajes",
      "material_oficina",
      "telefonia_internet",
      "software_suscripciones",
      "formacion",
      "atenciones_clientes",
      "mensajeria",
      "mantenimiento_reparaciones",
      "servicios_profesionales",
      "otros",
    ]);
    expect(labels(CATEGORIAS_GASTO)).toEqual([
      "Alojamiento",
      "Comidas",
      "Viajes y transporte",
      "Combustible",
      "Aparcamiento y peajes",
      "Material de oficina",
      "Telefonía e internet",
      "Software y suscripciones",
      "Formación",
      "Atenciones a clientes",
      "Mensajería",
      "Mantenimiento y reparaciones",
      "Servicios profesionales",
      "Otros",
    ]);
  });

  it("has the payment methods", () => {
    expect(slugs(METODOS_PAGO)).toEqual([
      "efectivo",
      "tarjeta_credito",
      "tarjeta_debito",
      "tarjeta_corporativa",
      "transferencia",
      "domiciliacion",
      "cheque",
      "caja_chica",
    ]);
    expect(labels(METODOS_PAGO)).toEqual([
      "Efectivo",
      "Tarjeta de crédito",
      "Tarjeta de débito",
      "Tarjeta corporativa",
      "Transferencia bancaria",
      "Domiciliación",
      "Cheque",
      "Caja chica",
    ]);
  });

  it("has the supplier categories", () => {
    expect(slugs(CATEGORIAS_PROVEEDOR)).toEqual([
      "suministros",
      "servicios_profesionales",
      "tecnologia",
      "viajes",
      "logistica",
      "mantenimiento",
      "marketing",
      "otros",
    ]);
    expect(labels(CATEGORIAS_PROVEEDOR)).toEqual([
      "Suministros",
      "Servicios profesionales",
      "Tecnología",
      "Viajes",
      "Logística",
      "Mantenimiento",
      "Marketing",
      "Otros",
    ]);
  });

  it("has roles, estados and tipos de persona", () => {
    expect(ROLES).toEqual([
      { value: "administrador", label: "Administrador" },
      { value: "aprobador", label: "Aprobador" },
      { value: "empleado", label: "Empleado" },
    ]);
    expect(ESTADOS_GASTO).toEqual([
      { value: "borrador", label: "Borrador" },
      { value: "pendiente", label: "Pendiente de aprobación" },
      { value: "aprobado", label: "Aprobado" },
      { value: "rechazado", label: "Rechazado" },
      { value: "pagado", label: "Pagado" },
    ]);
    expect(TIPOS_PERSONA).toEqual([
      { value: "empresa", label: "Empresa" },
      { value: "persona_fisica", label: "Persona física" },
    ]);
  });

  it("slugs are lower snake case and unique in every list", () => {
    for (const list of [CATEGORIAS_GASTO, METODOS_PAGO, CATEGORIAS_PROVEEDOR, ROLES, ESTADOS_GASTO, TIPOS_PERSONA]) {
      expect(new Set(slugs(list)).size).toBe(list.length);
      for (const s of slugs(list)) expect(s).toMatch(/^[a-z]+(_[a-z]+)*$/);
    }
  });

  it("has countries as unique ISO alpha-2 codes, sorted by Spanish name", () => {
    const codes = slugs(PAISES);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of codes) expect(c).toMatch(/^[A-Z]{2}$/);
    for (const c of ["ES", "MX", "PT", "FR", "DE", "IT", "GB", "US", "AR", "CO", "CL", "PE", "AD", "NL", "BE", "IE"]) {
      expect(codes).toContain(c);
    }
    const names = labels(PAISES);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "es")));
    expect(labelOf(PAISES, "ES")).toBe("España");
    expect(labelOf(PAISES, "MX")).toBe("México");
    expect(labelOf(PAISES, "GB")).toBe("Reino Unido");
    // The Spanish names agree with what Intl says, where Intl has one.
    const intl = new Intl.DisplayNames(["es"], { type: "region" });
    for (const code of ["ES", "MX", "PT", "FR", "DE", "IT", "GB", "US", "AD", "NL", "BE", "IE", "PE"]) {
      expect(labelOf(PAISES, code)).toBe(intl.of(code));
    }
  });
});

describe("labelOf and isValueOf", () => {
  it("finds labels", () => {
    expect(labelOf(ESTADOS_GASTO, "pendiente")).toBe("Pendiente de aprobación");
    expect(labelOf(METODOS_PAGO, "transferencia")).toBe("Transferencia bancaria");
  });

  it("returns the value itself when unknown, and empty for nothing", () => {
    expect(labelOf(ESTADOS_GASTO, "archivado")).toBe("archivado");
    expect(labelOf(ESTADOS_GASTO, null)).toBe("");
    expect(labelOf(ESTADOS_GASTO, undefined)).toBe("");
    expect(labelOf(ESTADOS_GASTO, "")).toBe("");
  });

  it("checks membership", () => {
    expect(isValueOf(ROLES, "aprobador")).toBe(true);
    expect(isValueOf(ROLES, "Aprobador")).toBe(false);
    expect(isValueOf(ROLES, 1)).toBe(false);
  });
});
