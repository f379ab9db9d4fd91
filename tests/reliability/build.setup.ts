import { buildOnce } from "../support/server-process";

/** The suites that start real server processes share one production build, made once per run. */
export default async function setup() {
  await buildOnce();
}
