-- Oficina: historial de cambios, escrito por disparadores (ningún camino puede saltárselo).

create table public.historial (
  id bigint generated always as identity primary key,
  tabla text not null,
  registro_id uuid not null,
  accion text not null
    constraint historial_accion_check check (accion in ('alta', 'modificacion', 'baja')),
  actor_id uuid, -- auth.uid() de quien hizo el cambio; null en cargas del propietario
  cambios jsonb not null default '{}'::jsonb, -- {"campo": {"antes": …, "despues": …}}
  creado_en timestamptz not null default now()
);

create index historial_registro_idx on public.historial (tabla, registro_id, creado_en desc);
create index historial_actor_id_idx on public.historial (actor_id);

-- Una sola función genérica. En altas: todas las columnas no nulas (antes = null); en
-- modificaciones: solo las que cambian; en bajas: todas las no nulas (despues = null).
-- Nunca se registran id, creado_en, actualizado_en, version ni las columnas derivadas
-- (interno.columnas_derivadas: copias de otras columnas, no cambios).
-- Quien cambia un registro por una regla (no por un formulario: reasignaciones, pagos de quien
-- aprobó) deja el porqué en `oficina.nota_historial` (local a la transacción) y lo vacía después;
-- se añade a la misma entrada como {"nota": {"antes": null, "despues": "…"}}.
create function interno.registrar_historial() returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_antes jsonb;
  v_despues jsonb;
  v_cambios jsonb;
  v_accion text;
  v_id uuid;
  v_nota text := nullif(current_setting('oficina.nota_historial', true), '');
  v_excluidas text[] := array['id', 'creado_en', 'actualizado_en', 'version'] || interno.columnas_derivadas();
begin
  if tg_op = 'INSERT' then
    v_accion := 'alta';
    v_id := new.id;
    v_despues := to_jsonb(new);
    select coalesce(jsonb_object_agg(d.key, jsonb_build_object('antes', null, 'despues', d.value)), '{}'::jsonb)
      into v_cambios
    from jsonb_each(v_despues) d
    where d.value <> 'null'::jsonb and d.key <> all (v_excluidas);
  elsif tg_op = 'UPDATE' then
    v_accion := 'modificacion';
    v_id := new.id;
    v_antes := to_jsonb(old);
    v_despues := to_jsonb(new);
    select coalesce(jsonb_object_agg(d.key, jsonb_build_object('antes', v_antes -> d.key, 'despues', d.value)), '{}'::jsonb)
      into v_cambios
    from jsonb_each(v_despues) d
    where d.key <> all (v_excluidas) and (v_antes -> d.key) is distinct from d.value;
    if v_cambios = '{}'::jsonb then
      return null;
    end if;
  else
    v_accion := 'baja';
    v_id := old.id;
    v_antes := to_jsonb(old);
    select coalesce(jsonb_object_agg(d.key, jsonb_build_object('antes', d.value, 'despues', null)), '{}'::jsonb)
      into v_cambios
    from jsonb_each(v_antes) d
    where d.value <> 'null'::jsonb and d.key <> all (v_excluidas);
  end if;

  if v_nota is not null then
    v_cambios := v_cambios || jsonb_build_object('nota', jsonb_build_object('antes', null, 'despues', v_nota));
  end if;

  insert into public.historial (tabla, registro_id, accion, actor_id, cambios)
  values (tg_table_name, v_id, v_accion, (select auth.uid()), v_cambios);
  return null;
end
$$;

-- El disparador registrar_historial de cada tabla lo crea interno.tabla_con_historial
-- (20261125000007_escala), con el de su versión y el del contador de cambios.
