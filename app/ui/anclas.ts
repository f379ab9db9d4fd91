/** The ids the layout's skip links point at, shared by the layout and the pages that carry them. */

/** A list's results (the table, or its cards on a phone): «Saltar a los resultados». */
export const RESULTS_ID = "resultados";
