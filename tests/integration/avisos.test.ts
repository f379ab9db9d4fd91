import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { createMailer, type Mail } from "~/auth/mail.server";
import { deliverDue, sqlOutbox, type DeliveryOptions, type Outbox } from "~/avisos/entrega.server";
import { todayISO } from "~/lib/dates";
import { generateValidEsIban } from "~/lib/iban";
import { action } from "~/routes/gastos._index";
import { createTestApp, ORIGIN, request, respond } from "../support/app";
import { asUser, connect, pgError } from "../support/as-user";

/**
 * Avisos (docs/producto.md): every transition tells exactly the people it should, in the same
 * transaction as the change, and the delivery worker sends each mail once.
 */
let app: Awaited<ReturnType<typeof createTestApp>>;
type U = Awaited<ReturnType<typeof app.createUser>>;
let admin: U, admin2: U, pablo: U, elena: U, marta: U;
let outbox: string;
const hoy = todayISO();

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  admin2 = await app.createUser({ nombre: "Beatriz", rol: "administrador" });
  pablo = await app.createUser({ nombre: "Pablo", rol: "aprobador" });
  elena = await app.createUser({ nombre: "Elena", rol: "empleado" });
  marta = await app.createUser({ nombre: "Marta", rol: "empleado" });
  const { id: dep } = await app.db
    .insertInto("departamentos")
    .values({ nombre: "Ventas", codigo: "VEN", responsable_id: pablo.id })
    .returning("id")
    .executeTakeFirstOrThrow();
  const { id: suc } = await app.db
    .insertInto("sucursales")
    .values({ nombre: "Madrid", codigo: "MAD", direccion: "Gran Vía 1", ciudad: "Madrid" })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const u of [admin, admin2, pablo, elena, marta])
    await app.db
      .updateTable("usuarios")
      .set({ departamento_id: dep, sucursal_id: suc })
      .where("id", "=", u.id)
      .execute();
  await app.db
    .updateTable("usuarios")
    .set({ aprobador_id: pablo.id })
    .where("id", "in", [elena.id, marta.id])
    .execute();
  // No grouping wait in these tests: what is written is due at once.
  await sql`update interno.ajustes set avisos_espera = interval '0'`.execute(app.db);
  outbox = mkdtempSync(path.join(os.tmpdir(), "oficina-avisos-"));
});
afterAll(async () => {
  await app?.close();
  rmSync(outbox, { recursive: true, force: true });
});
beforeEach(async () => {
  await sql`delete from interno.correos`.execute(app.db);
  await sql`delete from public.avisos`.execute(app.db);
});

// ------------------------------------------------------------------------------------------

type Gasto = { id: string; version: number; folio: string; estado: string };
const post = (form: Record<string, string | string[]>, cookie: string, p = "/gastos?index") =>
  respond(() => action({ request: request(p, { cookie, form }), context: app.context(), params: {} }));
