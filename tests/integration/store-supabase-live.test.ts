import { randomBytes } from "node:crypto";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { supabaseAuth } from "~/auth/supabase.server";
import { NoRealtime, supabaseStore } from "~/data/supabase.server";
import { storeContract } from "./store-contract";

/**
 * The store contract — and the account flows — against a LIVE Supabase project, through the same
 * adapters the server uses. Runs only when a test project is configured:
 *
 *   SUPABASE_URL=https://<ref>.supabase.co SUPABASE_ANON_KEY=… SUPABASE_SERVICE_ROLE_KEY=… npm run test:supabase
 *
 * The project must have supabase/migrations applied (`supabase db push`). The service-role key is
 * used here ONLY by the test harness: to create two confirmed accounts, give them their roles and
 * delete everything afterwards. The adapters under test never see it. Use a project for tests,
 * never production data: the suite writes and deletes records.
 */
const url = process.env.SUPABASE_URL?.trim().replace(/\/+$/, "");
const anonKey = process.env.SUPABASE_ANON_KEY?.trim();
const serviceKey = process.env.SUPABASE_SERVICE_ROLE_KEY?.trim();
const live = Boolean(url && anonKey && serviceKey);

if (!live) {
  console.info(
    "store-supabase-live: omitido — no hay proyecto de Supabase configurado. Defina SUPABASE_URL, SUPABASE_ANON_KEY y SUPABASE_SERVICE_ROLE_KEY de un proyecto de pruebas y ejecute `npm run test:supabase` (docs/supabase.md).",
  );
  describe.skipIf(!live)("contrato del almacén — Supabase (proyecto real)", () => {
    it("necesita SUPABASE_URL, SUPABASE_ANON_KEY y SUPABASE_SERVICE_ROLE_KEY", () => {});
  });
} else {
  const PASSWORD = `Prueba-${randomBytes(9).toString("base64url")}-1`;
  const ORIGIN = "http://oficina.test";
  const tag = randomBytes(3).toString("hex");
  const service: SupabaseClient = createClient(url!, serviceKey!, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtime as never },
  });
  const auth = supabaseAuth({ url: url!, anonKey: anonKey!, secure: false, siteUrl: "http://localhost:3000" });
  const created: string[] = [];

  /** A confirmed account with its profile set by the owner; returns its id. */
  async function account(nombre: string, rol: "administrador" | "empleado") {
    const email = `oficina-prueba-${tag}-${nombre.toLowerCase()}@example.com`;
    const { data, error } = await service.auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { nombre },
    });
    if (error || !data.user) throw new Error(`No se pudo crear la cuenta de prueba: ${error?.message}`);
    created.push(data.user.id);
    const { error: profile } = await service.from("usuarios").update({ rol, activo: true }).eq("id", data.user.id);
    if (profile)
      throw new Error(
        `No se pudo dar el rol: ${profile.message} (¿se aplicaron las migraciones con supabase db push?)`,
      );
    return { id: data.user.id, email };
  }

  async function signIn(email: string) {
    const result = await auth.signIn(new Request(`${ORIGIN}/login`, { method: "POST" }), email, PASSWORD);
    if (!result.ok) throw new Error(`No se pudo iniciar sesión como ${email}: ${result.reason}`);
    return result;
  }

  /** Everything the test accounts created (found through the history the triggers wrote), then the accounts. */
  async function cleanUp() {
    if (!created.length) return;
    await service.from("gastos").delete().in("solicitante_id", created);
    const { data: history } = await service
      .from("historial")
      .select("tabla, registro_id")
      .in("actor_id", created)
      .eq("accion", "alta");
    for (const table of ["departamentos", "sucursales", "proveedores"]) {
      const ids = (history ?? []).filter((h) => h.tabla === table).map((h) => h.registro_id as string);
      if (ids.length) await service.from(table).delete().in("id", ids);
    }
    for (const id of created) await service.auth.admin.deleteUser(id);
    created.length = 0;
  }

  storeContract("Supabase (proyecto real)", async () => {
    const admin = await account("Ana", "administrador");
    const empleado = await account("Eva", "empleado");
    const a = await signIn(admin.email);
    const e = await signIn(empleado.email);
    return {
      admin: supabaseStore({ url: url!, anonKey: anonKey! }, a.session.accessToken!),
      adminId: admin.id,
      empleado: supabaseStore({ url: url!, anonKey: anonKey! }, e.session.accessToken!),
      empleadoId: empleado.id,
      close: cleanUp,
    };
  });

  describe("cuentas — Supabase Auth (proyecto real)", () => {
    let user: { id: string; email: string };

    beforeAll(async () => {
      await account("Admin", "administrador"); // someone must stay administrador
      user = await account("Luis", "empleado");
    });
    afterAll(cleanUp);

    it("credenciales erróneas: «credentials», sin cookies", async () => {
      expect(
        await auth.signIn(new Request(`${ORIGIN}/login`, { method: "POST" }), user.email, "no-es-la-clave-123"),
      ).toEqual({ ok: false, reason: "credentials" });
    });

    it("inicio de sesión → cookie → getSession valida el JWT con Supabase Auth; cerrar sesión la invalida", async () => {
      const started = await signIn(user.email);
      const cookie = started.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      expect(cookie).toMatch(/^sb-oficina-auth-token=/);
      const { session } = await auth.getSession(new Request(ORIGIN, { headers: { Cookie: cookie } }));
      expect(session).toEqual({ userId: user.id, accessToken: started.session.accessToken });
      const me = await supabaseStore({ url: url!, anonKey: anonKey! }, session!.accessToken!).get<{ email: string }>(
        "usuarios",
        user.id,
      );
      expect(me.email).toBe(user.email);

      const cleared = await auth.signOut(
        new Request(`${ORIGIN}/logout`, { method: "POST", headers: { Cookie: cookie } }),
      );
      expect(cleared.getSetCookie().some((c) => /max-age=0/i.test(c))).toBe(true);
      expect((await auth.getSession(new Request(ORIGIN, { headers: { Cookie: cookie } }))).session).toBeNull();
    });

    it("un perfil inactivo no entra («inactive») y su JWT no ve nada", async () => {
      const before = await signIn(user.email);
      await service.from("usuarios").update({ activo: false }).eq("id", user.id);
      try {
        expect(await auth.signIn(new Request(`${ORIGIN}/login`, { method: "POST" }), user.email, PASSWORD)).toEqual({
          ok: false,
          reason: "inactive",
        });
        const { rows } = await supabaseStore({ url: url!, anonKey: anonKey! }, before.session.accessToken!).list(
          "departamentos",
          { limit: 1, offset: 0, count: "exact" },
        );
        expect(rows).toEqual([]);
        await auth.endSessionsOf(user.id);
      } finally {
        await service.from("usuarios").update({ activo: true }).eq("id", user.id);
      }
    });
  });
}
