import path from "node:path";
import { opciones as opcionesDeMemoria } from "../../scripts/bench/memoria";
import { opciones as opcionesDePareja } from "../../scripts/bench/pareja";
import { entorno, leerOpciones, numero, palabras } from "../../scripts/linea-de-ordenes";
import { parseSeedArgs } from "../../scripts/seed";

/**
 * The command lines of the seed and of the benches (scripts/linea-de-ordenes.ts): each option as
 * its script's header documents it, the defaults, and an unknown option or a bad number refused,
 * naming the option.
 */

describe("leerOpciones", () => {
  const leer = (argv: string[]) =>
    leerOpciones(argv, { nombre: { type: "string" }, si: { type: "boolean", short: "s" } }, "lea la cabecera");

  it("lee cada opción, con su valor aparte o tras «=»", () => {
    expect(leer(["--nombre", "x", "-s"])).toEqual({ nombre: "x", si: true });
    expect(leer(["--nombre=a=b"])).toEqual({ nombre: "a=b" });
  });

  it("acepta un valor que empieza por un guion (los flags de node de pareja.ts)", () => {
    expect(leer(["--nombre", "--cpu-prof --cpu-prof-dir=x"])).toEqual({ nombre: "--cpu-prof --cpu-prof-dir=x" });
  });

  it("rechaza, en español y nombrándolo, lo que no es una de sus opciones", () => {
    expect(() => leer(["--otra", "1"])).toThrow("Opción desconocida: --otra (lea la cabecera)");
    expect(() => leer(["-x"])).toThrow("Opción desconocida: -x");
    expect(() => leer(["suelto"])).toThrow("Opción desconocida: suelto");
    expect(() => leer(["--constructor"])).toThrow("Opción desconocida: --constructor");
    expect(() => leer(["--nombre"])).toThrow("Falta el valor de --nombre");
    expect(() => leer(["--si=no"])).toThrow("--si no lleva valor");
  });
});

describe("numero, entorno y palabras", () => {
  it("numero valida según el tipo y nombra la opción", () => {
    expect(numero("segundos", "0.5")).toBe(0.5);
    expect(numero("rondas", "3", "entero positivo")).toBe(3);
    expect(numero("descartadas", "0", "entero")).toBe(0);
    expect(() => numero("segundos", "")).toThrow("--segundos espera un número mayor que 0: «»");
    expect(() => numero("segundos", "0")).toThrow("--segundos espera un número mayor que 0");
    expect(() => numero("rondas", "0", "entero positivo")).toThrow("--rondas espera un número entero positivo");
    expect(() => numero("seed", "1e3", "entero")).toThrow("--seed espera un número entero: «1e3»");
  });

  it("entorno lee «K=V,K2=V2» (un valor puede llevar «=») y rechaza lo que no es K=V", () => {
    expect(entorno("")).toEqual({});
    expect(entorno("A=1,NODE_OPTIONS=--max-semi-space-size=16,B=")).toEqual({
      A: "1",
      NODE_OPTIONS: "--max-semi-space-size=16",
      B: "",
    });
    expect(() => entorno("A=1,B")).toThrow("«B» no es K=V");
  });

  it("palabras parte por espacios", () => {
    expect(palabras(" --cpu-prof  --cpu-prof-dir=x ")).toEqual(["--cpu-prof", "--cpu-prof-dir=x"]);
    expect(palabras("")).toEqual([]);
  });
});

describe("scripts/seed.ts", () => {
  it("por defecto: ningún gasto más, sin URL ni semilla", () => {
    expect(parseSeedArgs([])).toEqual({ ayuda: false, gastos: 0, databaseUrl: undefined, seed: undefined });
  });

  it("lee --gastos (con separadores de miles), --database-url y --seed", () => {
    expect(parseSeedArgs(["--gastos", "100_000", "--database-url=postgres://x/y", "--seed", "7"])).toEqual({
      ayuda: false,
      gastos: 100_000,
      databaseUrl: "postgres://x/y",
      seed: 7,
    });
    expect(parseSeedArgs(["--gastos=1.000.000"]).gastos).toBe(1_000_000);
  });

  it("--help y -h piden la ayuda", () => {
    expect(parseSeedArgs(["--help"]).ayuda).toBe(true);
    expect(parseSeedArgs(["-h"]).ayuda).toBe(true);
  });

  it("rechaza una opción desconocida y un número que no lo es", () => {
    expect(() => parseSeedArgs(["--gasto", "5"])).toThrow("Opción desconocida: --gasto (use --help)");
    expect(() => parseSeedArgs(["--gastos", "mil"])).toThrow("--gastos espera un número entero: «mil»");
    expect(() => parseSeedArgs(["--seed", "-1"])).toThrow("--seed espera un número entero: «-1»");
    expect(() => parseSeedArgs(["--gastos"])).toThrow("Falta el valor de --gastos");
  });
});

