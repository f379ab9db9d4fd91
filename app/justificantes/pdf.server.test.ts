import { deflateSync } from "node:zlib";
import { flujo, objStm, pdfDe } from "../../tests/support/justificantes";
import { inspeccionarPdf, nombrePdf } from "./pdf.server";

/** The PDF check on its own: each way of writing active content, and what a plain receipt has. */
const catalogo = "<</Type/Catalog/Pages 2 0 R>>";
const paginas = "<</Type/Pages/Kids[3 0 R]/Count 1>>";
const pagina = "<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 4 0 R>>";
const texto = flujo("/Filter/FlateDecode", deflateSync(Buffer.from("BT /F1 12 Tf 72 712 Td (Total: 12,50 EUR) Tj ET")));
const simple = (...mas: (string | Buffer)[]) => pdfDe([catalogo, paginas, pagina, texto, ...mas]);
const conAccion = (accion: string) =>
  pdfDe([`<</Type/Catalog/Pages 2 0 R/OpenAction 5 0 R>>`, paginas, pagina, texto, accion]);

it("los nombres con #xx se leen como los lee el lector", () => {
  expect(nombrePdf("J#61vaScript")).toBe("JavaScript");
  expect(nombrePdf("J#53")).toBe("JS");
  expect(nombrePdf("Embedd#65dFiles")).toBe("EmbeddedFiles");
  expect(nombrePdf("A#2fB")).toBe("A/B");
});

it("un PDF simple (texto comprimido, tabla de referencias) pasa", () => {
  expect(inspeccionarPdf(simple())).toMatchObject({ ok: true });
  // Words of the list inside strings, hex strings or as part of longer names are text, not names.
  expect(inspeccionarPdf(simple("<</Title(Factura JS 2026)/Id<2F4A53>/JSONData 1/AAA 2>>"))).toMatchObject({
    ok: true,
  });
});

it.each([
  ["literal", "<</S/JavaScript/JS(app.alert(1))>>"],
  ["#xx en /JavaScript", "<</S/J#61vaScript/J#53(app.alert(1))>>"],
  ["#xx en todas las letras", "<</S/#4A#61#76#61#53#63#72#69#70#74/#4A#53(app.alert(1))>>"],
  ["código en hexadecimal", "<</S/J#61vaScript/J#53<6170702e616c657274283129>>>"],
  ["/Launch", "<</S/L#61unch/F(calc.exe)>>"],
  ["/SubmitForm", "<</S/Submit#46orm/F(https://example.invalid)>>"],
])("OpenAction con %s: rechazado", (_, accion) => {
  expect(inspeccionarPdf(conAccion(accion))).toMatchObject({ ok: false, motivo: "activo" });
});

it.each([
  ["/AA de una página", "<</Type/Page/A#41<</O<</S/URI/URI(x)>>>>>>"],
  ["/EmbeddedFiles con #xx", "<</Names<</Embedd#65dFiles<</Names[(a.exe) 6 0 R]>>>>>>"],
  ["/EmbeddedFile", "<</Type/Embedd#65dFile>>"],
  ["/RichMedia", "<</Subtype/Rich#4dedia>>"],
  ["/XFA", "<</AcroForm<</#58FA 7 0 R>>>>"],
])("%s: rechazado", (_, objeto) => {
  expect(inspeccionarPdf(simple(objeto))).toMatchObject({ ok: false, motivo: "activo" });
});

it("dentro de un flujo de objetos comprimido (Flate): rechazado; sin nada, pasa", () => {
  expect(inspeccionarPdf(simple(objStm(6, ["<</S/J#61vaScript/JS(app.alert(1))>>"])))).toMatchObject({
    ok: false,
    motivo: "activo",
  });
  expect(inspeccionarPdf(simple(objStm(6, ["<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>"])))).toMatchObject({
    ok: true,
  });
  // Without /Type: a reader reads any stream with /N and /First as one.
  const sinTipo = flujo(
    "/N 1/First 4/Filter/FlateDecode",
    deflateSync(Buffer.from("6 0 <</S/JavaScript/JS(app.alert(1))>>", "latin1")),
  );
  expect(inspeccionarPdf(simple(sinTipo))).toMatchObject({ ok: false, motivo: "activo" });
});

it("un flujo de objetos que no se puede descomprimir (cifrado, dañado, otro filtro): rechazado por no comprobable", () => {
  const danado = flujo("/Type/ObjStm/N 1/First 4/Filter/FlateDecode", Buffer.from("no es deflate", "latin1"));
  const lzw = flujo("/Type/ObjStm/N 1/First 4/Filter/LZWDecode", Buffer.from("\x80\x0b\x60", "latin1"));
  for (const o of [danado, lzw]) expect(inspeccionarPdf(simple(o))).toMatchObject({ ok: false, motivo: "ilegible" });
  // A decompression bomb: far more than any receipt, stopped at the cap.
  const bomba = flujo("/Type/ObjStm/N 1/First 4/Filter/FlateDecode", deflateSync(Buffer.alloc(80 * 1024 * 1024, 0x20)));
  expect(inspeccionarPdf(simple(bomba))).toMatchObject({ ok: false, motivo: "ilegible" });
});

it("un objeto escondido en los datos de otro flujo (un /Length que lo tapa): rechazado", () => {
  const escondido = Buffer.from("q Q\n8 0 obj\n<</S/JavaScript/JS(app.alert(1))>>\nendobj\n", "latin1");
  expect(inspeccionarPdf(simple(flujo("", escondido)))).toMatchObject({ ok: false, motivo: "activo" });
});

it("después del último %%EOF solo blancos; un ZIP dentro o al final, rechazado", () => {
  expect(inspeccionarPdf(simple().subarray(0, 200))).toMatchObject({ ok: false, motivo: "incompleto" });
  expect(inspeccionarPdf(pdfDe([catalogo], "\r\n  \n"))).toMatchObject({ ok: true });
  expect(inspeccionarPdf(pdfDe([catalogo], "\n<html></html>"))).toMatchObject({ ok: false, motivo: "final" });
  expect(inspeccionarPdf(pdfDe([catalogo], "\n\xa0"))).toMatchObject({ ok: false, motivo: "final" });
  const zip = Buffer.from(
    "PK\x03\x04\x14\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x05\x00\x00\x00a.txt",
    "latin1",
  );
  expect(inspeccionarPdf(pdfDe([catalogo, flujo("", zip)]))).toMatchObject({ ok: false, motivo: "zip" });
  const fin = Buffer.from(
    "PK\x05\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x06\x00%%EOF\n",
    "latin1",
  );
  expect(inspeccionarPdf(Buffer.concat([pdfDe([catalogo]), fin]))).toMatchObject({ ok: false, motivo: "zip" });
});
