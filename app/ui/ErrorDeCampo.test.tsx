import { renderToStaticMarkup } from "react-dom/server";
import { ErrorDeCampo } from "./ErrorDeCampo";

describe("el error junto a un campo", () => {
  it("lleva el id que nombra el campo y se oye «Error:» antes del mensaje", () => {
    expect(renderToStaticMarkup(<ErrorDeCampo id="cuenta-error">Elija una cuenta</ErrorDeCampo>)).toBe(
      '<p class="error-campo" id="cuenta-error"><span class="visually-hidden">Error: </span>Elija una cuenta</p>',
    );
  });

  it("un error que interrumpe lo que se hacía se anuncia al aparecer", () => {
    expect(
      renderToStaticMarkup(
        <ErrorDeCampo id="motivo-error" role="alert">
          Falta el motivo
        </ErrorDeCampo>,
      ),
    ).toContain('role="alert"');
  });

  it.each([undefined, null, false, ""])("sin mensaje (%s) no pinta nada", (mensaje) => {
    expect(renderToStaticMarkup(<ErrorDeCampo id="x-error">{mensaje}</ErrorDeCampo>)).toBe("");
  });
});
