-- Oficina: justificantes (tickets y facturas) de cada gasto (issue 17, ADR 0018).
-- El contenido vive fuera de la base de datos (almacén por SHA-256); aquí, qué archivo es de qué
-- gasto, quién lo subió y cuándo. Se ven con el gasto; se añaden y quitan mientras es borrador.

-- ---------------------------------------------------------------------------------------------
-- Ajuste: importe desde el que un gasto no se envía a aprobación sin justificante
-- ---------------------------------------------------------------------------------------------

-- null: nunca obligatorio; 0 (predeterminado): siempre. Lo escribe el servidor al
-- arrancar (JUSTIFICANTE_OBLIGATORIO_DESDE); en Supabase, a mano (docs/supabase.md).
alter table interno.ajustes add column justificante_obligatorio_desde numeric(14, 2) default 0
  constraint ajustes_justificante_obligatorio_desde_check check (justificante_obligatorio_desde >= 0);

-- ---------------------------------------------------------------------------------------------
-- Tabla
-- ---------------------------------------------------------------------------------------------

create table public.justificantes (
  id uuid primary key default gen_random_uuid(),
  gasto_id uuid not null references public.gastos (id) on delete cascade,
  nombre text not null
    constraint justificantes_nombre_check check (char_length(nombre) between 1 and 255),
  tipo text not null
    constraint justificantes_tipo_check check (tipo in ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')),
  bytes integer not null
    constraint justificantes_bytes_check check (bytes between 1 and 10485760),
  sha256 text not null
    constraint justificantes_sha256_check check (sha256 ~ '^[0-9a-f]{64}$'),
  miniatura text
    constraint justificantes_miniatura_check check (miniatura ~ '^[0-9a-f]{64}$'),
  subido_por_id uuid default auth.uid() references public.usuarios (id) on delete set null,
  creado_en timestamptz not null default now()
);

create index justificantes_gasto_id_idx on public.justificantes (gasto_id, creado_en);
create index justificantes_sha256_idx on public.justificantes (sha256);
create index justificantes_subido_por_id_idx on public.justificantes (subido_por_id);

-- ---------------------------------------------------------------------------------------------
-- Reglas al añadir y quitar: el gasto bloqueado, en borrador, y como mucho 10
-- ---------------------------------------------------------------------------------------------

-- El gasto se bloquea como lo hace enviar_gasto (interno.gasto_para), así que añadir o quitar y
-- enviar se ordenan: nunca se envía un gasto cuyo único justificante se está quitando, ni entra
-- el undécimo de dos subidas a la vez. La política ya exige borrador; aquí se comprueba de nuevo
-- con la fila actual (otra transacción pudo enviarlo entre tanto).
create function interno.justificantes_reglas() returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_gasto_id uuid := case when tg_op = 'DELETE' then old.gasto_id else new.gasto_id end;
  v_estado text;
begin
  select g.estado into v_estado from public.gastos g where g.id = v_gasto_id for update;
  if not found then
    -- Borrado en cascada del propio gasto: nada que comprobar.
    return case when tg_op = 'DELETE' then old else new end;
  end if;
  -- Sin usuario (el propietario: datos de demostración, mantenimiento) no hay flujo que proteger.
  if v_estado <> 'borrador' and (select auth.uid()) is not null then
    raise exception using errcode = 'OFCNF', detail = 'estado',
      message = 'El gasto ya no está en borrador: sus justificantes no se pueden cambiar.';
  end if;
  if tg_op = 'INSERT'
     and (select count(*) from public.justificantes j where j.gasto_id = v_gasto_id) >= 10 then
    raise exception using errcode = 'OFINV', detail = 'justificantes',
      message = 'Un gasto admite como mucho 10 justificantes: quite alguno antes de añadir otro.';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end
$$;

create trigger justificantes_reglas before insert or delete on public.justificantes
  for each row execute function interno.justificantes_reglas();

-- ---------------------------------------------------------------------------------------------
-- Historial: en el del gasto, como un cambio de su campo «justificantes»
-- ---------------------------------------------------------------------------------------------

create function interno.justificantes_historial() returns trigger language plpgsql security definer set search_path = '' as $$
declare
  j public.justificantes := case when tg_op = 'DELETE' then old else new end;
begin
  if not exists (select 1 from public.gastos g where g.id = j.gasto_id) then
    return null; -- el gasto se está eliminando: su propia baja ya queda en el historial
  end if;
  insert into public.historial (tabla, registro_id, accion, actor_id, cambios)
  values ('gastos', j.gasto_id, 'modificacion', (select auth.uid()),
    jsonb_build_object('justificantes', case when tg_op = 'DELETE'
      then jsonb_build_object('antes', j.nombre, 'despues', null)
      else jsonb_build_object('antes', null, 'despues', j.nombre) end));
  return null;
end
$$;

create trigger justificantes_historial after insert or delete on public.justificantes
  for each row execute function interno.justificantes_historial();

-- Lo que el adaptador SQL guarda por contador de cambios (ADR 0008) se lee de nuevo.
select interno.contar_cambios_de('justificantes');

-- ---------------------------------------------------------------------------------------------
-- RLS: la visibilidad del gasto; añadir y quitar, quien puede editarlo mientras es borrador
-- ---------------------------------------------------------------------------------------------

alter table public.justificantes enable row level security;

-- La subconsulta sobre gastos pasa por la política gastos_select: se ve lo que se ve del gasto.
create policy justificantes_select on public.justificantes for select to authenticated
  using (exists (select 1 from public.gastos g where g.id = gasto_id));
create policy justificantes_insert on public.justificantes for insert to authenticated
  with check (
    subido_por_id = (select auth.uid())
    and exists (select 1 from public.gastos g
                 where g.id = gasto_id and g.estado = 'borrador'
                   and (g.solicitante_id = (select auth.uid()) or (select interno.es_admin())))
  );
create policy justificantes_delete on public.justificantes for delete to authenticated
  using (
    exists (select 1 from public.gastos g
             where g.id = gasto_id and g.estado = 'borrador'
               and (g.solicitante_id = (select auth.uid()) or (select interno.es_admin())))
  );

grant select, delete on public.justificantes to authenticated;
-- The sweep of files no row names (app/justificantes/barrido.server.ts) reads every row.
grant select on public.justificantes to service_role;
grant insert (gasto_id, nombre, tipo, bytes, sha256, miniatura) on public.justificantes to authenticated;

-- La lista de gastos cuenta los justificantes de cada gasto (el clip de la lista, la columna del
-- CSV): interno.crear_gastos_vista (20261125000004_rls).

-- ---------------------------------------------------------------------------------------------
-- Duplicados: otros gastos (que quien pregunta puede ver) con el mismo contenido
-- ---------------------------------------------------------------------------------------------

create function public.gastos_con_justificante(p_sha256 text, p_excepto uuid default null)
returns table (gasto_id uuid, folio text, nombre text) language sql stable security invoker set search_path = '' as $$
  select distinct on (g.id) g.id, g.folio, j.nombre
    from public.justificantes j
    join public.gastos g on g.id = j.gasto_id
   where j.sha256 = p_sha256 and g.id is distinct from p_excepto
   order by g.id, j.creado_en
$$;

-- Los justificantes de un gasto que también están (mismo contenido) en otro que quien pregunta ve:
-- el panel del gasto lo dice junto a cada uno, al solicitante y a quien aprueba.
create function public.justificantes_duplicados(p_gasto uuid)
returns table (justificante_id uuid, gasto_id uuid, folio text) language sql stable security invoker set search_path = '' as $$
  select distinct on (j.id) j.id, g.id, g.folio
    from public.justificantes j
    join public.justificantes o on o.sha256 = j.sha256 and o.gasto_id <> j.gasto_id
    join public.gastos g on g.id = o.gasto_id
   where j.gasto_id = p_gasto
   order by j.id, o.creado_en
$$;

-- ---------------------------------------------------------------------------------------------
-- Enviar a aprobación: con justificante desde el importe que fije la instalación (lo comprueba
-- enviar_gasto, en 20261125000005_flujo, con estas funciones)
-- ---------------------------------------------------------------------------------------------

create function interno.justificante_obligatorio_desde() returns numeric
language sql stable security definer set search_path = '' as $$
  select a.justificante_obligatorio_desde from interno.ajustes a where a.unica
$$;

-- Por qué un gasto con p_justificantes justificantes no se envía aún (null: se envía): enviar_gasto
-- lo rechaza con estas palabras y la ficha las dice antes (public.avisos_antes_de_enviar).
create function interno.falta_justificante(p_importe numeric, p_clase text, p_justificantes bigint) returns text
language sql stable security definer set search_path = '' as $$
  select 'Adjunte el justificante (ticket o factura) antes de enviar el gasto a aprobación'
         || case when d = 0 then '.' else ': es obligatorio desde ' || interno.euros(d) || ' €.' end
    from interno.justificante_obligatorio_desde() d
   where p_clase = 'ordinario' and p_justificantes = 0 and p_importe >= d
$$;

-- Un justificante cuyo contenido está también en otro gasto (cualquiera, lo vea o no quien
-- envía: un ticket reclamado dos veces es el fraude más común) solo se envía con un motivo, que
-- queda en el historial del gasto. Sin decir cuál es el otro gasto a quien no lo ve.
create function interno.contenido_en_otro_gasto(p_sha256 text, p_gasto uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.justificantes o where o.sha256 = p_sha256 and o.gasto_id <> p_gasto)
$$;

-- Para el formulario de envío: si el gasto (que quien pregunta ve) lleva un duplicado.
create function public.gasto_lleva_duplicado(p_gasto uuid) returns boolean
language sql stable security invoker set search_path = '' as $$
  select exists (select 1 from public.justificantes j
                  where j.gasto_id = p_gasto and interno.contenido_en_otro_gasto(j.sha256, j.gasto_id))
$$;

revoke execute on function interno.justificantes_reglas(), interno.justificantes_historial(),
  interno.justificante_obligatorio_desde(), interno.contenido_en_otro_gasto(text, uuid) from public, anon;
grant execute on function interno.contenido_en_otro_gasto(text, uuid) to authenticated, service_role;
revoke execute on function interno.falta_justificante(numeric, text, bigint) from public, anon;
grant execute on function interno.falta_justificante(numeric, text, bigint) to authenticated, service_role;
revoke execute on function public.gasto_lleva_duplicado(uuid) from public, anon;
grant execute on function public.gasto_lleva_duplicado(uuid) to authenticated, service_role;
revoke execute on function public.justificantes_duplicados(uuid) from public, anon;
grant execute on function public.justificantes_duplicados(uuid) to authenticated, service_role;
revoke execute on function public.gastos_con_justificante(text, uuid) from public, anon;
grant execute on function public.gastos_con_justificante(text, uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Supabase Storage: un bucket privado con la visibilidad del gasto (docs/supabase.md)
-- ---------------------------------------------------------------------------------------------

-- Con Supabase los archivos viven en este bucket, como `<gasto>/<sha256>`; el servidor los sube
-- y los lee con el JWT de quien ha iniciado sesión. Privado: ningún archivo tiene una dirección
-- pública. Los mismos límites que comprueba el servidor, por si alguien sube directamente.
-- (En PostgreSQL normal, supabase/compat/0004_storage.sql da estas tablas sin guardar archivos.)
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('justificantes', 'justificantes', false, 10485760,
        array['image/jpeg', 'image/png', 'image/webp', 'application/pdf'])
on conflict (id) do update set public = false, file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

-- Leer: solo un archivo que un justificante de ese mismo gasto nombra (contenido o miniatura),
-- visto a través de la política de justificantes, que es la del gasto. Sin la fila (aún no
-- insertada, o ya quitada) nadie lo lee.
create policy justificantes_leer on storage.objects for select to authenticated
  using (
    bucket_id = 'justificantes'
    and exists (select 1 from public.justificantes j
                 where j.gasto_id::text = (storage.foldername(name))[1]
                   and storage.filename(name) in (j.sha256, j.miniatura))
  );
-- Subir y quitar: quien puede cambiar los justificantes del gasto (la regla de la tabla), en su
-- carpeta y con un nombre que es un hash. Subir va antes de insertar la fila.
create policy justificantes_subir on storage.objects for insert to authenticated
  with check (
    bucket_id = 'justificantes'
    and array_length(storage.foldername(name), 1) = 1
    and storage.filename(name) ~ '^[0-9a-f]{64}$'
    and exists (select 1 from public.gastos g
                 where g.id::text = (storage.foldername(name))[1] and g.estado = 'borrador'
                   and (g.solicitante_id = (select auth.uid()) or (select interno.es_admin())))
  );
create policy justificantes_quitar on storage.objects for delete to authenticated
  using (
    bucket_id = 'justificantes'
    and exists (select 1 from public.gastos g
                 where g.id::text = (storage.foldername(name))[1] and g.estado = 'borrador'
                   and (g.solicitante_id = (select auth.uid()) or (select interno.es_admin())))
  );
