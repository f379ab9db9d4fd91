-- Oficina: la página filtrada por estado y departamento, ordenada por importe, sin leer la tabla
-- (ADR 0008, quinta ronda).
--
-- gastos_estado_departamento_importe_idx (migración 20261122000041) da las filas en orden, pero
-- el rango de fechas y la visibilidad de quien mira (RLS: solicitante_id, aprobador_id) se
-- comprobaban leyendo cada fila de la tabla: para la página 40 de un departamento, unas 3 000
-- lecturas (2 ms de los 5 de la consulta). Con esas columnas incluidas, PostgreSQL responde con un
-- «index-only scan»: 47 lecturas, 0,6 ms. departamento_id, la otra columna de la RLS, ya es clave.
drop index public.gastos_estado_departamento_importe_idx;
create index gastos_estado_departamento_importe_idx on public.gastos (estado, departamento_id, importe, id)
  include (fecha_gasto, solicitante_id, aprobador_id);
