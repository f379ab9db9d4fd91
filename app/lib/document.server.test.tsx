import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { renderDocument } from "./document.server";

/** A page shaped like Remix's: markup, and the handoff as the raw content of a script. */
function Page({ rows, handoff, fail }: { rows: number; handoff: string; fail?: boolean }) {
  if (fail) throw new Error("no se puede");
  return (
    <html lang="es">
      <head>
        <title>Gastos — Oficina</title>
      </head>
      <body>
        <table>
          <tbody>
            {Array.from({ length: rows }, (_, i) => (
              <tr key={i}>
                <td>{`GAS-${i}`}</td>
                <td>
                  {i},50 € {i % 7 === 0 ? "—" : "«sí»"} {"<b>&"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <script dangerouslySetInnerHTML={{ __html: `window.__remixContext = ${handoff};` }} />
      </body>
    </html>
  );
}

const handoffOf = (rows: number) =>
  JSON.stringify({ filas: Array.from({ length: rows }, (_, i) => ({ id: i, importe: `${i}.50 €`, nota: "ñ—" })) });

/** Where two long strings first differ, with a little context; null when they are equal. */
function firstDifference(a: string, b: string) {
  if (a === b) return null;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return { at: i, lengths: [a.length, b.length], a: a.slice(i - 20, i + 20), b: b.slice(i - 20, i + 20) };
}

describe("renderDocument", () => {
  it("writes renderToString's markup with the handoff in its place, the doctype first, as UTF-8", () => {
    // Up to 2 000 rows: far past the ~65 000 characters where one flat string became a large object.
    for (const rows of [0, 1, 30, 300, 2_000]) {
      const handoff = handoffOf(rows);
      const html = renderDocument((h) => <Page rows={rows} handoff={h} />, handoff);
      const expected = `<!DOCTYPE html>${renderToString(<Page rows={rows} handoff={handoff} />)}`;
      expect(firstDifference(html.toString("utf8"), expected)).toBe(null);
    }
  });

  it("renders a page without a handoff, or one that does not show it, as it is", () => {
    const without = renderDocument((h) => <Page rows={3} handoff={h} />, undefined);
    expect(without.toString("utf8")).toBe(`<!DOCTYPE html>${renderToString(<Page rows={3} handoff="" />)}`);
    const hidden = renderDocument(() => <p>sin datos</p>, handoffOf(1));
    expect(hidden.toString("utf8")).toBe("<!DOCTYPE html><p>sin datos</p>");
  });

  it("throws what the page throws", () => {
    expect(() => renderDocument((h) => <Page rows={1} handoff={h} fail />, "{}")).toThrow("no se puede");
  });
});
