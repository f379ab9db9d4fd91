import pg from "pg";

/**
 * The installation's settings the database itself must know (interno.ajustes, migration
 * 20261125000005_flujo, and 20261130000001_avisos): PERMITIR_ADMIN_UNICO — whether whoever
 * asked for or approved a gasto may also pay it — and the avisos outbox's waits. The row is
 * writable only by the database owner, so no client, not even
 * one calling PostgREST with its own JWT, can change it; the SQL backend's server writes it at
 * start-up, after the migrations, from its configuration. On Supabase it is set once by hand
 * (docs/supabase.md).
 *
 * Returns a warning for the start-up log when the setting is on although the installation has
 * more than one active administrador (then separation of duties was possible and is waived).
 */
export async function guardarAjustes(
  databaseUrl: string,
  ajustes: {
    PERMITIR_ADMIN_UNICO: boolean;
    AVISOS_ESPERA_SEGUNDOS?: number;
    AVISOS_REINTENTO_SEGUNDOS?: number;
    /** Absent: left as it is; null: never required (migration 20261127000001_justificantes). */
    JUSTIFICANTE_OBLIGATORIO_DESDE?: string | null;
  },
): Promise<{ aviso: string | null }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // A change also advances interno.cambios: what the SQL adapter keeps (the home panel, option lists) is read anew.
    await client.query(
      `with cambio as (
         update interno.ajustes set permitir_admin_unico = $1, actualizado_en = now()
          where unica and permitir_admin_unico is distinct from $1 returning 1)
       update interno.cambios set n = n + 1 where exists (select 1 from cambio)`,
      [ajustes.PERMITIR_ADMIN_UNICO],
    );
    // The avisos outbox's timing (ADR 0017): read by the database functions that queue and retry mail.
    await client.query(
      `update interno.ajustes
          set avisos_espera = coalesce($1 * interval '1 second', avisos_espera),
              avisos_reintento = coalesce($2 * interval '1 second', avisos_reintento)
        where unica`,
      [ajustes.AVISOS_ESPERA_SEGUNDOS ?? null, ajustes.AVISOS_REINTENTO_SEGUNDOS ?? null],
    );
    // Read by enviar_gasto: from which importe a gasto needs a justificante to be sent.
    if (ajustes.JUSTIFICANTE_OBLIGATORIO_DESDE !== undefined)
      await client.query("update interno.ajustes set justificante_obligatorio_desde = $1 where unica", [
        ajustes.JUSTIFICANTE_OBLIGATORIO_DESDE,
      ]);
    if (!ajustes.PERMITIR_ADMIN_UNICO) return { aviso: null };
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from public.usuarios where rol = 'administrador' and activo",
    );
    const n = rows[0]?.n ?? 0;
    return {
      aviso:
        n > 1
          ? `PERMITIR_ADMIN_UNICO=1 con ${n} administradores activos: quien pide o aprueba un gasto también puede pagarlo (queda en el historial). Quítelo si otro administrador puede pagar.`
          : null,
    };
  } finally {
    await client.end();
  }
}
