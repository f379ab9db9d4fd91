import type pg from "pg";
import { connect } from "../support/as-user";
import { createTestDatabase } from "../support/database";

/**
 * The kept results (counts, sums, `keep` lists: performance/kept.server.ts) are keyed by
 * interno.cambios, which only the tables' triggers advance. A table of public without them would
 * give stale lists and counts that nothing reports: every table must carry both.
 */
let client: pg.Client;

beforeAll(async () => {
  client = await connect(await createTestDatabase());
});
afterAll(() => client.end());

describe("toda tabla de public avanza el contador de cambios", () => {
  it("cada tabla tiene contar_cambio (filas) y contar_vaciado (TRUNCATE), los dos con interno.contar_cambio()", async () => {
    const { rows } = await client.query<{ tabla: string; filas: boolean; vaciado: boolean }>(`
      select c.relname as tabla,
        exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'contar_cambio'
                  and t.tgfoid = 'interno.contar_cambio()'::regprocedure and t.tgenabled <> 'D'
                  and t.tgtype & (4 | 8 | 16) = (4 | 8 | 16)) as filas,
        exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'contar_vaciado'
                  and t.tgfoid = 'interno.contar_cambio()'::regprocedure and t.tgenabled <> 'D'
                  and t.tgtype & 32 = 32) as vaciado
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p')
       order by 1`);
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.filter((r) => !r.filas || !r.vaciado).map((r) => r.tabla)).toEqual([]);
  });

  it("una escritura en una de las que no lo tenían (avisos_predeterminados) lo avanza al confirmar; TRUNCATE, en el acto", async () => {
    const cambios = async () => Number((await client.query("select n from interno.cambios")).rows[0].n);
    const antes = await cambios();
    await client.query("begin");
    await client.query("update public.avisos_predeterminados set canal = 'app' where tipo = 'pagado'");
    // Counted once per transaction, when it commits (a deferred constraint trigger).
    expect(await cambios()).toBe(antes);
    await client.query("commit");
    expect(await cambios()).toBe(antes + 1);
    await client.query("truncate public.resumen_diario");
    expect(await cambios()).toBe(antes + 2);
  });
});
