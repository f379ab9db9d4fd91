import { CompiledQuery, sql } from "kysely";
import { createHash } from "node:crypto";
import pg from "pg";
import type { ListQuery } from "../../store";
import type { AnyTrx } from "../connection.server";
import { rangeAsParameter } from "../where.server";

/** Not prepared: transaction control and the cursor and EXPLAIN statements. */
const UTILITY = /^\s*(begin|commit|rollback|start|savepoint|release|declare|fetch|close|explain)\b/i;

/** Without parameters only a single SELECT is prepared (others keep pg's simple protocol: several statements, VACUUM…). */
const SINGLE_SELECT = /^\s*(select|with)\b[^;]*$/i;

/**
 * A statement that starts with this comment is planned with its values every time (sent
 * unnamed): see `withValues`.
 */
const WITH_VALUES = "/* planificada con sus valores */ ";

/**
 * A text that starts with this comment holds several statements sent in one message (simple
 * protocol, no parameters): the answer is the last statement's, as if it had been sent alone.
 */
export const IN_ONE_TRIP = "/* en un viaje */ ";

/** Statements each connection keeps prepared, at most (then further ones run unnamed): each kept plan holds memory (ADR 0008). */
const MAX_PREPARED = 100;

/**
 * Marks the statements that set the role and claims themselves: a read as a user (`readAsUser`,
 * connection.server.ts) for as long as the connection lives, and after `IN_ONE_TRIP`, `asUser`'s
 * BEGIN for its transaction only.
 */
export const AS_USER = "/* como usuario */ ";

/**
 * A read as a user: role `authenticated` and the user's claims for the connection (not a
 * transaction), with the data's change counter (migration 20261125000007_escala).
 */
export const ROLE_FOR_READS = `${AS_USER}select set_config('role', 'authenticated', false), set_config('request.jwt.claims', $1, false), interno.cambios()::text as cambios`;

/**
 * Passed as a statement's first value: send the role for reads (ROLE_FOR_READS, for these claims)
 * and the statement as one message, one Sync (`PreparingClient`). `cambios` is the change counter
 * the role's statement read, once the answer is in.
 */
export class WithRole {
  cambios?: string;
  constructor(readonly claims: string) {}
}

/** pg.Query's step that sends a statement's Parse/Bind/Describe/Execute/Sync (not in its types). */
const sendStatement = (pg.Query.prototype as unknown as { prepare(connection: unknown): void }).prepare;

/**
 * Two prepared statements as one message (ADR 0008, «Statements and round trips»): Bind and Execute of the
 * first, then the second's, then one Sync — one implicit transaction, so if either fails both are
 * undone. Only with both statements already parsed on the connection, so the message carries no
 * Parse (pg's bookkeeping of parsed statements knows one name per query). The answer holds both
 * results, the first's first.
 */
class Together extends pg.Query {
  constructor(
    private readonly first: { name: string; values: unknown[] },
    then: { name: string; text: string; values: unknown[] },
    callback: (error: Error | null, results?: pg.QueryResult[]) => void,
  ) {
    super(then, undefined, callback as never);
  }

  prepare(connection: unknown) {
    const c = connection as {
      bind(o: { statement: string; values: unknown[] }): void;
      describe(o: { type: "P"; name: string }): void;
      execute(o: { portal: string }): void;
    };
    c.bind({ statement: this.first.name, values: this.first.values });
    c.describe({ type: "P", name: "" });
    c.execute({ portal: "" });
    sendStatement.call(this, connection);
  }
}

/**
 * Back to the connection's own role, without claims: one statement, so it can be prepared and
 * travel with the next one (`Together`). Never sent together with a BEGIN: a rolled-back
 * transaction would undo it.
 */
const RESET = "select set_config('role', 'none', false), set_config('request.jwt.claims', '', false)";

