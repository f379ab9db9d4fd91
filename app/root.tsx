import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useMatches,
  useNavigationType,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { PENDIENTE, pendiente } from "~/auth/permissions";
import { currentUser } from "~/auth/session.server";
import { navegacionPara, type GrupoNavegacion } from "~/crud/navegacion.server";
import { datosDePagina } from "~/crud/respuestas.server";
import { avisosSinLeer } from "~/avisos/sin-leer.server";
import { Flash, flashDeLaFicha } from "~/ui/Flash";
import { RESULTS_ID } from "~/ui/anclas";
import { useNonce } from "~/ui/nonce";

export const links = () => [
  { rel: "stylesheet", href: "/estilos.css" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const signed = await currentUser(request, context);
  const { flash, setCookie } = await context.services.flash.take(request);
  const {
    APP_LOCALE: locale,
    APP_CURRENCY: currency,
    SENTRY_DSN: dsn,
    SENTRY_ENVIRONMENT: environment,
    SENTRY_RELEASE: release,
  } = context.services.config;
  const headers = new Headers();
  if (setCookie) headers.append("Set-Cookie", setCookie);
  const user = signed && {
    id: signed.user.id,
    nombre: signed.user.nombre,
    apellidos: signed.user.apellidos,
    rol: signed.user.rol,
    avisos: await avisosSinLeer(signed),
    pendiente: pendiente(signed.user),
  };
  const sentry = dsn ? { dsn, environment, release } : null;
  // An account waiting to be placed sees its gastos only: no directory, suppliers or departments.
  const navegacion = user ? navegacionPara(user.rol, user.pendiente) : null;
  return datosDePagina({ user, flash, formats: { locale, currency }, sentry, navegacion }, { headers });
}

export type RootData = typeof loader;
/** On an error screen the title says which one (the route's own meta does not run then). */
export const meta: MetaFunction = ({ error }) => [{ title: error ? `${errorTitle(error)} — Oficina` : "Oficina" }];

function errorTitle(error: unknown) {
  if (isRouteErrorResponse(error) && error.status === 404) return "Página no encontrada";
  if (isRouteErrorResponse(error) && error.status === 403) return "Acceso denegado";
  if (isRouteErrorResponse(error) && error.status === 413) return "Envío demasiado grande";
  if (isRouteErrorResponse(error) && error.status < 500) return "Petición no válida";
  return "Error";
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<RootData>("root");
  const user = data?.user;
  const results = useHasResults();
  const flashEnPanel = useFlashEnPanel();
  // A group's page under a main section (/viajes/informe-irpf) is that page, not the section.
  const paginasDeGrupos = data?.navegacion?.grupos.flatMap((g) => g.secciones.map((e) => e.to)) ?? [];
  return (
    <html lang="es">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="saltar" href="#contenido">
          Saltar al contenido
        </a>
        {results ? (
          <a className="saltar" href={`#${RESULTS_ID}`}>
            Saltar a los resultados
          </a>
        ) : null}
        <header className="cabecera">
          <a className="marca" href="/">
            Oficina
          </a>
          {user && data.navegacion ? (
            <>
              <nav aria-label="Secciones">
                <ul>
                  <li>
                    <EnlaceNav to="/" end>
                      Panel
                    </EnlaceNav>
                  </li>
                  {data.navegacion.principal.map((s) => (
                    <li key={s.to}>
                      <EnlaceNav to={s.to} excepto={paginasDeGrupos}>
                        {s.label}
                      </EnlaceNav>
                    </li>
                  ))}
                  {data.navegacion.grupos.map((g) => (
                    <li key={g.id} className="grupo-nav">
                      <GrupoNav grupo={g} />
                    </li>
                  ))}
                </ul>
              </nav>
              <div className="usuario">
                <EnlaceNav to="/avisos">{user.avisos > 0 ? `Avisos (${user.avisos} sin leer)` : "Avisos"}</EnlaceNav>
                {/* The person's name is what shows; «Mi perfil» is said too (their bank details are there). */}
                <a href={`/usuarios/${user.id}`}>
                  <span className="visually-hidden">Mi perfil: </span>
                  {user.nombre} {user.apellidos ?? ""}
                </a>
                <Form method="post" action="/logout">
                  <button type="submit" className="enlace">
                    Cerrar sesión
                  </button>
                </Form>
              </div>
            </>
          ) : null}
        </header>
        <main id="contenido" tabIndex={-1}>
          {user?.pendiente ? <p className="aviso">{PENDIENTE}</p> : null}
          {data?.flash && !(flashEnPanel && flashDeLaFicha(data.flash)) ? <Flash flash={data.flash} /> : null}
          {children}
        </main>
        {data?.sentry ? (
          // Read by entry.client before hydration; `<` escaped so no value can close the script.
          <script
            nonce={nonce}
            dangerouslySetInnerHTML={{
              __html: `window.ENV=${JSON.stringify({ sentry: data.sentry }).replace(/</g, "\\u003c")}`,
            }}
          />
        ) : null}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * Whether `pathname` is one of the pages of the section at `to`: the section itself or, unless
 * `end`, a page under it; without regard to case, as routes match.
 */
function esSeccionActual(pathname: string, to: string, end = false) {
  const actual = pathname.toLowerCase();
  return actual === to || (!end && actual.startsWith(`${to}/`));
}

/**
 * A section of the navigation, marked `aria-current="page"` on its pages. Not `NavLink`: it marks
 * the same, but also resolves its path again for view transitions, which Oficina does not use,
 * for each of the header's links on every page.
 */
function EnlaceNav({
  to,
  end = false,
  excepto = [],
  children,
}: {
  to: string;
  end?: boolean;
  /** Other sections of the navigation: on one of them, this one is not the current page. */
  excepto?: string[];
  children: ReactNode;
}) {
  const { pathname } = useLocation();
  const actual = esSeccionActual(pathname, to, end) && !excepto.some((e) => e !== to && esSeccionActual(pathname, e));
  return (
    <Link to={to} prefetch="intent" aria-current={actual ? "page" : undefined}>
      {children}
    </Link>
  );
}

/**
 * A folded group of the navigation: a <details> disclosure, opened and closed by its summary with
 * the mouse, Enter or Space, with or without JavaScript. Its summary is marked while the page is
 * one of its sections. With JavaScript, as a menu: it closes on Escape (focus back on the
 * summary), on a click elsewhere and after following one of its links (the page stays, so the
 * browser would leave it open).
 */
function GrupoNav({ grupo }: { grupo: GrupoNavegacion }) {
  const { pathname } = useLocation();
  const ref = useRef<HTMLDetailsElement>(null);
  const actual = grupo.secciones.some((s) => esSeccionActual(pathname, s.to));
  const antes = useRef(pathname);
  useEffect(() => {
    if (antes.current === pathname) return;
    antes.current = pathname;
    if (ref.current) ref.current.open = false;
  }, [pathname]);
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const tecla = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !details.open || !details.contains(document.activeElement)) return;
      details.open = false;
      details.querySelector("summary")?.focus();
    };
    const clic = (event: MouseEvent) => {
      if (details.open && event.target instanceof Node && !details.contains(event.target)) details.open = false;
    };
    document.addEventListener("keydown", tecla);
    document.addEventListener("click", clic);
    return () => {
      document.removeEventListener("keydown", tecla);
      document.removeEventListener("click", clic);
    };
  }, []);
  return (
    <details ref={ref}>
      <summary className={actual ? "actual" : undefined}>{grupo.titulo}</summary>
      <ul id={grupo.id}>
        {grupo.secciones.map((s) => (
          <li key={s.to}>
            <EnlaceNav to={s.to}>{s.label}</EnlaceNav>
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * A list page with rows (its loader's `result.rows`, as every list's does) gets a second skip
 * link, past the views and filters to the table (DataTable's RESULTS_ID).
 */
function useHasResults() {
  const data = useMatches().at(-1)?.data as { result?: { rows?: unknown } } | undefined;
  const rows = data?.result?.rows;
  return Array.isArray(rows) && rows.length > 0;
}

/** Whether the page shows the flash itself, in an open record's panel (its route's `handle.flashEnPanel`). */
function useFlashEnPanel() {
  const leaf = useMatches().at(-1);
  const handle = leaf?.handle as { flashEnPanel?: (data: unknown) => boolean } | undefined;
  return Boolean(handle?.flashEnPanel?.(leaf?.data));
}

export default function App() {
  useLoaderData<RootData>();
  useFocusOnHashTarget();
  return <Outlet />;
}

/**
 * After a client-side navigation to `…#contenido` (the redirect after an action), move keyboard
 * focus there as the browser does on a full page load, so the next Tab starts at the flash.
 * Only for the router's own navigations: a fragment link (`#nuevo`) or back/forward is a POP the
 * browser has already focused, and the person may have tabbed on before this effect runs. Focus
 * that the page's own effects (they run first) moved into the target stays there: an error
 * summary, the record panel. Focus still on the control the form was sent from moves.
 */
function useFocusOnHashTarget() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const enviadoDesde = useRef<Element | null>(null);
  useEffect(() => {
    const anotar = () => {
      enviadoDesde.current = document.activeElement;
    };
    document.addEventListener("submit", anotar, true);
    return () => document.removeEventListener("submit", anotar, true);
  }, []);
  useEffect(() => {
    const desde = enviadoDesde.current;
    enviadoDesde.current = null;
    if (!location.hash || navigationType === "POP") return;
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    const activo = document.activeElement;
    if (target?.hasAttribute("tabindex") && (activo === desde || !target.contains(activo)))
      target.focus({ preventScroll: true });
  }, [location.key, location.hash, navigationType]);
}

/** The generic error screen and the plain 404 and 403 screens. Never a stack trace. */
export function ErrorBoundary() {
  const error = useRouteError();
  const server = isRouteErrorResponse(error) || (error instanceof Error && error.message === "Unexpected Server Error");
  const browserDigest = useBrowserDigest(server ? null : error);
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <ErrorScreen heading="No encontramos lo que busca">
        <p>{error.data?.message ?? "La página o el registro que busca no existe."}</p>
      </ErrorScreen>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <ErrorScreen heading="No tiene permiso">
        <p>{error.data?.message ?? "No tiene permiso para ver esta página o hacer esta acción."}</p>
      </ErrorScreen>
    );
  }
  // A refusal with its own message, also the server's own condition (507: the disk is full).
  if (isRouteErrorResponse(error) && (error.status < 500 || typeof error.data?.message === "string")) {
    return (
      <ErrorScreen heading="No se pudo atender la petición">
        <p>{error.data?.message ?? "La petición no es válida."}</p>
      </ErrorScreen>
    );
  }
  const digest = isRouteErrorResponse(error) ? error.data?.digest : browserDigest;
  return (
    <ErrorScreen
      heading={`Error de la aplicación: se produjo una excepción en ${server ? "el servidor" : "el navegador"}`}
    >
      {digest ? (
        <p>
          Código: <code>{digest}</code>
        </p>
      ) : null}
      <p>Si el problema continúa, comunique el código al equipo de soporte.</p>
    </ErrorScreen>
  );
}

/**
 * An error raised in the browser gets its digest here: the Sentry event id when Sentry is on
 * (the SDK is loaded only then), otherwise an id logged with the error in the console.
 */
function useBrowserDigest(error: unknown) {
  const [digest, setDigest] = useState<string>();
  useEffect(() => {
    if (!error) return;
    const sentry = (window as { ENV?: { sentry?: unknown } }).ENV?.sentry;
    if (sentry) {
      import("@sentry/remix").then((S) => setDigest(S.captureRemixErrorBoundaryError(error)));
    } else {
      const id = Math.random().toString(16).slice(2, 10);
      console.error(`[error ${id}]`, error);
      // Set after the error is logged, in the browser only: the server's render shows no code.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setDigest(id);
    }
  }, [error]);
  return digest;
}

function ErrorScreen({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <section className="error" aria-labelledby="titulo-error">
      <h1 id="titulo-error">{heading}</h1>
      {children}
      <p>
        <a href="/">Volver al inicio</a>
      </p>
    </section>
  );
}
