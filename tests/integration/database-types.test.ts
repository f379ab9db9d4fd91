import { readFileSync } from "node:fs";
import { DATABASE_TYPES, databaseTypes } from "../../scripts/db-types";
import { createTestDatabase } from "../support/database";

/**
 * app/data/database.ts is generated from the migrated schema (`npm run db:types`). A migration
 * that changes a table or a view without regenerating it fails here, not in a query at run time.
 */
test("app/data/database.ts describe el esquema migrado (si no: npm run db:types)", async () => {
  const generated = await databaseTypes(await createTestDatabase());
  expect(readFileSync(DATABASE_TYPES, "utf8")).toBe(generated);
});