/**
 * A pg client that runs every statement (but transaction control) as a named (prepared) one, as PostgREST
 * does: each connection parses a statement's text once and PostgreSQL may keep its plan. The
 * gastos_vista queries (six joins, row-level security on every table) cost more to plan than to
 * run. Names are a hash of the text, so a name always means the same statement. Plans still
 * follow the role and the claims of each transaction: row-level security is evaluated as before
 * (PostgreSQL replans a cached plan when the role it was made for changes).
 *
 * It also keeps a read as a user from lending its role to whoever takes the connection next (ADR
 * 0008, «Statements and round trips»): after the pool has had the client back, the first
 * statement that does not set the role itself is preceded by a reset — in the same message when
 * it is one already, or when both are prepared on the connection (the session check), else as a message of its own.
 */
export class PreparingClient extends pg.Client {
  private readonly preparados = new Set<string>();
  /** A read as a user gave this connection a user's role and claims, not reset since. */
  private comoUsuario = false;
  /** Back in the pool since its last statement: the next one may be anybody's. */
  private devuelto = false;

  /** Called by the pool when the client comes back (createDatabase). */
  devolver() {
    this.devuelto = true;
  }

  // pg.Client#query has a dozen overloads (config object or text, values, callback, submittable);
  // an override must accept them all and hand them on unchanged, which only `any` can express.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    if (Array.isArray(values) && values[0] instanceof WithRole)
      return this.withRole(values[0], config, values.slice(1));
    const text: unknown = typeof config === "string" ? config : config?.text;
    const paraLaConexion = typeof text === "string" && text.startsWith(AS_USER);
    const paraSuTransaccion = typeof text === "string" && text.startsWith(IN_ONE_TRIP + AS_USER);
    const inOneTrip = typeof config === "string" && config.startsWith(IN_ONE_TRIP) && !callback;
    const name = this.preparedName(config, values);
    if (this.devuelto) {
      this.devuelto = false;
      if (this.comoUsuario && !paraLaConexion && !paraSuTransaccion) {
        // One message, one implicit transaction: the reset holds only if the message succeeds.
        const withReset = (message: Promise<pg.QueryResult>) =>
          message.then(
            (r) => {
              this.comoUsuario = false;
              return r;
            },
            (error: unknown) => {
              this.devuelto = true;
              throw error;
            },
          );
        if (inOneTrip)
          return withReset(this.query(`${IN_ONE_TRIP}${RESET}; ${(config as string).slice(IN_ONE_TRIP.length)}`));
        const reset = nameOf(RESET);
        if (name && !callback && this.isParsed(reset, RESET) && this.isParsed(name, config))
          return withReset(
            this.together({ name: reset, values: [] }, { name, text: config, values }).then(([, r]) => r!),
          );
        // Queued before the statement (a client runs them in order), and prepared for next time. A
        // reset fails only where the statement after it fails too: a broken connection.
        this.comoUsuario = false;
        this.preparados.add(reset);
        super.query({ name: reset, text: RESET }).catch(() => {});
      }
    }
    if (paraLaConexion) this.comoUsuario = true;
    if (inOneTrip)
      return (super.query(config) as unknown as Promise<pg.QueryResult | pg.QueryResult[]>).then((r) =>
        Array.isArray(r) ? r[r.length - 1] : r,
      );
    if (name) return super.query({ name, text: config, values }, callback);
    return super.query(config, values, callback);
  }

  /**
   * The name a statement runs under, prepared (a single SELECT without values, or any statement
   * with values, but transaction control and what `withValues` plans with its values), or null:
   * pg's simple protocol or an unnamed statement.
   */
  private preparedName(config: unknown, values: unknown) {
    if (
      typeof config !== "string" ||
      !Array.isArray(values) ||
      UTILITY.test(config) ||
      config.startsWith(WITH_VALUES) ||
      !(values.length > 0 || SINGLE_SELECT.test(config))
    )
      return null;
    const name = nameOf(config);
    if (!this.preparados.has(name) && this.preparados.size >= MAX_PREPARED) return null;
    this.preparados.add(name);
    return name;
  }

  /** Whether this connection has parsed `text` under `name`. */
  private isParsed(name: string, text: string) {
    const connection = (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection;
    return connection.parsedStatements[name] === text;
  }

  /** Two prepared statements in one message (`Together`): both results. */
  private together(
    first: { name: string; values: unknown[] },
    then: { name: string; text: string; values: unknown[] },
  ) {
    return new Promise<pg.QueryResult[]>((resolve, reject) =>
      super.query(new Together(first, then, (error, results) => (error ? reject(error) : resolve(results!)))),
    );
  }

  /**
   * The role for reads and then `text`: in one message when both are prepared on this connection
   * (`Together`), else one after the other (which prepares them for next time). The role is set
   * for the connection either way, so the pool's hook resets it before anyone else's statement.
   */
  private async withRole(role: WithRole, text: string, values: unknown[]): Promise<pg.QueryResult> {
    const roleName = nameOf(ROLE_FOR_READS);
    const name = nameOf(text);
    this.devuelto = false; // it sets the role itself: no reset before it
    this.comoUsuario = true;
    if (this.isParsed(roleName, ROLE_FOR_READS) && this.isParsed(name, text)) {
      const [roleResult, read] = await this.together({ name: roleName, values: [role.claims] }, { name, text, values });
      role.cambios = (roleResult!.rows[0] as { cambios: string }).cambios;
      return read!;
    }
    const { rows } = await (this.query(ROLE_FOR_READS, [role.claims]) as Promise<pg.QueryResult<{ cambios: string }>>);
    role.cambios = rows[0]!.cambios;
    return this.query(text, values) as Promise<pg.QueryResult>;
  }
}

