-- Datos fiscales de cada gasto: tipo de documento, emisor, fecha de expedición y desglose de IVA
-- por tipo, con las reglas en la base de datos (las dos vías de escritura las cumplen); los tipos
-- de IVA con sus fechas de vigencia, el tipo habitual y la regla de deducibilidad de cada
-- categoría, y los datos de la empresa. docs/producto.md, «Datos fiscales».

-- ---------------------------------------------------------------------------------------------
-- Una tabla estándar: RLS (la ve quien está ubicado, interno.ubicado, como departamentos,
-- sucursales y proveedores; la cambia un administrador), versión, historial y contador de cambios. Las tablas nuevas de configuración se declaran con ella en vez
-- de repetir sus políticas, privilegios y disparadores.
-- ---------------------------------------------------------------------------------------------
create function interno.tabla_de_administracion(p_tabla text) returns void language plpgsql set search_path = '' as $fn$
begin
  execute format('alter table public.%I enable row level security', p_tabla);
  execute format('create policy %1$s_select on public.%1$I for select to authenticated
    using ((select interno.ubicado()))', p_tabla);
  perform interno.politicas_de_administrador(p_tabla);
  execute format('revoke all on public.%I from public, anon, authenticated', p_tabla);
  execute format('grant select on public.%I to authenticated', p_tabla);
  execute format('grant all on public.%I to service_role', p_tabla);
  perform interno.tabla_con_historial(p_tabla);
end
$fn$;
revoke all on function interno.tabla_de_administracion(text) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Tipos de IVA con su vigencia: un cambio de ley es una fila (la tabla la editan los
-- administradores). `clave` es lo que guarda cada línea del desglose; `porcentaje`, su cuota.
-- ---------------------------------------------------------------------------------------------
create table public.tipos_iva (
  id uuid primary key default gen_random_uuid(),
  clave text not null
    constraint tipos_iva_clave_check check (clave in ('21', '10', '5', '4', '2', '0', 'exento')),
  porcentaje numeric(5, 2) not null
    constraint tipos_iva_porcentaje_check check (porcentaje >= 0 and porcentaje < 100),
  nombre text not null
    constraint tipos_iva_nombre_check check (char_length(nombre) between 2 and 80),
  desde date not null,
  hasta date,
  creado_en timestamptz not null default now(),
  actualizado_en timestamptz not null default now(),
  version integer not null default 1,
  constraint tipos_iva_hasta_check check (hasta is null or hasta >= desde),
  constraint tipos_iva_porcentaje_clave_check
    check (porcentaje = case clave when 'exento' then 0 else clave::numeric end),
  constraint tipos_iva_clave_desde_key unique (clave, desde)
);
select interno.tabla_de_administracion('tipos_iva');
grant insert (clave, porcentaje, nombre, desde, hasta), update (nombre, desde, hasta)
  on public.tipos_iva to authenticated;

insert into public.tipos_iva (clave, porcentaje, nombre, desde, hasta) values
  ('21', 21, 'General', '2012-09-01', null),
  ('10', 10, 'Reducido', '2012-09-01', null),
  ('4', 4, 'Superreducido', '1995-01-01', null),
  ('5', 5, 'Temporal (electricidad, alimentos)', '2022-07-01', '2024-12-31'),
  ('2', 2, 'Temporal (aceite de oliva)', '2024-10-01', '2024-12-31'),
  ('0', 0, 'Temporal (alimentos básicos)', '2023-01-01', '2024-09-30'),
  ('exento', 0, 'Exento', '1993-01-01', null);

-- ---------------------------------------------------------------------------------------------
-- Cada categoría de gasto: su tipo habitual (la vía rápida: solo el importe) y si su IVA es
-- deducible. Atenciones a clientes, empleados o terceros: nunca (Ley 37/1992, art. 96.Uno.5.º);
-- las demás, con una factura a nombre de la empresa.
-- ---------------------------------------------------------------------------------------------
create table public.categorias_fiscales (
  id uuid primary key default gen_random_uuid(),
  categoria text not null
    constraint categorias_fiscales_categoria_check check (interno.es_categoria_gasto(categoria)),
  tipo_iva text not null
    constraint categorias_fiscales_tipo_iva_check check (tipo_iva in ('21', '10', '5', '4', '2', '0', 'exento')),
  deducibilidad text not null
    constraint categorias_fiscales_deducibilidad_check check (deducibilidad in ('factura_empresa', 'vehiculo_mixto', 'no_deducible')),
  creado_en timestamptz not null default now(),
  actualizado_en timestamptz not null default now(),
  version integer not null default 1,
  constraint categorias_fiscales_categoria_key unique (categoria)
);
select interno.tabla_de_administracion('categorias_fiscales');
grant update (tipo_iva, deducibilidad) on public.categorias_fiscales to authenticated;
-- Una fila por categoría, siempre: no se crean ni se borran (la categoría es una lista fija).
revoke delete on public.categorias_fiscales from authenticated;

insert into public.categorias_fiscales (categoria, tipo_iva, deducibilidad) values
  ('alojamiento', '10', 'factura_empresa'),
  ('comidas', '10', 'factura_empresa'),
  ('viajes_transporte', '10', 'factura_empresa'),
  ('combustible', '21', 'factura_empresa'),
  ('aparcamiento_peajes', '21', 'factura_empresa'),
  ('material_oficina', '21', 'factura_empresa'),
  ('telefonia_internet', '21', 'factura_empresa'),
  ('software_suscripciones', '21', 'factura_empresa'),
  ('formacion', '21', 'factura_empresa'),
  ('atenciones_clientes', '10', 'no_deducible'),
  ('mensajeria', '21', 'factura_empresa'),
  ('mantenimiento_reparaciones', '21', 'factura_empresa'),
  ('servicios_profesionales', '21', 'factura_empresa'),
  ('otros', '21', 'factura_empresa');

-- ---------------------------------------------------------------------------------------------
-- La empresa: una sola fila (la crea esta migración; los administradores la editan).
-- ---------------------------------------------------------------------------------------------
create table public.empresa (
  id uuid primary key default gen_random_uuid(),
  unica boolean not null default true
    constraint empresa_unica_check check (unica),
  razon_social text
    constraint empresa_razon_social_check check (char_length(razon_social) between 2 and 200),
  nif text
    constraint empresa_nif_check check (nif ~ '^[A-Z0-9]{9}$'),
  direccion text
    constraint empresa_direccion_check check (char_length(direccion) between 1 and 200),
  codigo_postal text
    constraint empresa_codigo_postal_check check (char_length(codigo_postal) <= 10),
  ciudad text
    constraint empresa_ciudad_check check (char_length(ciudad) between 1 and 80),
  provincia text
    constraint empresa_provincia_check check (char_length(provincia) <= 80),
  pais text not null default 'ES'
    constraint empresa_pais_check check (pais ~ '^[A-Z]{2}$'),
  creado_en timestamptz not null default now(),
  actualizado_en timestamptz not null default now(),
  version integer not null default 1,
  constraint empresa_unica_key unique (unica)
);
select interno.tabla_de_administracion('empresa');
grant update (razon_social, nif, direccion, codigo_postal, ciudad, provincia, pais)
  on public.empresa to authenticated;
revoke delete on public.empresa from authenticated;
create trigger normalizar before insert or update on public.empresa
  for each row execute function interno.normalizar_columnas('nif', 'nif', 'pais', 'mayusculas');
insert into public.empresa default values;

-- ---------------------------------------------------------------------------------------------
-- Los datos fiscales del gasto.
-- desglose_iva: hasta cuatro líneas {"tipo": clave, "base": "12.34", "cuota": "1.23"} (importes
-- como texto: exactos en JSON y en JavaScript). importe_impuestos pasa a ser la suma de las cuotas.
-- desglose_revisar: gastos anteriores cuyos impuestos no encajan en ningún tipo; se resuelve al
-- escribir su desglose.
-- ---------------------------------------------------------------------------------------------
alter table public.gastos
  add column tipo_documento text not null default 'ticket'
    constraint gastos_tipo_documento_check check (tipo_documento in (
      'factura_completa', 'factura_simplificada', 'ticket', 'sin_justificante')),
  add column emisor_nif text
    constraint gastos_emisor_nif_check check (emisor_nif ~ '^[A-Z0-9Ñ&./-]{3,20}$'),
  add column emisor_nombre text
    constraint gastos_emisor_nombre_check check (char_length(emisor_nombre) between 2 and 200),
  add column emisor_pais text not null default 'ES'
    constraint gastos_emisor_pais_check check (emisor_pais ~ '^[A-Z]{2}$'),
  add column fecha_expedicion date,
  add column factura_a_empresa boolean not null default false,
  -- Inversión del sujeto pasivo (Ley 37/1992, art. 84.Uno.2.º): la factura llega sin IVA (un
  -- proveedor no establecido en España, el de otro país de la UE que factura un servicio a la
  -- empresa) y la empresa lo declara: repercute y soporta la cuota a la vez. El desglose lleva esa
  -- cuota, que no es parte del importe pagado.
  add column inversion_sujeto_pasivo boolean not null default false,
  add column desglose_iva jsonb not null default '[]'
    constraint gastos_desglose_iva_check check (jsonb_typeof(desglose_iva) = 'array' and jsonb_array_length(desglose_iva) <= 4),
  add column otros_no_sujetos numeric(14, 2) not null default 0
    constraint gastos_otros_no_sujetos_check check (otros_no_sujetos >= 0),
  add column desglose_revisar boolean not null default false,
  -- El porcentaje deducible del IVA y su motivo, fijados al aprobar el gasto
  -- (interno.fijar_al_aprobar, 20261224000003_asientos).
  add column porcentaje_deducible_al_aprobar numeric(5, 2),
  add column motivo_al_aprobar text,
  -- Su número de recepción en el libro de facturas recibidas («REC-2026-00042»): correlativo por
  -- ejercicio (el año de la operación), dado al aprobar un gasto que entra en el libro (con
  -- desglose) y suyo desde entonces: revocar y volver a aprobar lo conserva; no se reutiliza
  -- (interno.fijar_al_aprobar, 20261224000003_asientos).
  add column numero_recepcion text;

create table interno.recepcion_contador (
  anio integer primary key,
  ultimo integer not null
);
alter table interno.recepcion_contador enable row level security; -- sin políticas: nadie
revoke all on interno.recepcion_contador from public, anon, authenticated;
create unique index gastos_numero_recepcion_key on public.gastos (numero_recepcion) where numero_recepcion is not null;

grant insert (tipo_documento, emisor_nif, emisor_nombre, emisor_pais, fecha_expedicion, factura_a_empresa,
              inversion_sujeto_pasivo, desglose_iva, otros_no_sujetos),
      update (tipo_documento, emisor_nif, emisor_nombre, emisor_pais, fecha_expedicion, factura_a_empresa,
              inversion_sujeto_pasivo, desglose_iva, otros_no_sujetos)
  on public.gastos to authenticated;

-- El tipo en vigor de una clave en una fecha (null si ninguno; si dos filas se solapan, la más
-- reciente). Como propietario: quien escribe un gasto aplica los tipos aunque no pueda leerlos.
create function interno.porcentaje_iva(p_clave text, p_fecha date) returns numeric
language sql stable security definer set search_path = '' as $$
  select t.porcentaje from public.tipos_iva t
   where t.clave = p_clave and p_fecha >= t.desde and (t.hasta is null or p_fecha <= t.hasta)
   order by t.desde desc limit 1
$$;

-- Una línea del desglose con la base y la cuota de `p_importe` (IVA incluido) al tipo dado; con
-- inversión del sujeto pasivo el importe no lleva IVA: es la base, y la cuota va aparte.
create function interno.linea_iva(p_clave text, p_porcentaje numeric, p_importe numeric,
  p_sin_iva boolean default false) returns jsonb
language sql immutable set search_path = '' as $$
  select case when p_sin_iva
    then jsonb_build_object('tipo', p_clave, 'base', p_importe::numeric(14, 2)::text,
                            'cuota', round(p_importe * p_porcentaje / 100, 2)::numeric(14, 2)::text)
    else (select jsonb_build_object('tipo', p_clave, 'base', (b)::text, 'cuota', (p_importe - b)::text)
            from (select round(p_importe / (1 + p_porcentaje / 100), 2)::numeric(14, 2) as b) x)
  end
$$;

-- El desglose de un importe sin líneas: el de sus impuestos, si los trae (gastos anteriores,
-- cargas masivas), al tipo que encaje (primero el habitual de la categoría); si no los trae, una
-- línea al tipo habitual (`p_sin_iva`: sobre un importe sin IVA, el de la inversión del sujeto
-- pasivo). Null si los impuestos no encajan en ningún tipo en vigor.
create function interno.desglose_habitual(p_categoria text, p_importe numeric, p_impuestos numeric, p_fecha date,
  p_sin_iva boolean default false)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_habitual text := (select c.tipo_iva from public.categorias_fiscales c where c.categoria = p_categoria);
  v_tipo record;
  -- Los impuestos son la cuota de esta base: lo que queda sin ellos, o todo el importe si no los
  -- lleva (inversión del sujeto pasivo).
  v_base numeric(14, 2) := case when p_sin_iva then p_importe else p_importe - p_impuestos end;
begin
  if p_importe <= 0 then
    return '[]'::jsonb;
  end if;
  if p_impuestos is null then
    return jsonb_build_array(interno.linea_iva(
      coalesce(v_habitual, '21'), coalesce(interno.porcentaje_iva(v_habitual, p_fecha), 21), p_importe, p_sin_iva));
  end if;
  if p_impuestos = 0 then
    return jsonb_build_array(jsonb_build_object('tipo', 'exento', 'base', p_importe::text, 'cuota', '0.00'));
  end if;
  for v_tipo in
    select t.clave, t.porcentaje from public.tipos_iva t
     where t.porcentaje > 0 and p_fecha >= t.desde and (t.hasta is null or p_fecha <= t.hasta)
     order by t.clave = v_habitual desc, t.porcentaje desc
  loop
    if abs(round(v_base * v_tipo.porcentaje / 100, 2) - p_impuestos) <= 0.01 then
      return jsonb_build_array(jsonb_build_object(
        'tipo', v_tipo.clave, 'base', v_base::text, 'cuota', p_impuestos::numeric(14, 2)::text));
    end if;
  end loop;
  return null;
end
$$;

-- gastos_validar_fiscal: completa y comprueba los datos fiscales en cada escritura (también las cargas
-- masivas, que no apagan este disparador). Mensajes en español con la columna en `detail`, como
-- los demás (el formulario los pone junto a su campo).
create function interno.gastos_fiscal() returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_linea jsonb;
  v_lineas jsonb := '[]'::jsonb;
  v_tipos text[] := '{}';
  v_base numeric;
  v_cuota numeric;
  v_porcentaje numeric;
  v_suma numeric := 0;
  v_cuotas numeric := 0;
  v_desglose jsonb;
  v_n integer := 0;
begin
  new.fecha_expedicion := coalesce(new.fecha_expedicion, new.fecha_gasto);
  new.emisor_nif := nullif(upper(btrim(new.emisor_nif)), '');
  new.emisor_nombre := nullif(btrim(new.emisor_nombre), '');
  -- Un NIF escrito que ya es de un proveedor activo: el gasto queda con ese proveedor.
  if new.proveedor_id is null and new.emisor_nif is not null then
    new.proveedor_id := (select p.id from public.proveedores p
                          where p.pais = new.emisor_pais and p.nif = new.emisor_nif and p.activo);
  end if;
  if new.proveedor_id is not null then
    -- El emisor es el proveedor elegido: lo escrito a mano no cuenta.
    new.emisor_nif := null;
    new.emisor_nombre := null;
  end if;
  if new.tipo_documento in ('ticket', 'sin_justificante') then
    new.factura_a_empresa := false;
  end if;
  if new.inversion_sujeto_pasivo and new.tipo_documento <> 'factura_completa' then
    raise exception using errcode = 'OFINV', detail = 'inversion_sujeto_pasivo',
      message = 'Inversión del sujeto pasivo: solo en una factura completa, la que el proveedor emite sin IVA a nombre de la empresa.';
  end if;
  -- La empresa declara ese IVA porque es la destinataria: la factura va a su nombre.
  if new.inversion_sujeto_pasivo and not new.factura_a_empresa then
    raise exception using errcode = 'OFINV', detail = 'factura_a_empresa',
      message = 'A nombre de la empresa: con inversión del sujeto pasivo la factura va a nombre de la empresa, con su NIF; márquelo.';
  end if;

  -- Gastos anteriores sin tipo que encaje: se quedan así hasta que alguien escriba su desglose.
  if tg_op = 'UPDATE' and old.desglose_revisar and new.desglose_iva = old.desglose_iva
     and new.inversion_sujeto_pasivo = old.inversion_sujeto_pasivo then
    return new;
  end if;
  new.desglose_revisar := false;

  if new.otros_no_sujetos > new.importe then
    raise exception using errcode = 'OFINV', detail = 'otros_no_sujetos',
      message = 'Otros importes no sujetos: no pueden ser mayores que el importe.';
  end if;

  -- Una sola línea que nadie tocó sigue al importe (a su mismo tipo); con más, cuadrarlas es de
  -- quien las escribe.
  if tg_op = 'UPDATE' and new.desglose_iva = old.desglose_iva and jsonb_array_length(new.desglose_iva) = 1
     and (new.importe, new.otros_no_sujetos, new.inversion_sujeto_pasivo)
         is distinct from (old.importe, old.otros_no_sujetos, old.inversion_sujeto_pasivo)
     and interno.porcentaje_iva(new.desglose_iva -> 0 ->> 'tipo', new.fecha_expedicion) is not null then
    new.desglose_iva := jsonb_build_array(interno.linea_iva(
      new.desglose_iva -> 0 ->> 'tipo', interno.porcentaje_iva(new.desglose_iva -> 0 ->> 'tipo', new.fecha_expedicion),
      new.importe - new.otros_no_sujetos, new.inversion_sujeto_pasivo));
  end if;

  if jsonb_array_length(new.desglose_iva) = 0 then
    if new.tipo_documento = 'sin_justificante' then
      new.otros_no_sujetos := new.importe;
    else
      v_desglose := interno.desglose_habitual(
        new.categoria, new.importe - new.otros_no_sujetos,
        case when tg_op = 'INSERT' then new.importe_impuestos end,
        new.fecha_expedicion, new.inversion_sujeto_pasivo);
      if v_desglose is null then
        -- Solo en cargas del propietario (sin JWT): unos impuestos que no encajan en ningún tipo.
        if (select auth.uid()) is not null then
          raise exception using errcode = 'OFINV', detail = 'desglose_iva',
            message = 'Desglose de IVA: los impuestos no corresponden a ningún tipo en vigor; escriba la base y la cuota de cada tipo.';
        end if;
        new.desglose_revisar := true;
        return new;
      end if;
      new.desglose_iva := v_desglose;
    end if;
  end if;

  for v_linea in select value from jsonb_array_elements(new.desglose_iva) loop
    v_n := v_n + 1;
    if jsonb_typeof(v_linea) <> 'object' or not (v_linea ? 'tipo' and v_linea ? 'base' and v_linea ? 'cuota')
       or (v_linea ->> 'base') !~ '^\d{1,12}(\.\d{1,2})?$' or (v_linea ->> 'cuota') !~ '^\d{1,12}(\.\d{1,2})?$' then
      raise exception using errcode = 'OFINV', detail = 'desglose_iva',
        message = format('Desglose de IVA, línea %s: escriba el tipo, la base y la cuota en euros.', v_n);
    end if;
    if (v_linea ->> 'tipo') = any (v_tipos) then
      raise exception using errcode = 'OFINV', detail = 'desglose_iva',
        message = format('Desglose de IVA, línea %s: el tipo %s ya está en otra línea; sume las dos en una.',
                         v_n, interno.nombre_tipo_iva(v_linea ->> 'tipo'));
    end if;
    v_tipos := v_tipos || (v_linea ->> 'tipo');
    v_porcentaje := interno.porcentaje_iva(v_linea ->> 'tipo', new.fecha_expedicion);
    if v_porcentaje is null then
      raise exception using errcode = 'OFINV', detail = 'desglose_iva',
        message = format('Desglose de IVA, línea %s: el tipo %s no estaba en vigor el %s (fecha de expedición).',
                         v_n, interno.nombre_tipo_iva(v_linea ->> 'tipo'), to_char(new.fecha_expedicion, 'DD/MM/YYYY'));
    end if;
    v_base := (v_linea ->> 'base')::numeric(14, 2);
    v_cuota := (v_linea ->> 'cuota')::numeric(14, 2);
    -- Al 0 % o exento no hay cuota que redondear: ni un céntimo.
    if v_porcentaje = 0 and v_cuota <> 0 then
      raise exception using errcode = 'OFINV', detail = 'desglose_iva',
        message = format('Desglose de IVA, línea %s: %s no lleva cuota; escriba 0,00 €, no %s €.',
                         v_n, case when v_linea ->> 'tipo' = 'exento' then 'una línea exenta' else 'una línea al 0 %' end,
                         interno.euros(v_cuota));
    end if;
    if abs(round(v_base * v_porcentaje / 100, 2) - v_cuota) > 0.01 then
      raise exception using errcode = 'OFINV', detail = 'desglose_iva',
        message = format('Desglose de IVA, línea %s: la cuota al %s de %s € es %s €, no %s €.',
                         v_n, interno.nombre_tipo_iva(v_linea ->> 'tipo'), interno.euros(v_base),
                         interno.euros(round(v_base * v_porcentaje / 100, 2)), interno.euros(v_cuota));
    end if;
    v_lineas := v_lineas || jsonb_build_object('tipo', v_linea ->> 'tipo', 'base', v_base::text, 'cuota', v_cuota::text);
    -- Con inversión del sujeto pasivo la cuota no se pagó: no es parte del importe.
    v_suma := v_suma + v_base + case when new.inversion_sujeto_pasivo then 0 else v_cuota end;
    v_cuotas := v_cuotas + v_cuota;
  end loop;

  if v_suma + new.otros_no_sujetos <> new.importe then
    raise exception using errcode = 'OFINV', detail = 'desglose_iva',
      message = format('Desglose de IVA: %s suman %s € y el importe es %s €.',
                       case when new.inversion_sujeto_pasivo
                            then 'con inversión del sujeto pasivo la cuota no es parte del importe; bases y otros importes'
                            else 'bases, cuotas y otros importes' end,
                       interno.euros(v_suma + new.otros_no_sujetos), interno.euros(new.importe));
  end if;
  new.desglose_iva := v_lineas;
  new.importe_impuestos := v_cuotas;

  if new.tipo_documento = 'factura_completa' then
    if new.proveedor_id is null and new.emisor_nif is null then
      raise exception using errcode = 'OFINV', detail = 'emisor_nif',
        message = 'NIF del emisor: una factura completa lo lleva; elija el proveedor o escriba su NIF.';
    end if;
    if new.numero_factura is null or btrim(new.numero_factura) = '' then
      raise exception using errcode = 'OFINV', detail = 'numero_factura',
        message = 'Número de factura: una factura completa lo lleva; escríbalo como aparece en ella.';
    end if;
  end if;
  if new.proveedor_id is null and new.emisor_nif is not null and new.emisor_nombre is null then
    raise exception using errcode = 'OFINV', detail = 'emisor_nombre',
      message = 'Nombre del emisor: escriba el nombre o la razón social de quien emitió el documento.';
  end if;
  return new;
end
$$;

-- «21 %», «exento»: el tipo como lo leen los mensajes.
create function interno.nombre_tipo_iva(p_clave text) returns text language sql immutable set search_path = ''
as $$ select case when p_clave = 'exento' then 'exento' else coalesce(p_clave, '?') || ' %' end $$;


-- Los disparadores BEFORE van por orden alfabético: este, tras gastos_validar (los errores de
-- fecha se dicen antes que los del desglose).
create trigger gastos_validar_fiscal before insert or update on public.gastos
  for each row execute function interno.gastos_fiscal();

-- ---------------------------------------------------------------------------------------------
-- Deducibilidad: cuánto IVA de un gasto es deducible y, si no todo, por qué.
-- ---------------------------------------------------------------------------------------------
create type interno.regla_deducible as (porcentaje numeric(5, 2), motivo text);
create type interno.deducibilidad as (importe numeric(14, 2), motivo text, porcentaje numeric(5, 2));

-- La primera regla que se cumple da el porcentaje (100, 50 o 0) y el motivo; el importe es la suma
-- de las cuotas del desglose a ese porcentaje, cada una redondeada al céntimo, como las cuentan
-- línea a línea el libro de IVA y el diario.
create function interno.deducibilidad(g public.gastos) returns interno.deducibilidad
language sql stable security definer set search_path = '' as $$
  select row((select coalesce(sum(round((l ->> 'cuota')::numeric * (r.regla).porcentaje / 100, 2)), 0)
                from jsonb_array_elements(g.desglose_iva) l),
             (r.regla).motivo, (r.regla).porcentaje)::interno.deducibilidad
  from (select case
    when g.porcentaje_deducible_al_aprobar is not null
      then row(g.porcentaje_deducible_al_aprobar, g.motivo_al_aprobar)::interno.regla_deducible
    when g.desglose_revisar then row(0, 'Desglose de IVA por revisar')::interno.regla_deducible
    when coalesce(g.importe_impuestos, 0) = 0 then row(0, 'Sin IVA soportado')::interno.regla_deducible
    -- El IVA de otro país no se deduce en la declaración española: se pide a ese país.
    -- Con inversión del sujeto pasivo la cuota es la que declara la empresa: se deduce aquí.
    when coalesce(p.pais, g.emisor_pais, 'ES') <> 'ES' and not g.inversion_sujeto_pasivo
      then row(0, 'IVA de otro país: se pide su devolución a ese país, no se deduce aquí')::interno.regla_deducible
    when c.deducibilidad = 'no_deducible'
      then row(0, 'Atenciones a clientes, empleados o terceros (Ley 37/1992, art. 96)')::interno.regla_deducible
    when g.tipo_documento = 'sin_justificante' then row(0, 'Sin justificante')::interno.regla_deducible
    when g.tipo_documento = 'ticket' then row(0, 'Ticket sin NIF de la empresa')::interno.regla_deducible
    when g.proveedor_id is null and g.emisor_nif is null then row(0, 'Factura sin NIF del emisor')::interno.regla_deducible
    when not g.factura_a_empresa
      then row(0, 'Factura sin el NIF de la empresa como destinataria')::interno.regla_deducible
    -- Un turismo que también se usa fuera del trabajo: se presume afectado al 50 %.
    when c.deducibilidad = 'vehiculo_mixto'
      then row(50, 'Vehículo de uso mixto: se deduce el 50 % (Ley 37/1992, art. 95.Tres)')::interno.regla_deducible
    else row(100, null)::interno.regla_deducible
  end as regla
  from (select 1) x
  left join public.categorias_fiscales c on c.categoria = g.categoria
  left join public.proveedores p on p.id = g.proveedor_id) r
$$;


grant usage on type interno.deducibilidad, interno.regla_deducible to authenticated, service_role;
grant execute on function interno.deducibilidad(public.gastos), interno.nombre_tipo_iva(text), interno.euros(numeric)
  to authenticated, service_role;

-- Los datos anteriores: un desglose al tipo que encaje con sus impuestos (o el habitual si no los
-- tenían), o «revisar». Sin disparadores: no es una edición de nadie (ni versión ni historial).
alter table public.gastos disable trigger user;
update public.gastos g
   set fecha_expedicion = g.fecha_gasto,
       tipo_documento = case when g.proveedor_id is not null and g.numero_factura is not null
                             then 'factura_completa' else 'ticket' end,
       factura_a_empresa = g.proveedor_id is not null and g.numero_factura is not null,
       desglose_iva = coalesce(d.desglose, '[]'::jsonb),
       desglose_revisar = d.desglose is null,
       importe_impuestos = case when d.desglose is null then g.importe_impuestos
                                else (select sum((l ->> 'cuota')::numeric) from jsonb_array_elements(d.desglose) l) end
  from (select id, interno.desglose_habitual(categoria, importe, importe_impuestos, fecha_gasto) as desglose
          from public.gastos) d
 where d.id = g.id;
alter table public.gastos enable trigger user;

-- Las columnas nuevas de gastos y el IVA deducible de cada uno, en su vista, y el libro de facturas
-- recibidas, que se lee de ella: interno.crear_gastos_vista (20261125000004_rls).


