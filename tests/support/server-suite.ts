import {
  killEverything,
  removeDataDir,
  startServer,
  stopServer,
  type ServerOptions,
  type ServerProcess,
} from "./server-process";

/**
 * A suite's own server process: started on an empty data directory, and afterwards stopped (or
 * killed, with whatever it left running) and its data directory removed.
 */
export function startOnEmptyDataDir(options: ServerOptions): Promise<ServerProcess> {
  removeDataDir(options.dataDir);
  return startServer(options);
}

export async function disposeServer(server: ServerProcess | undefined, dataDir: string) {
  if (server?.alive()) await stopServer(server).catch(() => undefined);
  await killEverything(server, dataDir);
  removeDataDir(dataDir);
}
