import { correoDeAvisos, titulo, type AvisoDeGasto } from "./mensajes";

const formato = { locale: "es-ES", currency: "EUR" };
const lector = { id: "u1", nombre: "Elena", appUrl: "https://oficina.example", ...formato };
const pagado = (datos: Partial<AvisoDeGasto["datos"]>): AvisoDeGasto => ({
  tipo: "pagado",
  gasto_id: "g1",
  datos: { folio: "GAS-2026-00012", descripcion: "Alquiler de furgoneta", importe: "199.15", ...datos },
});

describe("el aviso de un gasto pagado", () => {
  it("dice a quién fue la transferencia cuando no fue a quien lo pidió", () => {
    const alProveedor = pagado({
      remesa: "REM-2026-0003",
      fecha_pago: "2026-11-30",
      proveedor: "Alquileres Meseta SL",
    });
    expect(titulo(alProveedor, formato)).toBe(
      "Su gasto GAS-2026-00012 «Alquiler de furgoneta» (199,15\u00a0€) se ha pagado por transferencia al proveedor «Alquileres Meseta SL»",
    );
    expect(correoDeAvisos([alProveedor], lector).subject).toBe(
      "Su gasto GAS-2026-00012 se ha pagado por transferencia al proveedor «Alquileres Meseta SL»",
    );
    const suyo = pagado({ remesa: "REM-2026-0003", fecha_pago: "2026-11-30" });
    expect(titulo(suyo, formato)).toMatch(/se ha pagado por transferencia$/);
    expect(correoDeAvisos([suyo], lector).subject).toBe("Su gasto GAS-2026-00012 se ha pagado por transferencia");
  });
});
