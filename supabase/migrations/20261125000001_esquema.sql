-- Oficina: tablas, restricciones, índices y disparadores de integridad.
--
-- Versión base (ADR 0016): las migraciones anteriores a ella se reunieron aquí y en los archivos
-- que siguen, uno por asunto, cada objeto en su forma final.
--
-- Se aplica sin cambios con la CLI de Supabase y, tras supabase/compat, en PostgreSQL normal.
-- Convenciones de error (la aplicación las traduce):
--   OFINV  dato no válido para una regla de negocio (detail = columna afectada o '')
--   OFCNF  conflicto: versión obsoleta o transición que ya no es válida
--   OFPRM  el usuario no tiene permiso para la acción
--   OFNTF  el registro no existe o no es visible para el usuario
--   23505 / 23503 / 23514 con los nombres de restricción <tabla>_<columna>_key|fkey|check

-- Funciones internas: no expuestas por la API (PostgREST solo expone public).
create schema if not exists interno;

-- El nombre de una persona tal como se muestra: nombre y apellidos, o null si no queda nada.
-- Sin set search_path ni security definer para que el planificador la expanda (listas de 100 000
-- gastos): por eso pg_catalog escrito. Stable, no immutable: concat_ws es stable, y una immutable
-- que la llama no se expande. Quién la ejecuta: 20261125000004_rls.
create function interno.nombre_completo(p_nombre text, p_apellidos text) returns text
language sql stable parallel safe as $$
  select nullif(pg_catalog.btrim(pg_catalog.concat_ws(' ', p_nombre, p_apellidos)), '')
$$;

-- ---------------------------------------------------------------------------------------------
-- Tablas
-- ---------------------------------------------------------------------------------------------
-- Orden alfabético español: con la intercalación por defecto de la base (a menudo "C" u otra que
-- ordena por bytes), «Álvaro» e «Íñigo» saldrían después de «Víctor». Las columnas de texto por
-- las que se ordena una lista o un selector llevan la intercalación ICU española ("es-x-icu"): el
-- ORDER BY de cualquier consulta la usa sin decirlo (también el de PostgREST, que no puede pedir
-- otra), sus índices también, y las columnas de las vistas que derivan de ellas (nombre completo,
-- responsable, proveedor) la heredan. Las mismas reglas en los dos backends.

create table public.departamentos (
  id uuid primary key default gen_random_uuid(),
  nombre text collate "es-x-icu" not null
    constraint departamentos_nombre_check check (char_length(nombre) between 2 and 80),
  codigo text not null
    constraint departamentos_codigo_check check (codigo ~ '^[A-Z0-9-]{2,10}$'),
  departamento_padre_id uuid
    constraint departamentos_departamento_padre_id_fkey references public.departamentos (id),
  responsable_id uuid, -- FK a usuarios, más abajo
  centro_costo text
    constraint departamentos_centro_costo_check check (char_length(centro_costo) <= 20),
  -- Solo de entrada: el valor y su regla están en departamentos_presupuesto
  -- (20261226000001_datos_por_necesidad).
  presupuesto_mensual numeric(14, 2),
  activo boolean not null default true,
  notas text
    constraint departamentos_notas_check check (char_length(notas) <= 2000),
  creado_en timestamptz not null default now(),
  actualizado_en timestamptz not null default now(),
  version integer not null default 1,
  constraint departamentos_codigo_key unique (codigo),
  constraint departamentos_departamento_padre_id_check check (departamento_padre_id <> id)
);
create unique index departamentos_nombre_key on public.departamentos (lower(nombre));

