import * as z from "zod";
import { ESTADO_GASTO_VALUES } from "~/lib/opciones";
import { isISODate } from "~/lib/dates";
import { isMoneyString } from "~/lib/money";

/**
 * What `public.panel(p_hoy)` returns (supabase/migrations/20261125000006_panel.sql), checked on
 * the way in: amounts stay exact decimal strings ("1234.50"), dates ISO strings. Sections that are
 * not for the user's role come back null.
 */
const dinero = z.string().refine(isMoneyString, "importe no válido");
const fecha = z.string().refine(isISODate, "fecha no válida");
const cuenta = z.number().int().nonnegative();
const estado = z.enum(ESTADO_GASTO_VALUES);

const gastoResumido = z.object({
  id: z.string(),
  folio: z.string(),
  fecha_gasto: fecha,
  descripcion: z.string(),
  importe: dinero,
});

export const panelSchema = z.object({
  rol: z.enum(["administrador", "aprobador", "empleado"]),
  hoy: fecha,
  mes: z.object({ desde: fecha, hasta: fecha }),
  propios: z.array(z.object({ estado, cuenta, importe: dinero })),
  este_mes: z.object({ cuenta, importe: dinero }),
  ultimos: z.array(gastoResumido.extend({ estado })),
  pendientes: z
    .object({
      cuenta,
      importe: dinero,
      mas_antiguos: z.array(
        gastoResumido.extend({
          solicitante_nombre: z.string().nullable(),
          /** How many receipts it has (added by cargarPanel, not by public.panel). */
          justificantes: cuenta.optional(),
        }),
      ),
    })
    .nullable(),
  presupuestos: z
    .array(
      z.object({
        id: z.string(),
        nombre: z.string(),
        presupuesto: dinero.nullable(),
        aprobado: dinero,
        cuenta,
        excedido: z.boolean(),
      }),
    )
    .nullable(),
  meses: z.array(z.object({ mes: z.string().regex(/^\d{4}-\d{2}$/), cuenta, importe: dinero })).nullable(),
  noventa_dias: z.object({ desde: fecha, hasta: fecha }).nullable(),
  categorias: z.array(z.object({ categoria: z.string(), cuenta, importe: dinero })).nullable(),
  proveedores: z.array(z.object({ id: z.string(), nombre: z.string(), cuenta, importe: dinero })).nullable(),
});

/**
 * «IVA soportado este trimestre», for administradores (added by cargarPanel, not by public.panel):
 * the IVA of the gastos approved and paid, dated in the quarter, per estado and in total.
 */
export type CifrasIva = { cuenta: number; soportado: string; deducible: string; no_deducible: string };
export type IvaTrimestre = {
  anio: number;
  trimestre: number;
  desde: string;
  hasta: string;
  estados: ({ estado: "aprobado" | "pagado" } & CifrasIva)[];
  total: CifrasIva;
};

export type PanelData = z.infer<typeof panelSchema> & { iva?: IvaTrimestre | null };
