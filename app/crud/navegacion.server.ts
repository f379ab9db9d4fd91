import { puede, type Rol } from "~/auth/permissions";
import { SECCION_ASIENTOS } from "~/contabilidad/enlaces";
import { seenBy } from "~/entities/entity";
import { ENTITIES } from "~/entities/index";
import { SECCION_LIBRO_IVA } from "~/fiscal/enlaces";
import { SECCION_REMESAS } from "~/pagos/enlaces";
import { SECCION_INFORME_IRPF } from "~/viajes/enlaces";

export type Seccion = { to: string; label: string };
/** A group of the navigation, folded under its title (a disclosure that works without JavaScript). */
export type GrupoNavegacion = { titulo: string; id: string; secciones: Seccion[] };
export type Navegacion = { principal: Seccion[]; grupos: GrupoNavegacion[] };

/** The day-to-day work, always in view: what every role does, and the remesas that pay it. */
const PRINCIPAL = ["/gastos", "/viajes", SECCION_REMESAS.to];
/** The books, for an administrador: each read by period and downloaded for the gestoría. */
const LIBROS = [SECCION_LIBRO_IVA, SECCION_ASIENTOS, SECCION_INFORME_IRPF];

/**
 * The sections a person is shown after «Panel»: the day-to-day ones in view; the books and the
 * records the work depends on (departments, suppliers, users, the tax and company settings)
 * folded in a group each, so that an administrador's navigation stays one line at 1366 px and
 * short on a phone. An empleado is shown only what they can change (their gastos and viajes: the
 * rest is read-only to them and reached from the gastos themselves); an account waiting to be
 * placed, only its gastos.
 */
export function navegacionPara(rol: Rol, pendiente: boolean): Navegacion {
  const entidades = ENTITIES.filter(
    (e) =>
      seenBy(e, rol) &&
      (rol !== "empleado" || puede(e.permisos, "crear", { rol }) || puede(e.permisos, "editar", { rol })),
  ).map((e) => ({ to: e.path, label: e.title }));
  const admin = rol === "administrador";
  const todas: Seccion[] = [...entidades, ...(admin ? [SECCION_REMESAS] : [])].filter(
    (s) => !pendiente || s.to === "/gastos",
  );
  const principal = PRINCIPAL.flatMap((to) => todas.filter((s) => s.to === to));
  const resto = todas.filter((s) => !PRINCIPAL.includes(s.to));
  const grupos: GrupoNavegacion[] = [
    { titulo: "Libros", id: "nav-libros", secciones: admin && !pendiente ? [...LIBROS] : [] },
    { titulo: "Administración", id: "nav-administracion", secciones: resto },
  ];
  return { principal, grupos: grupos.filter((g) => g.secciones.length > 0) };
}
