import { arrancarServidor, iniciarSesion } from "/work/main/scripts/bench/servidor";
import { DEMO_ACCOUNTS } from "/work/main/scripts/seed/catalog/organization";
const [dir, url, ruta, out] = process.argv.slice(2);
const s = await arrancarServidor({ nombre: "A", dir: dir!, env: {}, node: [] }, { databaseUrl: url!, datos: "/tmp/fp-datos" });
try {
  const cookie = await iniciarSesion(s.base, DEMO_ACCOUNTS.administrador);
  const html = await fetch(s.base + ruta, { headers: { cookie } }).then((r) => r.text());
  (await import("node:fs")).writeFileSync(out!, html);
} finally { await s.detener(); }
