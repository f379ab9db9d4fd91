-- Dos retoques de esta ronda, tras revisarla.

-- La restricción nombra sus columnas tal cual: así el formulario sabe qué dos campos repiten una
-- política que ya existe («Categoría» y «Departamento») y lo dice junto a ellos.
alter table public.politicas_gasto
  rename constraint politicas_gasto_categoria_departamento_key to politicas_gasto_categoria_departamento_id_key;

-- El panel de inicio de cada administrador cuenta los correos no entregados: un índice solo de
-- esos, pocos, en una tabla que crece con cada aviso.
create index correos_fallidos_idx on interno.correos (creado_en) where estado = 'fallido';
