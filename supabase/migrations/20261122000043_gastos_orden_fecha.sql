-- Oficina: el orden por defecto de la lista de gastos, servido por un índice (ADR 0008).
--
-- La lista ordena por fecha y después por id (orden estable al paginar). gastos_fecha_gasto_idx
-- es (fecha_gasto, creado_en): PostgreSQL recorría las fechas en orden pero tenía que ordenar por
-- id todas las filas de la primera fecha antes de dar 25 (un «incremental sort»). Con cientos de
-- gastos por día, o miles el día de una carga masiva, eso era la mayor parte de la consulta
-- (8 000 gastos de un mismo día: 40 ms para una página). Con este índice la página sale en orden.
create index gastos_fecha_gasto_id_idx on public.gastos (fecha_gasto, id);
