import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { bodyPolicyFor, hostOf, inspectBody, MAX_FIELDS, placeOf, sessionSecretFromDataDir } from "./edge";

const appUrl = "https://oficina.empresa.es";

describe("placeOf: the origin a request was addressed to", () => {
  it.each([
    ["oficina.empresa.es", "https://oficina.empresa.es"],
    ["OFICINA.empresa.es:8080", "https://oficina.empresa.es"],
    ["localhost:3000", "http://localhost:3000"],
    ["127.0.0.1:3000", "http://127.0.0.1:3000"],
    ["[::1]:3000", "http://[::1]:3000"],
    ["LocalHost", "http://localhost"],
  ])("answers %j as %j", (host, origin) => {
    expect(placeOf(host, "http", { appUrl })).toEqual({ ok: true, origin });
  });

  it.each([
    undefined,
    "",
    "evil.example",
    "oficina.empresa.es.evil.example",
    "evil.example@localhost",
    "localhost.",
    "127.0.0.2",
    "localhost:99999",
    "a b",
    "x/y",
    "localhost:3000, evil.example",
    "[::2]:3000",
    "0.0.0.0:3000",
  ])("refuses %j", (host) => {
    expect(placeOf(host, "http", { appUrl }).ok).toBe(false);
  });

  it("APP_URL itself on the default localhost: the origin the browser is at, whatever the port", () => {
    expect(placeOf("localhost:8080", "http", { appUrl: "http://localhost:3000" })).toEqual({
      ok: true,
      origin: "http://localhost:8080",
    });
  });
});

describe("hostOf", () => {
  const headers = (h: Record<string, string>) => (name: string) => h[name.toLowerCase()];
  it("reads X-Forwarded-Host (its first value) only from a trusted proxy", () => {
    const get = headers({ host: "127.0.0.1:3000", "x-forwarded-host": "evil.example, oficina.empresa.es" });
    expect(hostOf(get, false)).toBe("127.0.0.1:3000");
    expect(hostOf(get, true)).toBe("evil.example");
    expect(hostOf(headers({ host: "127.0.0.1:3000" }), true)).toBe("127.0.0.1:3000");
  });
});

describe("inspectBody", () => {
  const policy = bodyPolicyFor("/login");
  const form = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => `f${i}=v`).join("&"));
  const multipart = (n: number, end = true) =>
    Buffer.from(
      Array.from({ length: n }, (_, i) => `--B\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join("") +
        (end ? "--B--\r\n" : ""),
    );

  it("lets forms up to MAX_FIELDS fields through and refuses one more (413)", async () => {
    expect(MAX_FIELDS).toBe(1000);
    expect(await inspectBody("application/x-www-form-urlencoded", form(1000), policy)).toEqual({
      ok: true,
      contentType: "application/x-www-form-urlencoded",
    });
    expect(await inspectBody("application/x-www-form-urlencoded", form(1001), policy)).toMatchObject({
      ok: false,
      refusal: { status: 413 },
    });
    expect(await inspectBody("multipart/form-data; boundary=B", multipart(1000), policy)).toMatchObject({ ok: true });
    expect(await inspectBody('multipart/form-data; boundary="B"', multipart(1001), policy)).toMatchObject({
      ok: false,
      refusal: { status: 413 },
    });
  });

  it("refuses malformed multipart (400) and what is not a form (415); an empty body is an empty form", async () => {
    expect(await inspectBody("multipart/form-data", multipart(1), policy)).toMatchObject({
      ok: false,
      refusal: { status: 400 },
    });
    expect(await inspectBody("multipart/form-data; boundary=B", multipart(2, false), policy)).toMatchObject({
      ok: false,
      refusal: { status: 400 },
    });
    expect(
      await inspectBody("multipart/form-data; boundary=B", Buffer.from("--B\r\nContent-Disp"), policy),
    ).toMatchObject({ ok: false, refusal: { status: 400 } });
    expect(await inspectBody("application/json", Buffer.from("{}"), policy)).toMatchObject({
      ok: false,
      refusal: { status: 415 },
    });
    expect(await inspectBody(undefined, Buffer.from("a=b"), policy)).toMatchObject({
      ok: false,
      refusal: { status: 415 },
    });
    expect(await inspectBody(undefined, Buffer.alloc(0), policy)).toEqual({
      ok: true,
      contentType: "application/x-www-form-urlencoded",
    });
  });
});

describe("sessionSecretFromDataDir", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "oficina-secreto-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("creates a random secret with mode 0600 once and reads the same one later", () => {
    const first = sessionSecretFromDataDir(path.join(dir, "datos"));
    expect(first.created).toBe(true);
    expect(first.secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(statSync(first.file).mode & 0o777).toBe(0o600);
    const second = sessionSecretFromDataDir(path.join(dir, "datos"));
    expect(second).toEqual({ ...first, created: false });
    expect(sessionSecretFromDataDir(path.join(dir, "otros")).secret).not.toBe(first.secret);
  });

  it("refuses a file others can read, a malformed one and a symbolic link, in Spanish", () => {
    const { file } = sessionSecretFromDataDir(dir);
    chmodSync(file, 0o644);
    expect(() => sessionSecretFromDataDir(dir)).toThrow(/tiene permisos 0644.*chmod 600/);
    chmodSync(file, 0o600);
    writeFileSync(file, "corta\n");
    expect(() => sessionSecretFromDataDir(dir)).toThrow(/no contiene una clave de sesión válida/);
    rmSync(file);
    const elsewhere = path.join(dir, "otra");
    writeFileSync(elsewhere, "x".repeat(64), { mode: 0o600 });
    symlinkSync(elsewhere, file);
    expect(() => sessionSecretFromDataDir(dir)).toThrow(/no es un archivo normal/);
    expect(readFileSync(elsewhere, "utf8")).toBe("x".repeat(64));
  });
});
