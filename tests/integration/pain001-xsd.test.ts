import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { XmlDocument, XmlValidateError, XsdValidator } from "libxml2-wasm";
import { FORMATOS_PAIN001, pain001, type FormatoPain001, type Remesa } from "../../app/pagos/pain001";
import { HOY, remesaGrande, remesaPequena } from "../support/remesas";

/**
 * Every SEPA file the writer makes is valid against the official ISO 20022 schema of its version
 * (tests/fixtures/xsd, with their source), checked by libxml2 itself (the `libxml2-wasm` build:
 * nothing to install beside npm). The last test makes sure the check can fail.
 */
const XSD = (formato: FormatoPain001) => fileURLToPath(new URL(`../fixtures/xsd/${formato}.xsd`, import.meta.url));
const esquemas = new Map<FormatoPain001, { xsd: XmlDocument; validador: XsdValidator }>();

afterAll(() => {
  for (const { xsd, validador } of esquemas.values()) {
    validador.dispose();
    xsd.dispose();
  }
});

/** `xml` against its format's XSD: valid, or libxml2's messages. */
function validar(xml: string, formato: FormatoPain001) {
  if (!esquemas.has(formato)) {
    const xsd = XmlDocument.fromBuffer(readFileSync(XSD(formato)));
    esquemas.set(formato, { xsd, validador: XsdValidator.fromDoc(xsd) });
  }
  const doc = XmlDocument.fromString(xml);
  try {
    esquemas.get(formato)!.validador.validate(doc);
    return { ok: true, salida: "" };
  } catch (error) {
    if (error instanceof XmlValidateError) return { ok: false, salida: error.message };
    throw error;
  } finally {
    doc.dispose();
  }
}

function unaTransferencia(): Remesa {
  const r = remesaPequena();
  r.transferencias = r.transferencias.slice(0, 1);
  delete r.ordenante.bic;
  delete r.ordenante.direccion;
  return r;
}

function nombresDificiles(): Remesa {
  const r = remesaPequena();
  r.mensajeId = "REM/2026/0044 «Diciembre» & más, con un folio demasiado largo";
  r.ordenante.nombre = `Peña & Cía «Hermanos Núñez» <Distribuciones> "Ibérica", S.L. ${"ñ".repeat(40)}`;
  r.ordenante.direccion = {
    calle: "Avda. de la Constitución, nº 12, 3º 2ª — escalera «B» & anexo con un nombre de calle muy largo",
    codigoPostal: "41001-SEVILLA-CENTRO-HISTORICO",
    ciudad: "Sevilla de la Calzada de los Caballeros Andaluces",
    pais: "es",
  };
  r.transferencias = [
    {
      endToEndId: "//GAS 2026 0001//0002//",
      beneficiario: { nombre: "Ñandú & Çedilla O'Reilly <test>", iban: "es79 2100 0813 6101 2345 6789" },
      importe: "1",
      concepto: `Reembolso de gastos & dietas: ${"GAS-2026-0001, ".repeat(12)}`,
    },
    {
      endToEndId: "E2E-2",
      beneficiario: { nombre: "Ærøskøbing Łódź Straße", iban: "PT50000201231234567890154", bic: "bcomptpl" },
      importe: "999999999.99",
      concepto: "",
    },
  ];
  return r;
}

function extranjeros(): Remesa {
  const r = remesaPequena();
  r.transferencias = [
    ["FR1420041010050500013M02606", "PSSTFRPPXXX", "Paris", "FR"],
    ["IT60X0542811101000000123456", "BPMOIT22XXX", "Milano", "IT"],
    ["GB29NWBK60161331926819", "NWBKGB2L", "London", "GB"],
    ["CH9300762011623852957", "UBSWCHZH80A", "Zürich", "CH"],
  ].map(([iban, bic, ciudad, pais], i) => ({
    endToEndId: `EXT-${i + 1}`,
    beneficiario: {
      nombre: `Proveedor ${ciudad}`,
      iban: iban!,
      bic,
      direccion: { calle: "Rue 1", codigoPostal: "1000", ciudad: ciudad!, pais: pais! },
    },
    importe: `${i + 1}0.00`,
    concepto: `GAS-2026-00${i + 1}0`,
  }));
  return r;
}

const REMESAS: [string, () => Remesa][] = [
  ["una-transferencia", unaTransferencia],
  ["pequena", remesaPequena],
  ["muchas", () => remesaGrande(500)],
  ["nombres-dificiles", nombresDificiles],
  ["extranjeros-con-bic", extranjeros],
];

describe.each(FORMATOS_PAIN001)("%s contra el XSD oficial", (formato) => {
  it.each(REMESAS)("%s", (nombre, remesa) => {
    const { ok, salida } = validar(pain001(remesa(), formato, { hoy: HOY }), formato);
    expect(ok, `${nombre}: ${salida}`).toBe(true);
  });

  it("el XSD rechaza un fichero que no cumple (la comprobación puede fallar)", () => {
    const bueno = pain001(remesaPequena(), formato, { hoy: HOY });
    // The other version's BIC element, a currency of four letters, no payment method.
    const otroBic = formato === "pain.001.001.03" ? "BICFI" : "BIC";
    const malos = [
      bueno.replace(/<(\/?)BIC(FI)?>/g, `<$1${otroBic}>`),
      bueno.replace('Ccy="EUR">123.45<', 'Ccy="EURO">123.45<'),
      bueno.replace("<PmtMtd>TRF</PmtMtd>", ""),
    ];
    for (const [i, malo] of malos.entries()) {
      expect(malo).not.toBe(bueno);
      const { ok, salida } = validar(malo, formato);
      expect(ok, `malo ${i}`).toBe(false);
      expect(salida).toMatch(/^Element '\{urn:iso:std:iso:20022:tech:xsd:pain\.001\.001\.0[39]\}/);
    }
  });
});
