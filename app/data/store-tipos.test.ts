import { describe, expectTypeOf, it } from "vitest";
import type { ListResult, Row, RowOf, Store } from "./store";

// Checked by the type checker (`npm run check`): a read of a named source is typed by the schema.
declare const store: Store;

describe("el almacén tipado por el esquema", () => {
  it("una lectura con columnas da filas de esas columnas, con sus tipos", () => {
    const lectura = () => store.list("proveedores", { columns: ["id", "activo"], limit: 1, offset: 0 });
    expectTypeOf(lectura).returns.resolves.toEqualTypeOf<ListResult<{ id: string; activo: boolean }>>();
    // @ts-expect-error: proveedores has no column «importe».
    void (() => store.list("proveedores", { columns: ["importe"], limit: 1, offset: 0 }));
  });

  it("un importe llega como texto exacto (pg) o como número (PostgREST): el tipo dice los dos", () => {
    expectTypeOf<RowOf<"gastos">["importe"]>().toEqualTypeOf<string | number>();
    expectTypeOf<RowOf<"gastos">["folio"]>().toEqualTypeOf<string>();
  });

  it("una fuente que solo se sabe al ejecutar (la vista de una entidad) da filas sin tipo", () => {
    const vista: string = "gastos_vista";
    expectTypeOf(() => store.list(vista, { limit: 1, offset: 0 })).returns.resolves.toEqualTypeOf<ListResult<Row>>();
  });
});
