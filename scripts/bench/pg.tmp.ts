import { startEmbeddedPostgres } from "../../app/data/embedded.server";
const pg = await startEmbeddedPostgres(process.argv[2]!, { settings: ["shared_preload_libraries=pg_stat_statements","pg_stat_statements.track=top","pg_stat_statements.track_utility=on","pg_stat_statements.track_planning=on"] });
console.log(pg.url);
process.on("SIGTERM", async () => { await pg.stop(); process.exit(0); });
setInterval(() => {}, 1 << 30);