describe("scripts/bench/memoria.ts", () => {
  it("por defecto: el servidor de aquí como lo arranca npm start, 60 s, 10 conexiones, 1 proceso, cada 2 s", () => {
    expect(opcionesDeMemoria([])).toEqual({
      variantes: [{ nombre: "npm-start", env: {}, node: [], dir: process.cwd() }],
      segundos: 60,
      conexiones: 10,
      procesos: 1,
      cada: 2,
    });
  });

  it("--variante se repite: nombre|entorno|flags de node|directorio", () => {
    const o = opcionesDeMemoria([
      "--variante",
      "semi16|NODE_OPTIONS=--max-semi-space-size=16",
      "--variante=antes|||/tmp/a",
      "--variante",
      "prof|A=1,B=2|--cpu-prof --cpu-prof-dir=/tmp/p",
      "--segundos",
      "5",
      "--conexiones",
      "3",
      "--procesos",
      "2",
      "--cada",
      "0.5",
    ]);
    expect(o).toEqual({
      variantes: [
        { nombre: "semi16", env: { NODE_OPTIONS: "--max-semi-space-size=16" }, node: [], dir: path.resolve(".") },
        { nombre: "antes", env: {}, node: [], dir: "/tmp/a" },
        {
          nombre: "prof",
          env: { A: "1", B: "2" },
          node: ["--cpu-prof", "--cpu-prof-dir=/tmp/p"],
          dir: path.resolve("."),
        },
      ],
      segundos: 5,
      conexiones: 3,
      procesos: 2,
      cada: 0.5,
    });
  });

  it("rechaza una opción desconocida, un número que no lo es y una variante sin nombre", () => {
    expect(() => opcionesDeMemoria(["--rondas", "3"])).toThrow("Opción desconocida: --rondas");
    expect(() => opcionesDeMemoria(["--segundos", "diez"])).toThrow("--segundos espera un número mayor que 0: «diez»");
    expect(() => opcionesDeMemoria(["--procesos", "1.5"])).toThrow("--procesos espera un número entero positivo");
    expect(() => opcionesDeMemoria(["--variante", "|A=1"])).toThrow("--variante sin nombre");
  });
});

describe("scripts/bench/pareja.ts", () => {
  it("por defecto: /techo-del-marco, 5 rondas sin descartadas de 4 s, 10 conexiones, sin sesión, como un navegador", () => {
    expect(opcionesDePareja(["--a", ".", "--b", "/tmp/b"])).toEqual({
      rutas: ["/techo-del-marco"],
      rondas: 5,
      descartadas: 0,
      segundos: 4,
      conexiones: 10,
      como: "",
      datos: "",
      aceptar: "gzip, deflate, br",
      variantes: [
        { nombre: "A", dir: path.resolve("."), env: {}, node: [], arranque: [], datos: "" },
        { nombre: "B", dir: "/tmp/b", env: {}, node: [], arranque: [], datos: "" },
      ],
    });
  });

  it("lee las opciones comunes y las de cada variante (--a-X, --b-X)", () => {
    const o = opcionesDePareja([
      "--a",
      "/tmp/a",
      "--b",
      "/tmp/b",
      "--ruta",
      "/techo-del-marco,/login",
      "--rondas",
      "3",
      "--descartadas",
      "1",
      "--segundos",
      "2",
      "--conexiones",
      "4",
      "--como",
      "aprobador",
      "--datos",
      "/tmp/pg",
      "--aceptar",
      "gzip",
      "--b-env",
      "SENTRY_DSN=http://x@127.0.0.1:9/1",
      "--a-node",
      "--cpu-prof --cpu-prof-dir=/tmp/p",
      "--b-arranque",
      "--import tsx --import ./app/instrument.server.ts server.ts",
      "--b-datos",
      "/tmp/pg-b",
    ]);
    expect(o).toEqual({
      rutas: ["/techo-del-marco", "/login"],
      rondas: 3,
      descartadas: 1,
      segundos: 2,
      conexiones: 4,
      como: "aprobador",
      datos: "/tmp/pg",
      aceptar: "gzip",
      variantes: [
        {
          nombre: "A",
          dir: "/tmp/a",
          env: {},
          node: ["--cpu-prof", "--cpu-prof-dir=/tmp/p"],
          arranque: [],
          datos: "/tmp/pg",
        },
        {
          nombre: "B",
          dir: "/tmp/b",
          env: { SENTRY_DSN: "http://x@127.0.0.1:9/1" },
          node: [],
          arranque: ["--import", "tsx", "--import", "./app/instrument.server.ts", "server.ts"],
          datos: "/tmp/pg-b",
        },
      ],
    });
  });

  it("rechaza una opción desconocida, un número que no lo es, una cuenta que no existe y la falta de --a o --b", () => {
    const ab = ["--a", ".", "--b", "."];
    expect(() => opcionesDePareja([...ab, "--c-env", "A=1"])).toThrow("Opción desconocida: --c-env");
    expect(() => opcionesDePareja([...ab, "--rondas", "cinco"])).toThrow("--rondas espera un número entero positivo");
    expect(() => opcionesDePareja([...ab, "--descartadas", "-1"])).toThrow("--descartadas espera un número entero");
    expect(() => opcionesDePareja([...ab, "--como", "toString"])).toThrow("--como: administrador, aprobador, empleado");
    expect(() => opcionesDePareja(["--a", "."])).toThrow("--a y --b son obligatorios");
  });
});
