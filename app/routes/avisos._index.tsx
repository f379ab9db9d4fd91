import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/session.server";
import { detalle, esDeCuenta, titulo, type Aviso } from "~/avisos/mensajes";
import { avisosSinLeer } from "~/avisos/sin-leer.server";
import { UUID } from "~/data/store";
import { datosDePagina, redirectWithFlash } from "~/crud/respuestas.server";
import { formatTimestamp } from "~/lib/format";
import { pageTitle, useFormats } from "~/ui/page";

/**
 * `/avisos` — what the workflow told this person: newest first,
 * each linking to its gasto, unread ones marked in text; «Marcar todos como leídos». Plain links
 * and forms: the same without JavaScript. Row-level security shows each person only their own.
 */
const POR_PAGINA = 50;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const signed = await requireUser(request, context);
  const { store } = signed;
  const pagina = paginaDe(request);
  // The unread count is the header's (read with the session where the backend can).
  const [lista, sinLeer] = await Promise.all([
    store.list("avisos", {
      columns: ["id", "tipo", "gasto_id", "datos", "creado_en", "leido_en"],
      order: [{ column: "creado_en", ascending: false }],
      limit: POR_PAGINA,
      offset: (pagina - 1) * POR_PAGINA,
      count: "exact",
    }),
    avisosSinLeer(signed),
  ]);
  const paginas = Math.ceil(lista.total / POR_PAGINA);
  // Past the last page (an old link, avisos gone with their gasto): the last one.
  if (pagina > Math.max(1, paginas)) throw redirect(enLaPagina(paginas));
  return datosDePagina({
    // `tipo` and `datos` as the database writes them (one of its kinds, its JSON for that kind).
    avisos: lista.rows.map(({ tipo, gasto_id, datos, ...a }) => ({ ...a, ...({ tipo, gasto_id, datos } as Aviso) })),
    total: lista.total,
    sinLeer,
    pagina,
    paginas,
  });
}

const paginaDe = (request: Request) =>
  Math.max(1, Math.min(1000, Number(new URL(request.url).searchParams.get("pagina")) || 1));
const enLaPagina = (pagina: number, aviso?: string) =>
  `/avisos${pagina > 1 ? `?pagina=${pagina}` : ""}${aviso ? `#aviso-${aviso}` : ""}`;

export async function action({ request, context }: ActionFunctionArgs) {
  const { store } = await requireUser(request, context);
  const form = await request.formData();
  // No id: all of them. An id that is not one changes nothing (never «all» by mistake).
  const id = form.has("id") ? String(form.get("id")) : null;
  if (id !== null && !UUID.test(id))
    return redirectWithFlash(context, request, "/avisos", "Ese aviso no existe. No se ha marcado nada.", "error");
  const ids = id === null ? null : [id];
  const n = await store.rpc<number>("marcar_avisos_leidos", { p_ids: ids });
  const mensaje = ids
    ? "Aviso marcado como leído."
    : n === 1
      ? "1 aviso marcado como leído."
      : `${n} avisos marcados como leídos.`;
  // Back to the same page, at the aviso just marked: reading them one by one keeps one's place.
  return redirectWithFlash(context, request, enLaPagina(paginaDe(request), id ?? undefined), mensaje);
}

export default function Avisos() {
  const { avisos, total, sinLeer, pagina, paginas } = useLoaderData<typeof loader>();
  const formats = useFormats();
  return (
    <>
      <div className="titulo-pagina">
        <h1>Avisos</h1>
        <Link className="boton" to="/avisos/preferencias">
          Preferencias de avisos
        </Link>
      </div>
      <p className="intro" id="avisos-resumen">
        {total === 0
          ? "No tiene avisos. Aquí aparecerán los gastos que esperan su aprobación y los cambios en los suyos."
          : `${sinLeer === 0 ? "Ningún aviso sin leer" : sinLeer === 1 ? "1 aviso sin leer" : `${sinLeer} avisos sin leer`} de ${total}.`}
      </p>
      {sinLeer > 0 ? (
        <Form method="post">
          <button type="submit">Marcar todos como leídos</button>
        </Form>
      ) : null}
      {avisos.length > 0 ? (
        <ol className="lista-avisos" aria-describedby="avisos-resumen">
          {avisos.map((a) => {
            const extra = detalle(a, formats);
            return (
              <li key={a.id} id={`aviso-${a.id}`} className={a.leido_en ? undefined : "sin-leer"}>
                {a.leido_en ? null : <strong className="etiqueta">Sin leer</strong>}{" "}
                {/* Through `/avisos/{id}`: opening the gasto marks its aviso read. */}
                {a.gasto_id || esDeCuenta(a) ? (
                  <Link to={`/avisos/${a.id}`}>{titulo(a, formats)}</Link>
                ) : (
                  titulo(a, formats)
                )}
                {extra ? <p>{extra}</p> : null}
                <p className="fecha">{formatTimestamp(a.creado_en, formats)}</p>
                {a.leido_en ? null : (
                  <Form method="post">
                    <input type="hidden" name="id" value={a.id} />
                    {/* The visible words first, then which aviso: several such buttons on one page. */}
                    <button
                      type="submit"
                      aria-label={`Marcar como leído: ${esDeCuenta(a) ? titulo(a, formats) : a.datos.folio}`}
                    >
                      Marcar como leído
                    </button>
                  </Form>
                )}
              </li>
            );
          })}
        </ol>
      ) : null}
      {paginas > 1 ? (
        <nav aria-label="Páginas de avisos" className="paginacion">
          {pagina > 1 ? <Link to={`/avisos?pagina=${pagina - 1}`}>Anteriores</Link> : null}{" "}
          <span>
            Página {pagina} de {paginas}
          </span>{" "}
          {pagina < paginas ? <Link to={`/avisos?pagina=${pagina + 1}`}>Siguientes</Link> : null}
        </nav>
      ) : null}
    </>
  );
}

export const meta: MetaFunction = () => pageTitle("Avisos");