const row = (id: string) =>
  app.db
    .selectFrom("gastos")
    .select(["id", "version", "folio", "estado"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow() as Promise<Gasto>;
let seq = 0;
async function nuevo(u: U, o: Record<string, string> = {}) {
  seq += 1;
  const r = await post(
    {
      intent: "crear",
      descripcion: `Aviso ${seq}`,
      fecha_gasto: hoy,
      categoria: "comidas",
      importe: `${20 + seq},50`,
      metodo_pago: "efectivo",
      ...o,
    },
    u.cookie,
  );
  if (r.status !== 302) throw new Error(`Esperaba 302, llegó ${r.status}: ${await r.text()}`);
  return row(new URL(r.headers.get("Location")!, ORIGIN).searchParams.get("gasto")!);
}
async function act(u: U, intent: string, g: Gasto, extra: Record<string, string> = {}) {
  const r = await post({ intent, id: g.id, version: String(g.version), ...extra }, u.cookie, `/gastos?gasto=${g.id}`);
  expect(r.status, await r.clone().text()).toBe(302);
  return row(g.id);
}
const avisos = () =>
  app.db
    .selectFrom("avisos")
    .select(["destinatario_id", "tipo", "gasto_id", "datos"])
    .orderBy("creado_en")
    .execute() as Promise<{ destinatario_id: string; tipo: string; gasto_id: string; datos: Record<string, string> }[]>;
const quien = (u: U) =>
  ({ [admin.id]: "admin", [admin2.id]: "admin2", [pablo.id]: "pablo", [elena.id]: "elena", [marta.id]: "marta" })[u.id];
const resumen = async () => (await avisos()).map((a) => `${quien({ id: a.destinatario_id } as U)}:${a.tipo}`);
const correos = () =>
  sql<{
    destinatario_id: string;
    estado: string;
    intentos: number;
    mensaje_id: string | null;
    ultimo_error: string | null;
  }>`
    select destinatario_id, estado, intentos, mensaje_id, ultimo_error from interno.correos order by creado_en`
    .execute(app.db)
    .then((r) => r.rows);

function delivery(
  mail: DeliveryOptions["mail"] = createMailer({ from: "oficina@example.test", outboxDir: outbox }),
): DeliveryOptions {
  return {
    outbox: sqlOutbox(app.db),
    mail,
    appUrl: "https://oficina.example.test",
    locale: "es-ES",
    currency: "EUR",
    timeZone: "Europe/Madrid",
  };
}
/** The development outbox's stored messages (one per Message-ID) and how many sends repeated one. */
function mailbox() {
  const dir = path.join(outbox, "ids");
  const files = (() => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  })();
  const messages = files.filter((f) => f.endsWith(".eml")).map((f) => readFileSync(path.join(dir, f), "utf8"));
  const repeats = files
    .filter((f) => f.endsWith(".repetidos"))
    .reduce((n, f) => n + readFileSync(path.join(dir, f), "utf8").split("\n").filter(Boolean).length, 0);
  return { messages, repeats };
}

// ------------------------------------------------------------------------------------------

describe("quién recibe cada aviso (en la misma transacción que el cambio)", () => {
  it("enviar → el aprobador; aprobar → la solicitante; nadie se avisa a sí mismo", async () => {
    const g = await nuevo(elena);
    expect(await resumen()).toEqual([]);
    const p = await act(elena, "enviar", g);
    expect(await resumen()).toEqual(["pablo:enviado"]);
    const [a] = await avisos();
    expect(a!.datos).toMatchObject({
      folio: g.folio,
      descripcion: expect.stringMatching(/^Aviso/),
      solicitante: "Elena",
    });
    expect(a!.gasto_id).toBe(g.id);
    await act(pablo, "aprobar", p);
    expect(await resumen()).toEqual(["pablo:enviado", "elena:aprobado"]);
  });

  it("rechazar lleva el motivo; reabrir y retirar no avisan a nadie", async () => {
    const g = await act(elena, "enviar", await nuevo(elena));
    const r = await act(pablo, "rechazar", g, { motivo: "Falta el ticket" });
    const reabierto = await act(elena, "reabrir", r);
    const otra = await act(elena, "enviar", reabierto);
    await act(elena, "retirar", otra);
    expect(await resumen()).toEqual(["pablo:enviado", "elena:rechazado", "pablo:enviado"]);
    expect((await avisos())[1]!.datos.motivo).toBe("Falta el ticket");
  });

  it("pagar → la solicitante con fecha y referencia; revertir → la solicitante (motivo) y de nuevo el aprobador", async () => {
    const aprobado = await act(pablo, "aprobar", await act(elena, "enviar", await nuevo(elena)));
    const revertido = await act(admin, "revertir", aprobado, { motivo: "Importe equivocado" });
    const otraVez = await act(pablo, "aprobar", revertido);
    await act(admin, "pagar", otraVez, { fecha_pago: hoy, referencia_pago: "TRF-778" });
    expect(await resumen()).toEqual([
      "pablo:enviado",
      "elena:aprobado",
      "elena:revertido",
      "pablo:enviado",
      "elena:aprobado",
      "elena:pagado",
    ]);
    const all = await avisos();
    expect(all[2]!.datos.motivo).toBe("Importe equivocado");
    expect(all[5]!.datos).toMatchObject({ fecha_pago: hoy, referencia_pago: "TRF-778" });
  });

  it("un administrador que envía su propio gasto no se avisa a sí mismo; si aprueba otro administrador, él sí recibe el aprobado", async () => {
    await app.db.updateTable("usuarios").set({ aprobador_id: admin2.id }).where("id", "=", admin.id).execute();
    const g = await act(admin, "enviar", await nuevo(admin));
    await act(admin2, "aprobar", g);
    expect(await resumen()).toEqual(["admin2:enviado", "admin:aprobado"]);
  });

  it("reasignar un pendiente (el aprobador pasa a empleado) avisa al nuevo aprobador", async () => {
    const otro = await app.createUser({ nombre: "Óscar", rol: "aprobador" });
    await app.db.updateTable("usuarios").set({ aprobador_id: otro.id }).where("id", "=", marta.id).execute();
    await act(marta, "enviar", await nuevo(marta));
    await app.db.updateTable("usuarios").set({ rol: "empleado" }).where("id", "=", otro.id).execute();
    const all = await avisos();
    expect(all.map((a) => a.tipo)).toEqual(["enviado", "enviado"]);
    expect(all[0]!.destinatario_id).toBe(otro.id);
    expect(all[1]!.destinatario_id).not.toBe(otro.id);
    await app.db.updateTable("usuarios").set({ aprobador_id: pablo.id }).where("id", "=", marta.id).execute();
  });

  it("un cambio que se deshace no deja aviso ni correo", async () => {
    const g = await nuevo(elena);
    const client = await connect(app.url);
    try {
      await asUser(client, elena.id, (q) => q("select public.enviar_gasto($1, $2)", [g.id, g.version]), {
        rollback: true,
      });
    } finally {
      await client.end();
    }
    expect((await row(g.id)).estado).toBe("borrador");
    expect(await avisos()).toEqual([]);
    expect(await correos()).toEqual([]);
  });

  it("las preferencias: «nada» no escribe aviso, «app» lo escribe sin correo, «correo» ambos", async () => {
    await app.db
      .insertInto("preferencias_avisos")
      .values([
        { usuario_id: elena.id, tipo: "aprobado", canal: "nada" },
        { usuario_id: pablo.id, tipo: "enviado", canal: "app" },
      ])
      .execute();
    try {
      const g = await act(elena, "enviar", await nuevo(elena));
      await act(pablo, "rechazar", g, { motivo: "No" });
      const h = await act(elena, "enviar", await nuevo(elena));
      await act(pablo, "aprobar", h);
      expect(await resumen()).toEqual(["pablo:enviado", "elena:rechazado", "pablo:enviado"]);
      const c = await correos();
      expect(c.map((x) => x.destinatario_id)).toEqual([elena.id]); // only the rechazo goes by mail
    } finally {
      await app.db.deleteFrom("preferencias_avisos").execute();
    }
  });
});

describe("entrega por correo", () => {
  it("cada aviso sale una vez, con enlace a la ficha, List-Unsubscribe y Message-ID", async () => {
    const sent: Mail[] = [];
    const g = await act(elena, "enviar", await nuevo(elena));
    const pass = await deliverDue(delivery(async (m) => void sent.push(m)));
    expect(pass).toMatchObject({ sent: 1, failed: 0 });
    expect(sent).toHaveLength(1);
    const m = sent[0]!;
    expect(m.to).toBe(pablo.email);
    expect(m.subject).toBe(`${g.folio} espera su aprobación`);
    expect(m.text).toContain(`https://oficina.example.test/gastos?gasto=${g.id}#gasto`);
    expect(m.text).toMatch(/lo envió Elena/);
    expect(m.html).toContain(`<a href="https://oficina.example.test/gastos?gasto=${g.id}#gasto">`);
    expect(m.headers?.["List-Unsubscribe"]).toBe("<https://oficina.example.test/avisos/preferencias>");
    expect(m.messageId).toMatch(/^<[0-9a-f-]{36}@oficina\.example\.test>$/);
    expect((await correos())[0]).toMatchObject({ estado: "enviado", intentos: 1 });
    expect(await deliverDue(delivery(async (x) => void sent.push(x)))).toMatchObject({ sent: 0 });
    expect(sent).toHaveLength(1);
  });

  it("un cambio de la cuenta de otra persona: su correo (asunto propio, enlace a su ficha), su aviso y su enlace", async () => {
    const iban = generateValidEsIban(8801);
    const client = await connect(app.url);
    try {
      await asUser(client, admin.id, (q) =>
        q("insert into public.datos_bancarios (usuario_id, iban) values ($1, $2)", [elena.id, iban]),
      );
    } finally {
      await client.end();
    }
    const sent: Mail[] = [];
    expect(await deliverDue(delivery(async (m) => void sent.push(m)))).toMatchObject({ sent: 1 });
    const m = sent[0]!;
    expect([m.to, m.subject]).toEqual([elena.email, "Cambio en la cuenta en la que cobra sus reembolsos"]);
    // Named with the address nobody can edit, beside the name anyone edits.
    expect(m.text).toContain(
      `Ana (${admin.email}) ha cambiado la cuenta en la que cobra sus reembolsos: ahora termina en ${iban.slice(-4)}`,
    );
    expect(m.text).toContain("Si no lo ha pedido usted, avise enseguida a otro administrador");
    expect(m.text).toContain("Los cambios de una cuenta bancaria se avisan siempre por correo");
    expect(m.text).toContain(`https://oficina.example.test/usuarios/${elena.id}#titulo-datos-bancarios`);
    expect(m.text).not.toContain(iban.slice(4, -4));
    // It cannot be turned off, so the mail offers no unsubscribe.
    expect(m.headers?.["List-Unsubscribe"]).toBeUndefined();
    // In the app: a link that marks it read and leads to her own page, where the account is.
    const lista = await import("~/routes/avisos._index");
    const abrir = await import("~/routes/avisos.$id");
    const r = await respond(() =>
      lista.loader({ request: request("/avisos", { cookie: elena.cookie }), context: app.context(), params: {} }),
    );
    const [aviso] = JSON.parse(await r.text()).avisos;
    expect(aviso).toMatchObject({ tipo: "cuenta", gasto_id: null, leido_en: null });
    const abierto = await respond(() =>
      abrir.loader({
        request: request(`/avisos/${aviso.id}`, { cookie: elena.cookie }),
        context: app.context(),
        params: { id: aviso.id },
      }),
    );
    expect([abierto.status, abierto.headers.get("Location")]).toEqual([
      302,
      `/usuarios/${elena.id}#titulo-datos-bancarios`,
    ]);
    await app.db.deleteFrom("datos_bancarios").where("usuario_id", "=", elena.id).execute();
  });

  it("la cuenta de un proveedor que cambia avisa a los demás administradores, no al alta ni a quien la cambió", async () => {
    const client = await connect(app.url);
    const comoAna = (sql: string, params: unknown[]) => asUser(client, admin.id, (q) => q(sql, params));
    try {
      const alta = await comoAna(
        "insert into public.proveedores (razon_social, tipo_persona, nif, iban) values ('Transportes Ebro SL', 'empresa', 'B12345674', $1) returning id",
        [generateValidEsIban(8802)],
      );
      const id: string = alta.rows[0].id;
      expect(await resumen()).toEqual([]);
      const nueva = generateValidEsIban(8803);
      await comoAna("update public.proveedores set iban = $1 where id = $2", [nueva, id]);
      expect(await resumen()).toEqual(["admin2:cuenta_proveedor"]);
      expect((await avisos())[0]!.datos).toEqual({
        proveedor_id: id,
        proveedor: "Transportes Ebro SL",
        final: nueva.slice(-4),
        autor: `Ana (${admin.email})`,
      });
      const sent: Mail[] = [];
      expect(await deliverDue(delivery(async (m) => void sent.push(m)))).toMatchObject({ sent: 1 });
      expect([sent[0]!.to, sent[0]!.subject]).toEqual([
        admin2.email,
        "Cambio en la cuenta de un proveedor: «Transportes Ebro SL»",
      ]);
      expect(sent[0]!.text).toContain(
        `Ana (${admin.email}) ha cambiado la cuenta de «Transportes Ebro SL»: ahora termina en ${nueva.slice(-4)}`,
      );
      expect(sent[0]!.text).toContain("confírmelo con el proveedor por un teléfono que ya tuviera");
      expect(sent[0]!.text).toContain(`https://oficina.example.test/proveedores/${id}`);
      expect(sent[0]!.headers?.["List-Unsubscribe"]).toBeUndefined();
      // Written again as it was, or with no one signed in: nothing more.
      await comoAna("update public.proveedores set iban = $1 where id = $2", [nueva, id]);
      await sql`update public.proveedores set iban = ${generateValidEsIban(8804)} where id = ${id}`.execute(app.db);
      expect(await resumen()).toEqual(["admin2:cuenta_proveedor"]);
      await app.db.deleteFrom("proveedores").where("id", "=", id).execute();
    } finally {
      await client.end();
    }
  });

  it("un correo que lleva un cambio de cuenta junto a avisos de gastos tampoco ofrece darse de baja", async () => {
    const g = await act(pablo, "aprobar", await act(elena, "enviar", await nuevo(elena)));
    const client = await connect(app.url);
    try {
      await asUser(client, admin.id, (q) =>
        q("insert into public.datos_bancarios (usuario_id, iban) values ($1, $2)", [
          elena.id,
          generateValidEsIban(8805),
        ]),
      );
    } finally {
      await client.end();
    }
    const sent: Mail[] = [];
    await deliverDue(delivery(async (m) => void sent.push(m)));
    const m = sent.find((x) => x.to === elena.email)!;
    expect(m.text).toContain(`Su gasto ${g.folio}`);
    expect(m.text).toContain("ha cambiado la cuenta en la que cobra sus reembolsos");
    expect(m.headers?.["List-Unsubscribe"]).toBeUndefined();
    // Pablo's mail (the gasto waiting for him) keeps it.
    expect(sent.find((x) => x.to === pablo.email)?.headers?.["List-Unsubscribe"]).toBe(
      "<https://oficina.example.test/avisos/preferencias>",
    );
    await app.db.deleteFrom("datos_bancarios").where("usuario_id", "=", elena.id).execute();
  });

  it("el texto de quien escribe no se hace pasar por una línea del correo", async () => {
    const fake = "Taxi\r\nAVISO DE SEGURIDAD: su cuenta caduca hoy, entre en https://evil.example/login";
    // The form refuses it, with a message, and writes nothing.
    const before = await app.db
      .selectFrom("gastos")
      .select(sql<number>`count(*)::int`.as("n"))
      .executeTakeFirstOrThrow();
    const refused = await post(
      {
        intent: "crear",
        descripcion: fake,
        fecha_gasto: hoy,
        categoria: "comidas",
        importe: "12,00",
        metodo_pago: "efectivo",
      },
      elena.cookie,
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Descripción: escríbalo en una sola línea");
    expect(
      await app.db
        .selectFrom("gastos")
        .select(sql<number>`count(*)::int`.as("n"))
        .executeTakeFirstOrThrow(),
    ).toEqual(before);

    // Text stored before the check (or a multi-line motivo) is quoted on one line in the mail.
    const g = await nuevo(elena);
    await app.db.updateTable("gastos").set({ descripcion: fake }).where("id", "=", g.id).execute();
    const sent: Mail[] = [];
    await act(elena, "enviar", await row(g.id));
    await deliverDue(delivery(async (m) => void sent.push(m)));
    const rechazado = await act(pablo, "rechazar", await row(g.id), {
      motivo: "Falta el ticket.\nAVISO DE SEGURIDAD: https://evil.example",
    });
    expect(rechazado.estado).toBe("rechazado");
    await deliverDue(delivery(async (m) => void sent.push(m)));
    expect(sent.map((m) => m.to)).toEqual([pablo.email, elena.email]);
    for (const m of sent) {
      const lines = m.text.split(/\r\n|\r|\n/);
      expect(lines.filter((l) => /AVISO DE SEGURIDAD/.test(l) && !/«/.test(l))).toEqual([]);
      expect(lines.some((l) => l.startsWith("AVISO"))).toBe(false);
      expect(m.text).toContain("«Taxi AVISO DE SEGURIDAD: su cuenta caduca hoy, entre en https://evil.example/login»");
    }
    expect(sent[1]!.text).toContain("Motivo: «Falta el ticket. AVISO DE SEGURIDAD: https://evil.example»");
  });

  it("como service_role (lo que hace PostgREST para el worker de Supabase): las mismas funciones, el mismo correo", async () => {
    const client = await connect(app.url);
    // Each call as PostgREST makes it: one transaction, the role switched to the key's role.
    const asServiceRole = async <T>(text: string, values: unknown[]): Promise<T> => {
      await client.query("begin");
      try {
        await client.query("set local role service_role");
        const r = await client.query(text, values);
        await client.query("commit");
        return r.rows[0]?.r as T;
      } catch (error) {
        await client.query("rollback");
        throw error;
      }
    };
    const outbox: Outbox = {
      scheduleDigests: (zone) => asServiceRole("select public.entrega_programar_resumenes($1) as r", [zone]),
      claim: (n, lease) => asServiceRole("select public.entrega_reclamar($1, $2::interval) as r", [n, lease]),
      sent: (id) => asServiceRole("select public.entrega_enviado($1) as r", [id]),
      failed: (id, e) => asServiceRole("select public.entrega_fallido($1, $2) as r", [id, e]),
    };
    try {
      const g = await act(elena, "enviar", await nuevo(elena));
      const sent: Mail[] = [];
      expect(await deliverDue({ ...delivery(async (m) => void sent.push(m)), outbox })).toMatchObject({ sent: 1 });
      expect(sent.map((m) => [m.to, m.subject])).toEqual([[pablo.email, `${g.folio} espera su aprobación`]]);
      expect((await correos())[0]).toMatchObject({ estado: "enviado", intentos: 1 });
      expect(await deliverDue({ ...delivery(async (m) => void sent.push(m)), outbox })).toMatchObject({ sent: 0 });
    } finally {
      await client.end();
    }
  });

  it("una aprobación en bloque de 12 gastos manda un correo a la solicitante, no 12", async () => {
    const gs = [];
    for (let i = 0; i < 12; i++) gs.push(await act(elena, "enviar", await nuevo(elena)));
    const r = await post(
      { intent: "aprobar_seleccion", seleccion: gs.map((g) => `${g.id}:${g.version}`), confirmado: "1" },
      pablo.cookie,
    );
    expect(r.status).toBe(302);
    const sent: Mail[] = [];
    await deliverDue(delivery(async (m) => void sent.push(m)));
    const paraElena = sent.filter((m) => m.to === elena.email);
    expect(paraElena).toHaveLength(1);
    expect(paraElena[0]!.subject).toBe("12 avisos de sus gastos");
    for (const g of gs) expect(paraElena[0]!.text).toContain(g.folio);
    expect(sent.filter((m) => m.to === pablo.email)).toHaveLength(1); // the 12 «enviado», one mail
  });

  it("cuatro entregas a la vez (varios servidores) mandan cada correo una vez", async () => {
    // 40 people with 3 avisos each, written as the workflow writes them.
    const people = await Promise.all(Array.from({ length: 40 }, (_, i) => app.createUser({ nombre: `Persona ${i}` })));
    const g = await nuevo(elena);
    for (const u of people)
      await sql`
        with a as (
          insert into public.avisos (destinatario_id, tipo, gasto_id, datos)
          select ${u.id}::uuid, 'aprobado', ${g.id}::uuid, jsonb_build_object('folio', 'GAS-X', 'descripcion', 'x', 'importe', '1.00')
            from generate_series(1, 3)
          returning id)
        insert into interno.correos (destinatario_id, aviso_id) select ${u.id}::uuid, id from a`.execute(app.db);
    const sent: Mail[] = [];
    const mail = async (m: Mail) => {
      await new Promise((r) => setTimeout(r, 2));
      sent.push(m);
    };
    const worker = async () => {
      for (let i = 0; i < 40; i++) if ((await deliverDue({ ...delivery(mail), batch: 3 })).sent === 0 && i > 3) return;
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    expect(sent).toHaveLength(40);
    expect(new Set(sent.map((m) => m.messageId)).size).toBe(40);
    expect(new Set(sent.map((m) => m.to)).size).toBe(40);
    expect(sent.every((m) => m.subject === "3 avisos de sus gastos")).toBe(true);
    const c = await correos();
    expect(c.filter((x) => x.estado === "enviado")).toHaveLength(120);
    expect(c.every((x) => x.intentos === 1)).toBe(true);
  });

  it("un fallo de SMTP se reintenta con espera y no se pierde; tras el límite queda «fallido» con el error", async () => {
    await act(elena, "enviar", await nuevo(elena));
    const down = async () => {
      throw new Error("connect ECONNREFUSED 127.0.0.1:2525");
    };
    expect(await deliverDue(delivery(down))).toMatchObject({ sent: 0, failed: 1 });
    const [c] = await correos();
    expect(c).toMatchObject({ estado: "pendiente", intentos: 1, ultimo_error: "connect ECONNREFUSED 127.0.0.1:2525" });
    // Not due again yet (backoff).
    expect(await deliverDue(delivery(down))).toMatchObject({ failed: 0 });
    await sql`update interno.correos set disponible_en = now()`.execute(app.db);
    const sent: Mail[] = [];
    expect(await deliverDue(delivery(async (m) => void sent.push(m)))).toMatchObject({ sent: 1 });
    expect(sent[0]!.messageId).toContain(c!.mensaje_id!); // the same message as the failed try
    // The limit.
    await act(marta, "enviar", await nuevo(marta));
    await sql`update interno.ajustes set avisos_intentos = 2`.execute(app.db);
    try {
      for (let i = 0; i < 3; i++) {
        await sql`update interno.correos set disponible_en = now() where estado = 'pendiente'`.execute(app.db);
        await deliverDue(delivery(down));
      }
      const fallido = (await correos()).find((x) => x.estado === "fallido");
      expect(fallido).toMatchObject({ intentos: 2, ultimo_error: expect.stringContaining("ECONNREFUSED") });
    } finally {
      await sql`update interno.ajustes set avisos_intentos = 8`.execute(app.db);
    }
  });

  it("un envío interrumpido (el servidor muere tras mandarlo) se repite con el mismo Message-ID y el buzón lo guarda una vez", async () => {
    await act(elena, "enviar", await nuevo(elena));
    const before = mailbox();
    // A sender claims and sends, then dies before marking it sent.
    const { rows } = await sql<{
      mensaje_id: string;
    }>`select mensaje_id from interno.reclamar_correos(10, '0.5 seconds'::interval)`.execute(app.db);
    const crashed = createMailer({ from: "oficina@example.test", outboxDir: outbox });
    await crashed({
      to: pablo.email,
      subject: "x",
      text: "x",
      messageId: `<${rows[0]!.mensaje_id}@oficina.example.test>`,
    });
    // Until the claim expires, nobody sends it again; once it has (moved into the past here),
    // the next pass does.
    expect(await deliverDue(delivery())).toMatchObject({ sent: 0 });
    await sql`update interno.correos set reclamado_hasta = now() - interval '1 second'
               where mensaje_id = ${rows[0]!.mensaje_id}`.execute(app.db);
    expect(await deliverDue(delivery())).toMatchObject({ sent: 1 });
    const after = mailbox();
    expect(after.messages.length - before.messages.length).toBe(1);
    expect(after.repeats - before.repeats).toBe(1);
    expect((await correos())[0]).toMatchObject({ estado: "enviado", intentos: 2 });
  });

  it("resumen diario: sin correo por gasto; uno al día con los pendientes, el más antiguo primero", async () => {
    await app.db.insertInto("resumen_diario").values({ usuario_id: pablo.id, hora: 0 }).execute();
    try {
      const g1 = await act(elena, "enviar", await nuevo(elena));
      const g2 = await act(marta, "enviar", await nuevo(marta));
      expect(await resumen()).toEqual(["pablo:enviado", "pablo:enviado"]); // in the app, as always
      const sent: Mail[] = [];
      const pass = await deliverDue(delivery(async (m) => void sent.push(m)));
      expect(pass.digests).toBe(1);
      const paraPablo = sent.filter((m) => m.to === pablo.email);
      expect(paraPablo).toHaveLength(1);
      expect(paraPablo[0]!.subject).toMatch(/^Tiene \d+ gastos pendientes de aprobar$/);
      expect(paraPablo[0]!.text.indexOf(g1.folio)).toBeLessThan(paraPablo[0]!.text.indexOf(g2.folio));
      expect((await deliverDue(delivery(async (m) => void sent.push(m)))).digests).toBe(0); // once a day
    } finally {
      await app.db.deleteFrom("resumen_diario").execute();
      await sql`update gastos set estado = 'borrador', aprobador_id = null where estado = 'pendiente'`.execute(app.db);
    }
  });
});

describe("RLS: cada cual lee y marca solo los suyos; la cola de correo es del servidor", () => {
  it("avisos propios, marcar como leídos, y nada más", async () => {
    await act(elena, "enviar", await nuevo(elena));
    const client = await connect(app.url);
    try {
      expect(await asUser(client, elena.id, (q) => q("select * from public.avisos").then((r) => r.rowCount))).toBe(0);
      expect(await asUser(client, pablo.id, (q) => q("select * from public.avisos").then((r) => r.rowCount))).toBe(1);
      expect(
        await asUser(client, elena.id, (q) => q("select public.marcar_avisos_leidos() as n").then((r) => r.rows[0].n)),
      ).toBe(0);
      expect(
        await asUser(client, pablo.id, (q) => q("select public.marcar_avisos_leidos() as n").then((r) => r.rows[0].n)),
      ).toBe(1);
      const e = await pgError(asUser(client, elena.id, (q) => q("select * from interno.correos")));
      expect(e.code).toBe("42501");
      const f = await pgError(asUser(client, pablo.id, (q) => q("update public.avisos set datos = '{}'")));
      expect(f.code).toBe("42501");
      const h = await pgError(asUser(client, pablo.id, (q) => q("select interno.reclamar_correos(1, '1 minute')")));
      expect(h.code).toBe("42501");
      // The sender's functions (what the service role calls on Supabase) are nobody else's.
      for (const call of [
        "select public.entrega_reclamar(1, '1 minute')",
        "select public.entrega_enviado('x')",
        "select public.entrega_fallido('x', 'y')",
        "select public.entrega_programar_resumenes('Europe/Madrid')",
      ])
        expect((await pgError(asUser(client, admin.id, (q) => q(call)))).code).toBe("42501");
      // Only an administrador changes the defaults.
      expect(
        await asUser(client, elena.id, (q) =>
          q("update public.avisos_predeterminados set canal = 'nada'").then((r) => r.rowCount),
        ),
      ).toBe(0);
    } finally {
      await client.end();
    }
  });
});

describe("pantallas: /avisos y /avisos/preferencias", () => {
  const load = async (mod: { loader: (a: never) => unknown }, p: string, u: U) => {
    const r = await respond(() =>
      mod.loader({ request: request(p, { cookie: u.cookie }), context: app.context(), params: {} } as never),
    );
    expect(r.status, await r.clone().text()).toBe(200);
    return JSON.parse(await r.text());
  };
  const send = (mod: { action: (a: never) => unknown }, p: string, u: U, form: Record<string, string>) =>
    respond(() =>
      mod.action({ request: request(p, { cookie: u.cookie, form }), context: app.context(), params: {} } as never),
    );

  it("la lista, los nuevos primero, y «marcar todos como leídos»", async () => {
    const avisosRoute = await import("~/routes/avisos._index");
    const g1 = await act(elena, "enviar", await nuevo(elena));
    const g2 = await act(marta, "enviar", await nuevo(marta));
    const antes = await load(avisosRoute, "/avisos", pablo);
    expect(antes).toMatchObject({ total: 2, sinLeer: 2 });
    expect(antes.avisos.map((a: { datos: { folio: string } }) => a.datos.folio)).toEqual([g2.folio, g1.folio]);
    expect(await load(avisosRoute, "/avisos", elena)).toMatchObject({ total: 0, sinLeer: 0 });
    const uno = await send(avisosRoute, "/avisos", pablo, { id: antes.avisos[0].id });
    expect(uno.status).toBe(302);
    expect(await load(avisosRoute, "/avisos", pablo)).toMatchObject({ sinLeer: 1 });
    // A malformed id marks nothing (not «all»).
    const malo = await send(avisosRoute, "/avisos", pablo, { id: "no-es-un-id" });
    expect(malo.status).toBe(302);
    expect(await load(avisosRoute, "/avisos", pablo)).toMatchObject({ sinLeer: 1 });
    // Someone else's id marks nothing.
    await send(avisosRoute, "/avisos", elena, { id: antes.avisos[1].id });
    expect(await load(avisosRoute, "/avisos", pablo)).toMatchObject({ sinLeer: 1 });
    expect((await send(avisosRoute, "/avisos", pablo, {})).status).toBe(302);
    expect(await load(avisosRoute, "/avisos", pablo)).toMatchObject({ total: 2, sinLeer: 0 });
  });

  it("abrir un aviso (/avisos/{id}) lo marca leído y lleva a la ficha de su gasto; el de otro, 404 y sin cambios", async () => {
    const avisosRoute = await import("~/routes/avisos._index");
    const abrirRoute = await import("~/routes/avisos.$id");
    const g = await act(elena, "enviar", await nuevo(elena));
    const { avisos: lista } = await load(avisosRoute, "/avisos", pablo);
    const aviso = lista.find((a: { gasto_id: string }) => a.gasto_id === g.id);
    const abrir = (u: U, id: string) =>
      respond(() =>
        abrirRoute.loader({
          request: request(`/avisos/${id}`, { cookie: u.cookie }),
          context: app.context(),
          params: { id },
        } as never),
      );
    const ajeno = await abrir(elena, aviso.id);
    expect(ajeno.status).toBe(404);
    expect(
      (await load(avisosRoute, "/avisos", pablo)).avisos.find((a: { id: string }) => a.id === aviso.id),
    ).toMatchObject({ leido_en: null });
    const r = await abrir(pablo, aviso.id);
    expect([r.status, r.headers.get("Location")]).toEqual([302, `/gastos?gasto=${g.id}#gasto`]);
    const despues = (await load(avisosRoute, "/avisos", pablo)).avisos.find((a: { id: string }) => a.id === aviso.id);
    expect(despues.leido_en).not.toBeNull();
    expect((await abrir(pablo, "no-es-un-id")).status).toBe(404);
  });

  it("las preferencias propias se guardan; un valor que no está en la lista se dice y no cambia nada", async () => {
    const pref = await import("~/routes/avisos.preferencias");
    expect(await load(pref, "/avisos/preferencias", elena)).toMatchObject({
      canales: { enviado: "correo", aprobado: "correo", rechazado: "correo", pagado: "correo", revertido: "correo" },
      resumenHora: null,
      puedeResumen: false,
      admin: false,
      fallidos: null,
    });
    const todos = { enviado: "correo", aprobado: "app", rechazado: "correo", pagado: "nada", revertido: "correo" };
    const bad = await send(pref, "/avisos/preferencias", elena, { ...todos, pagado: "fax", intent: "guardar" });
    expect(bad.status).toBe(400);
    expect(JSON.parse(await bad.text()).errores).toEqual({ pagado: "Elija cómo quiere el aviso «Su gasto se paga»." });
    const resumenEmpleado = await send(pref, "/avisos/preferencias", elena, {
      ...todos,
      resumen_hora: "8",
      intent: "guardar",
    });
    expect(resumenEmpleado.status).toBe(400);
    expect(await app.db.selectFrom("preferencias_avisos").selectAll().execute()).toEqual([]);
    expect((await send(pref, "/avisos/preferencias", elena, { ...todos, intent: "guardar" })).status).toBe(302);
    expect((await load(pref, "/avisos/preferencias", elena)).canales).toEqual(todos);
    expect(
      (await send(pref, "/avisos/preferencias", pablo, { ...todos, resumen_hora: "8", intent: "guardar" })).status,
    ).toBe(302);
    expect(await load(pref, "/avisos/preferencias", pablo)).toMatchObject({ resumenHora: 8, puedeResumen: true });
    await app.db.deleteFrom("preferencias_avisos").execute();
    await app.db.deleteFrom("resumen_diario").execute();
  });

  it("a un empleado no se le ofrece «Un gasto espera su aprobación»; lo que eligió antes se conserva", async () => {
    const pref = await import("~/routes/avisos.preferencias");
    const todos = ["enviado", "aprobado", "rechazado", "pagado", "revertido"];
    expect((await load(pref, "/avisos/preferencias", elena)).tipos).toEqual(todos.filter((t) => t !== "enviado"));
    expect((await load(pref, "/avisos/preferencias", pablo)).tipos).toEqual(todos);
    // Chosen when she approved gastos, before her role changed.
    await app.db
      .insertInto("preferencias_avisos")
      .values({ usuario_id: elena.id, tipo: "enviado", canal: "nada" })
      .execute();
    const suyas = { aprobado: "app", rechazado: "correo", pagado: "nada", revertido: "correo" };
    expect((await send(pref, "/avisos/preferencias", elena, { ...suyas, intent: "guardar" })).status).toBe(302);
    expect((await load(pref, "/avisos/preferencias", elena)).canales).toEqual({ ...suyas, enviado: "nada" });
    // Without a choice of her own, it stays the installation's default.
    await app.db.deleteFrom("preferencias_avisos").execute();
    expect((await send(pref, "/avisos/preferencias", elena, { ...suyas, intent: "guardar" })).status).toBe(302);
    expect(
      await app.db
        .selectFrom("preferencias_avisos")
        .select("tipo")
        .where("usuario_id", "=", elena.id)
        .orderBy("tipo")
        .execute(),
    ).toEqual(["aprobado", "pagado", "rechazado", "revertido"].map((tipo) => ({ tipo })));
    await app.db.deleteFrom("preferencias_avisos").execute();
  });

  it("los predeterminados y los correos no entregados: solo administradores", async () => {
    const pref = await import("~/routes/avisos.preferencias");
    const todos = {
      defecto_enviado: "correo",
      defecto_aprobado: "correo",
      defecto_rechazado: "correo",
      defecto_pagado: "app",
      defecto_revertido: "correo",
    };
    expect((await send(pref, "/avisos/preferencias", pablo, { ...todos, intent: "predeterminados" })).status).toBe(403);
    expect((await send(pref, "/avisos/preferencias", admin, { ...todos, intent: "predeterminados" })).status).toBe(302);
    expect((await load(pref, "/avisos/preferencias", elena)).canales.pagado).toBe("app");
    await sql`update public.avisos_predeterminados set canal = 'correo'`.execute(app.db);
    // A mail that failed for good shows with its error, and «Reintentar todos» queues it again.
    await act(elena, "enviar", await nuevo(elena));
    await sql`update interno.correos set estado = 'fallido', intentos = 8, ultimo_error = '550 mailbox unavailable'`.execute(
      app.db,
    );
    const vista = await load(pref, "/avisos/preferencias", admin);
    expect(vista.fallidos).toEqual([
      expect.objectContaining({
        destinatario: pablo.email,
        tipo: "enviado",
        intentos: 8,
        ultimo_error: "550 mailbox unavailable",
      }),
    ]);
    expect((await send(pref, "/avisos/preferencias", pablo, { intent: "reintentar" })).status).toBe(403);
    expect((await send(pref, "/avisos/preferencias", admin, { intent: "reintentar" })).status).toBe(302);
    expect(await correos()).toEqual([expect.objectContaining({ estado: "pendiente", intentos: 0 })]);
  });

  it("cada correo no entregado se reintenta o se descarta por separado, y el panel del administrador lo cuenta", async () => {
    const pref = await import("~/routes/avisos.preferencias");
    const inicio = await import("~/routes/_index");
    await sql`delete from interno.correos`.execute(app.db);
    await act(elena, "enviar", await nuevo(elena));
    await act(elena, "enviar", await nuevo(elena));
    await sql`update interno.correos set estado = 'fallido', intentos = 8, ultimo_error = 'connect ECONNREFUSED 127.0.0.1:2599'`.execute(
      app.db,
    );
    const [uno, otro] = (
      await sql<{ id: string }>`select id from interno.correos order by creado_en, id`.execute(app.db)
    ).rows;
    expect((await load(inicio, "/", admin)).correosSinEntregar).toBe(2);
    expect((await load(inicio, "/", pablo)).correosSinEntregar).toBe(0);

    // Someone else's buttons do nothing: only an administrador retries or discards.
    for (const intent of ["reintentar", "descartar"])
      expect((await send(pref, "/avisos/preferencias", pablo, { intent, correo: uno!.id })).status).toBe(403);
    // A tampered id is refused, not a 500.
    expect((await send(pref, "/avisos/preferencias", admin, { intent: "descartar", correo: "x' or 1=1" })).status).toBe(
      400,
    );

    expect((await send(pref, "/avisos/preferencias", admin, { intent: "descartar", correo: uno!.id })).status).toBe(
      302,
    );
    expect((await send(pref, "/avisos/preferencias", admin, { intent: "reintentar", correo: otro!.id })).status).toBe(
      302,
    );
    const estados = await sql<{ id: string; estado: string }>`select id, estado from interno.correos`.execute(app.db);
    expect(Object.fromEntries(estados.rows.map((r) => [r.id, r.estado]))).toEqual({
      [uno!.id]: "descartado",
      [otro!.id]: "pendiente",
    });
    // Discarded is gone from the list and the panel; retrying it again changes nothing.
    expect((await load(pref, "/avisos/preferencias", admin)).fallidos).toEqual([]);
    expect((await load(inicio, "/", admin)).correosSinEntregar).toBe(0);
    const r = await send(pref, "/avisos/preferencias", admin, { intent: "reintentar", correo: uno!.id });
    expect(r.status).toBe(302);
    expect(
      (await sql<{ estado: string }>`select estado from interno.correos where id = ${uno!.id}`.execute(app.db)).rows[0]
        ?.estado,
    ).toBe("descartado");
  });
});
