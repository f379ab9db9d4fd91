import { ivaDeducible } from "./FichaGasto";

/** What the record panel says of a gasto's IVA (gastos_vista's iva_deducible and iva_motivo). */
const formats = { locale: "es-ES", currency: "EUR" } as Parameters<typeof ivaDeducible>[1];
const OTRO_PAIS = "IVA de otro país: se pide su devolución a ese país, no se deduce aquí";

describe("el IVA en la ficha del gasto", () => {
  it("deducible, con su importe; no deducible, con su motivo", () => {
    expect(ivaDeducible({ iva_deducible: "12.40", iva_motivo: null, estado: "pendiente" }, formats)).toEqual({
      label: "IVA deducible",
      value: "12,40\u00a0€",
    });
    expect(ivaDeducible({ iva_deducible: "0.00", iva_motivo: "Ticket sin NIF de la empresa" }, formats)).toEqual({
      label: "IVA no deducible",
      value: "Ticket sin NIF de la empresa",
    });
  });

  it("el IVA de otro país, antes de aprobar, recuerda la inversión del sujeto pasivo; aprobado, solo el motivo", () => {
    for (const estado of ["borrador", "pendiente"])
      expect(ivaDeducible({ iva_deducible: "0.00", iva_motivo: OTRO_PAIS, estado }, formats).value).toBe(
        `${OTRO_PAIS}. Si la factura no lleva IVA (un servicio que un proveedor de otro país factura a la empresa), es inversión del sujeto pasivo, que se marca en «Datos fiscales».`,
      );
    for (const estado of ["aprobado", "pagado", "rechazado"])
      expect(ivaDeducible({ iva_deducible: "0.00", iva_motivo: OTRO_PAIS, estado }, formats).value).toBe(OTRO_PAIS);
  });

  it("la inversión del sujeto pasivo con un emisor de España, antes de aprobar, pide comprobar que la factura no lleva IVA", () => {
    const isp = { iva_deducible: "21.00", iva_motivo: null, inversion_sujeto_pasivo: true };
    expect(ivaDeducible({ ...isp, emisor_pais_efectivo: "ES", estado: "pendiente" }, formats).value).toBe(
      "21,00\u00a0€. Inversión del sujeto pasivo con un emisor de España: solo en operaciones contadas (obras, oro, chatarra, móviles…); si la factura lleva IVA, desmárquela.",
    );
    expect(ivaDeducible({ ...isp, emisor_pais_efectivo: "IE", estado: "pendiente" }, formats).value).toBe(
      "21,00\u00a0€",
    );
    expect(ivaDeducible({ ...isp, emisor_pais_efectivo: "ES", estado: "aprobado" }, formats).value).toBe(
      "21,00\u00a0€",
    );
  });
});