create table public.sucursales (
  id uuid primary key default gen_random_uuid(),
  nombre text collate "es-x-icu" not null
    constraint sucursales_nombre_check check (char_length(nombre) between 2 and 80),
  codigo text not null
    constraint sucursales_codigo_check check (codigo ~ '^[A-Z0-9-]{2,10}$'),
  direccion text not null
    constraint sucursales_direccion_check check (char_length(direccion) between 1 and 200),
  ciudad text collate "es-x-icu" not null
    constraint sucursales_ciudad_check check (char_length(ciudad) between 1 and 80),
  provincia text collate "es-x-icu"
    constraint sucursales_provincia_check check (char_length(provincia) <= 80),
  codigo_postal text
    constraint sucursales_codigo_postal_check check (char_length(codigo_postal) <= 10),
  pais text not null default 'ES'
    constraint sucursales_pais_check check (pais ~ '^[A-Z]{2}$'),
  telefono text
    constraint sucursales_telefono_check check (telefono ~ '^\+?[0-9 ]{6,20}$'),
  email text
    constraint sucursales_email_check
    check (char_length(email) <= 254 and email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'),
  responsable_id uuid, -- FK a usuarios, más abajo
  activo boolean not null default true,
  creado_en timestamptz not null default now(),
  actualizado_en timestamptz not null default now(),
  version integer not null default 1,
  constraint sucursales_codigo_key unique (codigo)
);
create unique index sucursales_nombre_key on public.sucursales (lower(nombre));

create table public.usuarios (
  id uuid primary key default gen_random_uuid()
    constraint usuarios_id_fkey references auth.users (id) on delete cascade,
  nombre text collate "es-x-icu" not null
    constraint usuarios_nombre_check check (char_length(nombre) between 1 and 80),
  apellidos text collate "es-x-icu"
    constraint usuarios_apellidos_check check (char_length(apellidos) <= 120),
  email text not null,
  rol text not null default 'empleado'
    constraint usuarios_rol_check check (rol in ('administrador', 'aprobador', 'empleado')),
  departamento_id uuid
    constraint usuarios_departamento_id_fkey references public.departamentos (id),
  sucursal_id uuid
    constraint usuarios_sucursal_id_fkey references public.sucursales (id),
  aprobador_id uuid
    constraint usuarios_aprobador_id_fkey references public.usuarios (id),
  puesto text collate "es-x-icu"
    constraint usuarios_puesto_check check (char_length(puesto) <= 80),
  telefono text
    constraint usuarios_telefono_check check (telefono ~ '^\+?[0-9 ]{6,20}$'),
  activo boolean not null default true,
  creado_en timestamptz not null default now(),
  actualizado_en timestamptz not null default now(),
  version integer not null default 1,
  -- Alta abierta (o cuenta creada confirmada desde el panel de Supabase): una persona que nadie ha
  -- comprobado todavía. Mientras sea un empleado de alta propia sin departamento («pendiente»), la
  -- RLS solo le deja ver lo suyo (interno.ubicado, 20261125000004_rls). La pone el disparador de
  -- auth.users (20261125000003_cuentas); no se concede a `authenticated`: nadie se la quita a sí
  -- mismo, y el departamento propio solo lo cambia un administrador (interno.usuarios_proteger).
  alta_propia boolean not null default false,
  constraint usuarios_email_key unique (email),
  constraint usuarios_aprobador_id_check check (aprobador_id <> id)
);

alter table public.departamentos
  add constraint departamentos_responsable_id_fkey
  foreign key (responsable_id) references public.usuarios (id);
alter table public.sucursales
  add constraint sucursales_responsable_id_fkey
  foreign key (responsable_id) references public.usuarios (id);

create table public.proveedores (
  id uuid primary key default gen_random_uuid(),
  razon_social text collate "es-x-icu" not null
    constraint proveedores_razon_social_check check (char_length(razon_social) between 2 and 200),
  nombre_comercial text collate "es-x-icu"
    constraint proveedores_nombre_comercial_check check (char_length(nombre_comercial) <= 200),
  tipo_persona text not null
    constraint proveedores_tipo_persona_check check (tipo_persona in ('empresa', 'persona_fisica')),
  pais text not null default 'ES'
    constraint proveedores_pais_check check (pais ~ '^[A-Z]{2}$'),
  -- Normalizado por la aplicación (mayúsculas, sin espacios; en ES sin puntos, guiones ni prefijo ES).
  nif text not null
    constraint proveedores_nif_check check (nif ~ '^[A-Z0-9Ñ&./-]{3,20}$'),
  email text
    constraint proveedores_email_check
    check (char_length(email) <= 254 and email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'),
  telefono text
    constraint proveedores_telefono_check check (telefono ~ '^\+?[0-9 ]{6,20}$'),
  sitio_web text
    constraint proveedores_sitio_web_check check (char_length(sitio_web) <= 200),
  direccion text
    constraint proveedores_direccion_check check (char_length(direccion) <= 200),
  ciudad text collate "es-x-icu"
    constraint proveedores_ciudad_check check (char_length(ciudad) <= 80),
  provincia text
    constraint proveedores_provincia_check check (char_length(provincia) <= 80),
  codigo_postal text
    constraint proveedores_codigo_postal_check check (char_length(codigo_postal) <= 10),
  -- Normalizado por la aplicación: mayúsculas y sin espacios (el dígito de control lo valida la app).
  -- iban y notas son solo de entrada: el valor y su regla están en proveedores_pago
  -- (20261226000001_datos_por_necesidad).
  iban text,
  categoria text not null default 'otros'
    constraint proveedores_categoria_check check (categoria in (
      'suministros', 'servicios_profesionales', 'tecnologia', 'viajes', 'logistica',
      'mantenimiento', 'marketing', 'otros')),
  activo boolean not null default true,
  notas text,
  creado_en timestamptz not null default now(),
  actualizado_en timestamptz not null default now(),
  version integer not null default 1,
  constraint proveedores_nif_key unique (pais, nif)
);

-- Las categorías de gasto (app/lib/opciones.ts, CATEGORIAS_GASTO): las comprueban los gastos y
-- sus datos fiscales (public.categorias_fiscales).
create function interno.es_categoria_gasto(p_categoria text) returns boolean
language sql immutable set search_path = '' as $$
  select p_categoria in (
    'alojamiento', 'comidas', 'viajes_transporte', 'combustible', 'aparcamiento_peajes',
    'material_oficina', 'telefonia_internet', 'software_suscripciones', 'formacion',
    'atenciones_clientes', 'mensajeria', 'mantenimiento_reparaciones',
    'servicios_profesionales', 'otros')
$$;

create table public.gastos (
  id uuid primary key default gen_random_uuid(),
  folio text not null, -- lo asigna gastos_asignar_folio; se ignora lo que envíe el cliente
  descripcion text collate "es-x-icu" not null
    constraint gastos_descripcion_check check (char_length(descripcion) between 3 and 255),
  fecha_gasto date not null,
  categoria text not null
    constraint gastos_categoria_check check (interno.es_categoria_gasto(categoria)),
  importe numeric(14, 2) not null
    constraint gastos_importe_check check (importe > 0 and importe <= 1000000),
  importe_impuestos numeric(14, 2)
    constraint gastos_importe_impuestos_check check (importe_impuestos >= 0 and importe_impuestos <= importe),
  metodo_pago text not null
    constraint gastos_metodo_pago_check check (metodo_pago in (
      'efectivo', 'tarjeta_credito', 'tarjeta_debito', 'tarjeta_corporativa', 'transferencia',
      'domiciliacion', 'cheque', 'caja_chica')),
  proveedor_id uuid
    constraint gastos_proveedor_id_fkey references public.proveedores (id),
  numero_factura text
    constraint gastos_numero_factura_check check (char_length(numero_factura) <= 50),
  solicitante_id uuid not null default auth.uid()
    constraint gastos_solicitante_id_fkey references public.usuarios (id),
  departamento_id uuid not null
    constraint gastos_departamento_id_fkey references public.departamentos (id),
  sucursal_id uuid not null
    constraint gastos_sucursal_id_fkey references public.sucursales (id),
  aprobador_id uuid
    constraint gastos_aprobador_id_fkey references public.usuarios (id),
  aprobado_por_id uuid
    constraint gastos_aprobado_por_id_fkey references public.usuarios (id),
  fecha_aprobacion timestamptz,
  estado text not null default 'borrador'
    constraint gastos_estado_check check (estado in ('borrador', 'pendiente', 'aprobado', 'rechazado', 'pagado')),
  motivo_rechazo text
    constraint gastos_motivo_rechazo_check check (char_length(motivo_rechazo) <= 1000),
  fecha_pago date,
  referencia_pago text
    constraint gastos_referencia_pago_check check (char_length(referencia_pago) <= 100),
  notas text
    constraint gastos_notas_check check (char_length(notas) <= 2000),
  creado_en timestamptz not null default now(),
  actualizado_en timestamptz not null default now(),
  version integer not null default 1,
  -- Copia exacta del importe en céntimos para filtrar con un índice bajo RLS: las comparaciones
  -- de numeric no son LEAKPROOF y las de bigint sí (ADR 0006). Nadie la escribe.
  importe_centimos bigint generated always as ((importe * 100)::bigint) stored,
  -- Autoría (separación de funciones, ADR 0012): la ponen los disparadores desde auth.uid().
  creado_por_id uuid
    constraint gastos_creado_por_id_fkey references public.usuarios (id) on delete set null,
  editado_por_id uuid
    constraint gastos_editado_por_id_fkey references public.usuarios (id) on delete set null,
  constraint gastos_folio_key unique (folio),
  -- Coherencia del flujo (también para las cargas hechas por el propietario).
  constraint gastos_estado_rechazado_check check (estado <> 'rechazado' or motivo_rechazo is not null),
  constraint gastos_estado_pagado_check
    check (estado <> 'pagado' or (fecha_pago is not null and referencia_pago is not null)),
  constraint gastos_estado_aprobado_check
    check (estado not in ('aprobado', 'pagado') or (aprobado_por_id is not null and fecha_aprobacion is not null))
);

-- Contador de folios por año (solo lo toca el disparador, como propietario).
create table public.gastos_folio_contador (
  anio integer primary key,
  ultimo integer not null
);


comment on column public.gastos.creado_por_id is
  'Quien dio de alta el gasto (auth.uid() al insertar; null en cargas del propietario).';
comment on column public.gastos.editado_por_id is
  'El último que editó los datos del gasto sin ser su solicitante (en su nombre); null si nadie.';

-- ---------------------------------------------------------------------------------------------
-- Índices: filtros y orden de las listas, claves foráneas (y políticas RLS), búsqueda (trigramas).
-- Los de la lista de gastos a escala y los del panel están en sus archivos (escala, panel).
-- ---------------------------------------------------------------------------------------------

create index departamentos_nombre_idx on public.departamentos (nombre);
create index departamentos_departamento_padre_id_idx on public.departamentos (departamento_padre_id);
create index departamentos_responsable_id_idx on public.departamentos (responsable_id);
create index departamentos_activo_idx on public.departamentos (activo);
create index departamentos_creado_en_idx on public.departamentos (creado_en);

create index sucursales_nombre_idx on public.sucursales (nombre);
create index sucursales_responsable_id_idx on public.sucursales (responsable_id);
create index sucursales_activo_idx on public.sucursales (activo);
create index sucursales_pais_ciudad_idx on public.sucursales (pais, ciudad);
create index sucursales_lower_ciudad_idx on public.sucursales (lower(ciudad));
create index sucursales_creado_en_idx on public.sucursales (creado_en);

create index usuarios_nombre_idx on public.usuarios (nombre, apellidos);
create index usuarios_lower_nombre_idx on public.usuarios (lower(nombre), lower(apellidos));
create index usuarios_lower_apellidos_idx on public.usuarios (lower(apellidos));
create index usuarios_departamento_id_idx on public.usuarios (departamento_id);
create index usuarios_sucursal_id_idx on public.usuarios (sucursal_id);
create index usuarios_aprobador_id_idx on public.usuarios (aprobador_id);
create index usuarios_rol_activo_idx on public.usuarios (rol, activo);
create index usuarios_activo_idx on public.usuarios (activo);
create index usuarios_creado_en_idx on public.usuarios (creado_en);

create index proveedores_razon_social_idx on public.proveedores (razon_social);
create index proveedores_lower_razon_social_idx on public.proveedores (lower(razon_social));
create index proveedores_lower_nombre_comercial_idx on public.proveedores (lower(nombre_comercial));
create index proveedores_categoria_idx on public.proveedores (categoria);
create index proveedores_activo_idx on public.proveedores (activo);
create index proveedores_tipo_persona_idx on public.proveedores (tipo_persona);
create index proveedores_nif_idx on public.proveedores (nif);
create index proveedores_creado_en_idx on public.proveedores (creado_en);

create index gastos_estado_departamento_fecha_idx on public.gastos (estado, departamento_id, fecha_gasto);
create index gastos_solicitante_fecha_idx on public.gastos (solicitante_id, fecha_gasto desc);
create index gastos_aprobador_estado_idx on public.gastos (aprobador_id, estado);
create index gastos_departamento_fecha_idx on public.gastos (departamento_id, fecha_gasto);
create index gastos_sucursal_fecha_idx on public.gastos (sucursal_id, fecha_gasto);
create index gastos_proveedor_id_idx on public.gastos (proveedor_id);
create index gastos_aprobado_por_id_idx on public.gastos (aprobado_por_id);
create index gastos_importe_idx on public.gastos (importe);
create index gastos_metodo_pago_idx on public.gastos (metodo_pago);
create index gastos_creado_en_idx on public.gastos (creado_en);

-- ---------------------------------------------------------------------------------------------
-- Disparadores comunes
-- ---------------------------------------------------------------------------------------------

-- Bloqueo optimista: la aplicación actualiza `where id = $1 and version = $2`. Rehacer solo el
-- texto de búsqueda (`oficina.solo_busqueda`: un proveedor que cambia de nombre,
-- 20261201000001_busqueda) no es una edición: ni versión nueva ni fecha de actualización.
create function interno.tocar_version() returns trigger language plpgsql set search_path = '' as $$
begin
  if current_setting('oficina.solo_busqueda', true) = 'si' then
    return new;
  end if;
  new.version := old.version + 1;
  new.actualizado_en := now();
  return new;
end
$$;

-- El disparador tocar_version de cada tabla lo crea interno.tabla_con_historial
-- (20261125000007_escala), con el historial y el contador de cambios.

-- Lo que se escribe en ciertas columnas se guarda de una forma: cada tabla lo declara al crear su
-- disparador, con pares (columna, regla) como argumentos. Las reglas:
--   mayusculas  sin espacios a los lados, en mayúsculas (códigos, países);
--   nif         sin espacios, puntos ni guiones, en mayúsculas; vacío es nulo;
--   iban        sin espacios, en mayúsculas;
--   texto       sin espacios a los lados; vacío es nulo.
create function interno.normalizar_columnas() returns trigger language plpgsql set search_path = '' as $$
declare
  v_fila jsonb := to_jsonb(new);
  v_cambios jsonb := '{}';
  v text;
begin
  for i in 0 .. tg_nargs - 1 by 2 loop
    v := v_fila ->> tg_argv[i];
    case tg_argv[i + 1]
      when 'mayusculas' then v := upper(btrim(v));
      when 'nif' then v := nullif(upper(regexp_replace(v, '[\s.-]', '', 'g')), '');
      when 'iban' then v := upper(replace(v, ' ', ''));
      when 'texto' then v := nullif(btrim(v), '');
    end case;
    v_cambios := v_cambios || jsonb_build_object(tg_argv[i], v);
  end loop;
  return jsonb_populate_record(new, v_cambios);
end
$$;

create trigger normalizar before insert or update on public.departamentos
  for each row execute function interno.normalizar_columnas('codigo', 'mayusculas');
create trigger normalizar before insert or update on public.sucursales
  for each row execute function interno.normalizar_columnas('codigo', 'mayusculas', 'pais', 'mayusculas');
create trigger normalizar before insert or update on public.proveedores
  for each row execute function interno.normalizar_columnas('pais', 'mayusculas', 'nif', 'mayusculas', 'iban', 'iban');

-- Sin ciclos en la jerarquía de departamentos.
create function interno.departamentos_sin_ciclos() returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_ciclo boolean;
begin
  if new.departamento_padre_id is null then
    return new;
  end if;
  if tg_op = 'UPDATE' and new.departamento_padre_id is not distinct from old.departamento_padre_id then
    return new;
  end if;
  if new.departamento_padre_id = new.id then
    raise exception using errcode = 'OFINV', detail = 'departamento_padre_id',
      message = 'Un departamento no puede ser su propio departamento superior.';
  end if;
  -- Dos cambios simultáneos podrían cerrar un ciclo entre ambos: se serializan.
  perform pg_advisory_xact_lock(hashtext('oficina.departamentos.jerarquia'));
  with recursive ascendientes (id, padre) as (
    select d.id, d.departamento_padre_id from public.departamentos d where d.id = new.departamento_padre_id
    union
    select d.id, d.departamento_padre_id
    from public.departamentos d
    join ascendientes a on d.id = a.padre
  )
  select exists (select 1 from ascendientes where id = new.id) into v_ciclo;
  if v_ciclo then
    raise exception using errcode = 'OFINV', detail = 'departamento_padre_id',
      message = 'El departamento superior no puede ser uno de sus subdepartamentos.';
  end if;
  return new;
end
$$;

create trigger departamentos_sin_ciclos before insert or update of departamento_padre_id on public.departamentos
  for each row execute function interno.departamentos_sin_ciclos();

-- ---------------------------------------------------------------------------------------------
-- Gastos: folio, valores por defecto y reglas de los datos
-- ---------------------------------------------------------------------------------------------

-- El folio siguiente del año p_anio en el contador p_contador (una tabla con anio y ultimo, una fila
-- por año): «GAS-2026-00042», el número con al menos p_cifras cifras. Un solo contador por año,
-- bloqueado por la fila hasta el final de la transacción: dos altas a la vez no comparten número.
-- Lo usan los folios de los gastos y de las remesas (20261214000001_remesas).
create function interno.folio_siguiente(p_contador regclass, p_prefijo text, p_anio integer, p_cifras integer)
returns text language plpgsql security definer set search_path = '' as $$
declare
  v_numero integer;
begin
  execute format('insert into %s as c (anio, ultimo) values ($1, 1)
                  on conflict (anio) do update set ultimo = c.ultimo + 1
                  returning c.ultimo', p_contador)
    into v_numero using p_anio;
  return p_prefijo || '-' || p_anio || '-' || lpad(v_numero::text, greatest(p_cifras, length(v_numero::text)), '0');
end
$$;
revoke all on function interno.folio_siguiente(regclass, text, integer, integer) from public, anon, authenticated;

-- El año del folio es el de la oficina (Madrid), no el de la sesión: ver interno.hoy()
-- (20270102000001_el_dia_de_la_oficina).
create function interno.gastos_asignar_folio() returns trigger
language plpgsql security definer set search_path = '' set timezone to 'Europe/Madrid' as $$
begin
  new.folio := interno.folio_siguiente('public.gastos_folio_contador', 'GAS',
    extract(year from new.creado_en)::integer, 5);
  return new;
end
$$;

create trigger gastos_asignar_folio before insert on public.gastos for each row execute function interno.gastos_asignar_folio();

-- Las columnas que la base de datos calcula a partir de otras: nadie las edita y no son un cambio
-- que contar. La única lista: la usan gastos_datos, el historial y su carga masiva (scripts/seed).
-- `busqueda` la añade 20261201000001_busqueda y `fuera_de_politica` (una copia de si el gasto
-- incumplía su política) 20261219000001_politicas; aquí son solo nombres.
create function interno.columnas_derivadas() returns text[] language sql immutable parallel safe set search_path = ''
as $$ select array['importe_centimos', 'busqueda', 'fuera_de_politica', 'porcentaje_deducible_al_aprobar', 'motivo_al_aprobar', 'cuenta_al_aprobar',
  'irpf_exento_al_aprobar', 'irpf_sujeto_al_aprobar', 'irpf_explicacion_al_aprobar', 'numero_recepcion'] $$;

-- gastos_validar: valores por defecto, autoría y reglas de los datos. Nadie escribe la autoría:
-- authenticated no tiene privilegio sobre ella y, con un JWT, lo que llegue se sustituye por lo
-- que dice auth.uid(). Las cargas masivas de scripts/seed.ts desactivan este disparador y dejan la
-- autoría vacía, como corresponde a una carga del propietario.
-- Los datos de un gasto que escribe un formulario: la fila sin las columnas del flujo (estado,
-- aprobación, pago; también lo que se incumplía al enviarlo y su motivo, que escribe enviar_gasto:
-- no son un dato que edite alguien por cuenta de otro), las de control y las derivadas. Una
-- columna nueva cuenta sola. Sin
-- `busqueda` también porque en gastos_validar aún no está calculada (la escribe texto_busqueda
-- después): con ella, toda edición contaría como «editado por cuenta de otro».
create function interno.gastos_datos(g public.gastos) returns jsonb language sql immutable set search_path = '' as $$
  select to_jsonb(g) - (array['id', 'folio', 'estado', 'aprobador_id', 'aprobado_por_id', 'fecha_aprobacion',
                              'motivo_rechazo', 'fecha_pago', 'referencia_pago', 'creado_en', 'actualizado_en',
                              'version', 'creado_por_id', 'editado_por_id', 'politica_incumplida', 'motivo_politica']
                        || interno.columnas_derivadas())
$$;

-- «Hoy» es el día de la oficina (Madrid), sea cual sea la zona de la sesión.
create function interno.gastos_validar() returns trigger
language plpgsql security definer set search_path = '' set timezone to 'Europe/Madrid' as $$
declare
  v_usuario record;
  v_uid uuid := (select auth.uid());
begin
  if tg_op = 'INSERT' then
    new.creado_en := coalesce(new.creado_en, now());
    -- Departamento y sucursal: por defecto, los del solicitante.
    if new.departamento_id is null or new.sucursal_id is null then
      select u.departamento_id, u.sucursal_id into v_usuario
      from public.usuarios u where u.id = new.solicitante_id;
      if found then
        new.departamento_id := coalesce(new.departamento_id, v_usuario.departamento_id);
        new.sucursal_id := coalesce(new.sucursal_id, v_usuario.sucursal_id);
      end if;
    end if;
    if v_uid is not null then
      new.creado_por_id := v_uid;
      new.editado_por_id := null;
    end if;
  else
    new.folio := old.folio;
    if v_uid is not null then
      new.creado_por_id := old.creado_por_id;
      new.editado_por_id := old.editado_por_id;
      -- Editar los datos (no una transición del flujo) por cuenta de otra persona: cualquier
      -- columna que no sea del flujo ni de control, también las que se añadan después.
      if v_uid <> new.solicitante_id
         and interno.gastos_datos(new) is distinct from interno.gastos_datos(old) then
        new.editado_por_id := v_uid;
      end if;
    end if;
  end if;

  -- Reglas de fecha solo para peticiones de usuarios (las cargas del propietario no tienen JWT).
  if v_uid is not null
     and (tg_op = 'INSERT' or new.fecha_gasto is distinct from old.fecha_gasto) then
    if new.fecha_gasto > current_date + 1 then
      raise exception using errcode = 'OFINV', detail = 'fecha_gasto',
        message = 'La fecha del gasto no puede ser futura.';
    end if;
    if new.fecha_gasto < current_date - 366 then
      raise exception using errcode = 'OFINV', detail = 'fecha_gasto',
        message = 'La fecha del gasto no puede tener más de un año de antigüedad.';
    end if;
  end if;

  if new.proveedor_id is not null
     and (tg_op = 'INSERT' or new.proveedor_id is distinct from old.proveedor_id)
     and exists (select 1 from public.proveedores p where p.id = new.proveedor_id and not p.activo) then
    raise exception using errcode = 'OFINV', detail = 'proveedor_id',
      message = 'El proveedor está desactivado: elija un proveedor activo.';
  end if;
  return new;
end
$$;

create trigger gastos_validar before insert or update on public.gastos for each row execute function interno.gastos_validar();

-- ---------------------------------------------------------------------------------------------
-- Usuarios: rol y activo solo los cambia un administrador; siempre queda un administrador activo
-- ---------------------------------------------------------------------------------------------

create function interno.usuarios_proteger() returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := (select auth.uid());
  v_campo text;
  v_mensaje text;
begin
  if tg_op = 'DELETE' then
    -- Borrados pedidos por un usuario (las bajas de cuentas del propietario no tienen JWT).
    if v_uid is not null and old.rol = 'administrador' and old.activo then
      perform pg_advisory_xact_lock(hashtext('oficina.usuarios.administradores'));
      if not exists (select 1 from public.usuarios u
                     where u.rol = 'administrador' and u.activo and u.id <> old.id) then
        raise exception using errcode = 'OFINV', detail = 'rol',
          message = 'No se puede eliminar al último administrador activo.';
      end if;
    end if;
    return old;
  end if;

  new.id := old.id;

  if new.aprobador_id is not null and new.aprobador_id = new.id then
    raise exception using errcode = 'OFINV', detail = 'aprobador_id',
      message = 'Un usuario no puede ser su propio aprobador de gastos.';
  end if;

  -- Quien no es administrador no cambia rol ni activo (ni los suyos), ni tampoco su departamento
  -- ni su aprobador: de ellos dependen qué gastos ve y quién aprueba los suyos.
  if v_uid is not null and not (select interno.es_admin()) then
    for v_campo, v_mensaje in values
      ('departamento_id', 'Solo un administrador puede cambiar el departamento de un usuario.'),
      ('aprobador_id', 'Solo un administrador puede cambiar el aprobador de gastos de un usuario.'),
      ('rol', 'Solo un administrador puede cambiar el rol de un usuario.'),
      ('activo', 'Solo un administrador puede activar o desactivar usuarios.')
    loop
      if to_jsonb(new) -> v_campo is distinct from to_jsonb(old) -> v_campo then
        raise exception using errcode = 'OFPRM', detail = v_campo, message = v_mensaje;
      end if;
    end loop;
  end if;

  if old.rol = 'administrador' and old.activo and (new.rol <> 'administrador' or not new.activo) then
    perform pg_advisory_xact_lock(hashtext('oficina.usuarios.administradores'));
    if not exists (select 1 from public.usuarios u
                   where u.rol = 'administrador' and u.activo and u.id <> old.id) then
      if new.rol <> 'administrador' then
        raise exception using errcode = 'OFINV', detail = 'rol',
          message = 'No se puede quitar el rol de administrador al último administrador activo.';
      else
        raise exception using errcode = 'OFINV', detail = 'activo',
          message = 'No se puede desactivar al último administrador activo.';
      end if;
    end if;
  end if;
  return new;
end
$$;

create trigger usuarios_proteger before update or delete on public.usuarios
  for each row execute function interno.usuarios_proteger();

create function interno.usuarios_validar_alta() returns trigger language plpgsql set search_path = '' as $$
begin
  new.email := lower(btrim(new.email));
  if new.aprobador_id is not null and new.aprobador_id = new.id then
    raise exception using errcode = 'OFINV', detail = 'aprobador_id',
      message = 'Un usuario no puede ser su propio aprobador de gastos.';
  end if;
  return new;
end
$$;

create trigger usuarios_validar_alta before insert on public.usuarios
  for each row execute function interno.usuarios_validar_alta();
