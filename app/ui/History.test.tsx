import { renderToStaticMarkup } from "react-dom/server";
import { departamentos } from "~/entities/departamentos";
import { displayField } from "./EntityForms";
import { History } from "./History";

/** The history as the server renders it: every value written as the rest of the UI writes it. */
const formats = { locale: "es-ES", currency: "EUR" };
const options = {};

function rendered(cambios: Record<string, { antes: unknown; despues: unknown }>) {
  const html = renderToStaticMarkup(
    <History
      entries={[
        { id: 1, accion: "modificacion", actor_nombre: "Ana", creado_en: "2026-11-24T10:00:00+00:00", cambios },
      ]}
      fields={departamentos.fields}
      formats={formats}
      show={(field, value) => displayField(field, value, formats, options)}
    />,
  );
  return html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
}

describe("Historial de cambios", () => {
  it("fechas con hora (de columnas sin campo declarado o de un campo de texto) en la hora de la oficina", () => {
    const text = rendered({
      aprobado_en: { antes: null, despues: "2026-11-24T02:34:39.079746+00:00" },
      notas: { antes: "2026-01-05T23:30:00Z", despues: "texto" },
    });
    expect(text).toContain("aprobado_en — 24/11/2026, 03:34");
    expect(text).toContain("Notas 06/01/2026, 00:30 texto");
    expect(text).not.toContain("T02:34");
  });

  it("fechas, importes, sí/no y opciones como en la ficha", () => {
    const text = rendered({
      presupuesto_mensual: { antes: 1234.5, despues: "99" },
      activo: { antes: true, despues: false },
      fecha_baja: { antes: "2026-11-22", despues: null },
    });
    expect(text).toContain("Presupuesto mensual 1.234,50 € 99,00 €");
    expect(text).toContain("Activo Sí No");
    expect(text).toContain("fecha_baja 22/11/2026 —");
  });

  it("los campos en el orden de la ficha, no en el del JSON de la base (por longitud de nombre)", () => {
    const text = rendered({
      notas: { antes: null, despues: "x" },
      codigo: { antes: "A", despues: "B" },
      zz_sin_campo: { antes: 1, despues: 2 },
      nombre: { antes: "Uno", despues: "Dos" },
      nota: { antes: null, despues: "Reasignado" },
    });
    const en = (s: string) => text.indexOf(s);
    // The why of the change first.
    expect(en("nota — Reasignado")).toBeLessThan(en("Nombre Uno Dos"));
    expect(en("Nombre Uno Dos")).toBeLessThan(en("Código A B"));
    expect(en("Código A B")).toBeLessThan(en("Notas — x"));
    expect(en("Notas — x")).toBeLessThan(en("zz_sin_campo 1 2"));
  });

  it("la hora de cada entrada también", () => {
    expect(rendered({})).toContain("24/11/2026, 11:00");
  });
});
