-- Oficina: la lista de gastos filtrada por estado y departamento, ordenada por importe (ADR 0008).
--
-- Es el filtro de quien aprueba o revisa un departamento (y el de los enlaces del panel). Sin
-- este índice, PostgreSQL recorre gastos_importe_idx de mayor a menor descartando los de otros
-- estados y departamentos (con 1 000 000 de gastos, cientos de miles de filas para llegar a la
-- página 40), o lee todos los que coinciden y los ordena. Con él lee la página y las anteriores,
-- en orden, y el tiempo no crece con la tabla. El orden por fecha ya lo sirve
-- gastos_estado_departamento_fecha_idx.
create index gastos_estado_departamento_importe_idx on public.gastos (estado, departamento_id, importe, id);
