import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { closedToOthers } from "./embedded.server";

describe("closedToOthers: what the embedded PostgreSQL (user postgres) cannot reach when run as root", () => {
  const base = mkdtempSync(path.join(os.tmpdir(), "oficina-paso-"));
  chmodSync(base, 0o755); // mkdtemp makes it 0700
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("names the first folder on the way without «x» for others (root's 0700 home, say)", () => {
    const home = path.join(base, "casa");
    mkdirSync(path.join(home, "oficina", "data"), { recursive: true });
    chmodSync(home, 0o700);
    expect(closedToOthers([path.join(home, "oficina", "data")])).toBe(home);
    chmodSync(home, 0o711);
    expect(closedToOthers([path.join(home, "oficina", "data")])).toBeNull();
  });

  it("a folder not made yet is no obstacle, nor a missing target", () => {
    expect(closedToOthers([path.join(base, "aun", "no", "existe"), null])).toBeNull();
  });
});
