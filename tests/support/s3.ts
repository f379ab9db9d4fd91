import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import type { AlmacenS3Config } from "~/lib/env.server";

/**
 * A real S3 API on loopback for the tests: s3rver (files in `dir`), in a process of its own.
 * Its ListObjectsV2 continuation tokens are DES-encrypted, a cipher OpenSSL 3 keeps in its
 * legacy provider: that process alone runs with it. Ready when it prints the port it listens on.
 */
export type S3Local = {
  endpoint: string;
  /** The server's environment for this store (ALMACEN_URL and its connection). */
  env(bucket: string, prefijo?: string): Record<string, string>;
  /** The adapter's configuration for this store. */
  config(bucket: string, prefijo?: string): AlmacenS3Config;
  /** A client of the store, as the tests look at it. */
  client: S3Client;
  crearBucket(bucket: string): Promise<void>;
  stop(): Promise<void>;
};

// s3rver's own fixed credentials.
const CLAVES = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export async function startS3(dir: string): Promise<S3Local> {
  mkdirSync(dir, { recursive: true });
  const bin = path.join(path.dirname(createRequire(import.meta.url).resolve("s3rver/package.json")), "bin/s3rver.js");
  const child = spawn(
    process.execPath,
    ["--openssl-legacy-provider", bin, "-d", dir, "-a", "127.0.0.1", "-p", "0", "--silent", "--no-vhost-buckets"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const leer = (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const m = /S3rver listening on [\d.]+:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    };
    child.stdout!.on("data", leer);
    child.stderr!.on("data", leer);
    child.once("exit", (code) => reject(new Error(`s3rver terminó (${code}) antes de escuchar:\n${out}`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const config = (bucket: string, prefijo = ""): AlmacenS3Config => ({
    bucket,
    prefijo: prefijo ? `${prefijo.replace(/\/+$/, "")}/` : "",
    endpoint,
    region: "us-east-1",
    credenciales: CLAVES,
    pathStyle: true,
  });
  const client = new S3Client({ endpoint, region: "us-east-1", credentials: CLAVES, forcePathStyle: true });
  return {
    endpoint,
    client,
    config,
    env: (bucket, prefijo = "") => ({
      ALMACEN_URL: `s3://${bucket}${prefijo ? `/${prefijo}` : ""}`,
      S3_ENDPOINT: endpoint,
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: CLAVES.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CLAVES.secretAccessKey,
    }),
    crearBucket: async (Bucket) => {
      await client.send(new CreateBucketCommand({ Bucket }));
    },
    async stop() {
      client.destroy();
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
