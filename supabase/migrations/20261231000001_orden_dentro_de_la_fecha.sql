-- Oficina: en la lista de gastos, dentro de una misma fecha, el más reciente primero.
--
-- La lista ordenada por fecha ordena después por creado_en (en el mismo sentido) y por último por
-- id (entities/gastos.ts `thenBy`): antes, los gastos de un día salían en el orden de sus ids, al
-- azar. Lo mismo en la búsqueda: buscar_gastos (20261201000001_busqueda) y las dos formas de
-- buscar_gastos_pagina (20261211000001_busqueda_proveedor) ordenan así cuando el orden es
-- fecha_gasto, con la clave de más abajo; por las demás columnas, como antes.

-- El orden de la lista sale de un índice, gastos_fecha_creado_id_idx (20261125000007_escala).

-- La clave que sigue a una columna del orden, antes de id: creado_en tras fecha_gasto; si no,
-- ninguna (un valor constante).
create function interno.buscar_gastos_despues(p_columna text) returns text language sql immutable set search_path = ''
as $$ select case when p_columna = 'fecha_gasto' then 'g.creado_en' else 'null::timestamptz' end $$;

revoke all on function interno.buscar_gastos_despues(text) from public, anon, authenticated;
