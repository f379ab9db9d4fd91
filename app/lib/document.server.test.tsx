import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { documentBody, documentResponse, renderDocument } from "./document.server";

function Page({ rows, fail }: { rows: number; fail?: boolean }) {
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
        <script dangerouslySetInnerHTML={{ __html: `window.x = ${JSON.stringify({ a: "ñ€" })}` }} />
      </body>
    </html>
  );
}

/** Where two long strings first differ, with a little context; null when they are equal. */
function firstDifference(a: string, b: string) {
  if (a === b) return null;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return {
    at: i,
    lengths: [a.length, b.length],
    a: JSON.stringify(a.slice(i - 20, i + 20)),
    b: JSON.stringify(b.slice(i - 20, i + 20)),
  };
}

describe("renderDocument", () => {
  it("writes the same markup as renderToString, with the doctype once, as UTF-8", async () => {
    // 2 000 rows: well past the ~65 000 characters where one flat string became a large object.
    for (const rows of [1, 30, 300, 2_000]) {
      const { html, status } = await renderDocument(<Page rows={rows} />, 200);
      expect(status).toBe(200);
      expect(firstDifference(html.toString("utf8"), `<!DOCTYPE html>${renderToString(<Page rows={rows} />)}`)).toBe(
        null,
      );
    }
  });

  it("keeps the status it was given, and rejects when the page cannot render", async () => {
    expect((await renderDocument(<Page rows={1} />, 404)).status).toBe(404);
    await expect(renderDocument(<Page rows={1} fail />, 200)).rejects.toThrow("no se puede");
  });
});

describe("documentResponse", () => {
  it("keeps a page's bytes for the edge, and only a page's", () => {
    const bytes = Buffer.from("<!DOCTYPE html><html></html>");
    const page = documentResponse(bytes, { status: 201, headers: { "Content-Type": "text/html" } });
    expect(page.status).toBe(201);
    expect(page.headers.get("Content-Type")).toBe("text/html");
    expect(documentBody(page)).toBe(bytes);
    expect(documentBody(new Response("otra"))).toBeUndefined();
  });
});