/** A statement's prepared name: a hash of its text, so a name always means the same statement. */
function nameOf(text: string) {
  return `o_${createHash("sha1").update(text).digest("base64url")}`;
}

/**
 * The page's rows. A prepared statement's generic plan cannot know how much of the table a range
 * (`fecha_gasto between $1 and $2`) keeps, and assumes very little: with many gastos it then sorted
 * the matches of a department instead of walking the (estado, departamento_id, importe) index
 * (ADR 0008). A range's plain dates and amounts are written into the statement (where.server.ts
 * `bound`); a page filtered by a range passed as a parameter is planned with its values;
 * every other page keeps its prepared plan.
 */
export async function withValues<R>(
  trx: AnyTrx,
  rowsQuery: { compile(): CompiledQuery<R>; execute(): Promise<R[]> },
  query: ListQuery,
): Promise<R[]> {
  if (!(query.filters ?? []).some(rangeAsParameter)) return rowsQuery.execute();
  const compiled = rowsQuery.compile();
  return (await trx.executeQuery(CompiledQuery.raw(WITH_VALUES + compiled.sql, [...compiled.parameters]))).rows as R[];
}

/**
 * A page's LIMIT written into the statement, not passed as a parameter: a prepared statement's
 * generic plan then knows how few rows are wanted (with `LIMIT $1` the planner assumes a tenth of
 * the table and may sort everything), so PostgreSQL can keep the plan instead of planning the
 * gastos_vista query again on every request. OFFSET stays a parameter (a generic plan with it
 * still walks the sort index), so each page does not become a statement of its own: a kept
 * gastos_vista plan takes a lot of the connection's memory (ADR 0008).
 */
export function literal(n: number) {
  return Number.isSafeInteger(n) && n >= 0 ? sql.lit(n) : n;
}

/**
 * OFFSET only past the first page. With `OFFSET $1` PostgreSQL costs the generic plan for a skip
 * it cannot know and, finding it dearer than the plan for OFFSET 0, planned the first page anew on
 * every request; without it, the first page keeps its plan.
 */
export function skip<Q extends { offset(n: number): Q }>(q: Q, offset: number): Q {
  return offset > 0 ? q.offset(offset) : q;
}
