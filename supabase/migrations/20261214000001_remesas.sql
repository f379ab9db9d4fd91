-- Remesas: transferencias SEPA (pain.001) que pagan los gastos aprobados. Aquí, los datos y las
-- reglas; el fichero XML lo construye la aplicación con lo que devuelve crear_remesa y se guarda
-- una vez (guardar_xml_remesa): se descarga siempre el mismo. Guardarlo, confirmar y anular:
-- 20261214000002_confirmar_remesa.
--
--   remesas           una por fichero: generada → confirmada (sus gastos, pagados) | anulada.
--   remesa_gastos     los gastos de cada remesa, con a quién se paga, su IBAN y su importe.
--   Las cuentas de quien cobra y de la empresa: 20261213000001_cuentas_bancarias.
--
-- Un gasto está como mucho en una remesa viva (generada o confirmada): remesa_gastos.viva, que
-- sigue al estado de su remesa, y un índice único parcial sobre gasto_id. Mientras está en una
-- remesa generada su estado no cambia por ningún otro camino (disparador gastos_en_remesa): ni
-- «Marcar como pagado» ni revertir; se paga al confirmar la remesa o se libera al anularla.
--
-- Separación de funciones, como pagar_gasto: quien pidió o aprobó un gasto no lo incluye en una
-- remesa ni confirma la remesa que lo paga, salvo con PERMITIR_ADMIN_UNICO (interno.permitir_admin_unico).

-- ---------------------------------------------------------------------------------------------
-- remesas y remesa_gastos: solo los administradores las ven; solo las funciones de abajo las
-- escriben (authenticated no tiene privilegio de escritura).
-- ---------------------------------------------------------------------------------------------
create table public.remesas (
  id uuid primary key default gen_random_uuid(),
  folio text not null, -- REM-AAAA-NNNN, lo asigna remesas_asignar_folio
  cuenta_id uuid not null
    constraint remesas_cuenta_id_fkey references public.cuentas_empresa (id),
  fecha_ejecucion date not null,
  estado text not null default 'generada'
    constraint remesas_estado_check check (estado in ('generada', 'confirmada', 'anulada')),
  -- MsgId del fichero: único por ordenante (el folio y el momento de creación).
  mensaje_id text not null
    constraint remesas_mensaje_id_check check (char_length(mensaje_id) <= 35),
  num_transferencias integer not null
    constraint remesas_num_transferencias_check check (num_transferencias > 0),
  importe_total numeric(14, 2) not null
    constraint remesas_importe_total_check check (importe_total > 0),
  -- El fichero tal como se generó: se guarda una vez y se descarga siempre igual.
  xml text,
  creado_por_id uuid
    constraint remesas_creado_por_id_fkey references public.usuarios (id) on delete set null,
  confirmada_por_id uuid
    constraint remesas_confirmada_por_id_fkey references public.usuarios (id) on delete set null,
  confirmada_en timestamptz,
  -- La referencia que dio el banco al ejecutarla, si quien la confirma la indica.
  referencia text
    constraint remesas_referencia_check check (char_length(referencia) between 1 and 100),
  anulada_por_id uuid
    constraint remesas_anulada_por_id_fkey references public.usuarios (id) on delete set null,
  anulada_en timestamptz,
  motivo_anulacion text
    constraint remesas_motivo_anulacion_check check (char_length(motivo_anulacion) <= 500),
  creado_en timestamptz not null default now(),
  actualizado_en timestamptz not null default now(),
  version integer not null default 1,
  constraint remesas_folio_key unique (folio),
  constraint remesas_mensaje_id_key unique (mensaje_id),
  constraint remesas_estado_confirmada_check check (estado <> 'confirmada' or confirmada_en is not null),
  constraint remesas_estado_anulada_check
    check (estado <> 'anulada' or (anulada_en is not null and motivo_anulacion is not null))
);
create index remesas_cuenta_id_idx on public.remesas (cuenta_id);
create index remesas_estado_creado_en_idx on public.remesas (estado, creado_en desc);
create index remesas_creado_por_id_idx on public.remesas (creado_por_id);

create table public.remesa_gastos (
  id uuid primary key default gen_random_uuid(),
  remesa_id uuid not null
    constraint remesa_gastos_remesa_id_fkey references public.remesas (id),
  gasto_id uuid not null
    constraint remesa_gastos_gasto_id_fkey references public.gastos (id),
  beneficiario text not null
    constraint remesa_gastos_beneficiario_check check (beneficiario in ('solicitante', 'proveedor')),
  -- usuarios.id (solicitante) o proveedores.id (proveedor).
  beneficiario_id uuid not null,
  -- Nombre y cuenta del beneficiario al generar la remesa (lo que lleva el fichero).
  nombre text not null,
  iban text not null,
  importe numeric(14, 2) not null
    constraint remesa_gastos_importe_check check (importe > 0),
  -- Una transferencia por beneficiario (y cuenta): sus gastos comparten EndToEndId.
  end_to_end_id text not null
    constraint remesa_gastos_end_to_end_id_check check (char_length(end_to_end_id) <= 35),
  -- Cuándo y quién escribió esa cuenta, al generar la remesa (interno.remesa_lineas; quién, null
  -- si se escribió sin sesión): hasta confirmarla, su página dice, como la propuesta, la escrita
  -- en los 30 días anteriores (interno.remesa_json).
  cuenta_indicada_en timestamptz,
  cuenta_indicada_por uuid,
  -- true mientras su remesa no esté anulada (disparador remesas_viva).
  viva boolean not null default true,
  creado_en timestamptz not null default now(),
  constraint remesa_gastos_remesa_id_gasto_id_key unique (remesa_id, gasto_id)
);
-- Un gasto, en una sola remesa viva.
create unique index remesa_gastos_gasto_id_viva_key on public.remesa_gastos (gasto_id) where viva;
create index remesa_gastos_gasto_id_idx on public.remesa_gastos (gasto_id);

create table interno.remesas_folio_contador (
  anio integer primary key,
  ultimo integer not null
);
alter table interno.remesas_folio_contador enable row level security; -- sin políticas: nadie
revoke all on interno.remesas_folio_contador from public, anon, authenticated;

-- El año del folio es el de la oficina (Madrid), no el de la sesión (interno.hoy); el número, de
-- interno.folio_siguiente (20261125000001_esquema).
create function interno.remesas_asignar_folio() returns trigger
language plpgsql security definer set search_path = '' set timezone to 'Europe/Madrid' as $$
begin
  new.folio := interno.folio_siguiente('interno.remesas_folio_contador', 'REM',
    extract(year from new.creado_en)::integer, 4);
  -- La hora de Madrid, la misma que CreDtTm (app/pagos/pain001.ts): el folio ya lo hace único.
  new.mensaje_id := new.folio || '-' || to_char(new.creado_en, 'YYYYMMDDHH24MISS');
  return new;
end
$$;
create trigger remesas_asignar_folio before insert on public.remesas
  for each row execute function interno.remesas_asignar_folio();

-- El fichero guardado no cambia; el folio y el mensaje tampoco.
create function interno.remesas_proteger() returns trigger language plpgsql set search_path = '' as $$
begin
  if old.xml is not null and new.xml is distinct from old.xml then
    raise exception using errcode = 'OFINV', detail = 'xml',
      message = 'El fichero de esta remesa ya está guardado: no se sustituye.';
  end if;
  new.folio := old.folio;
  new.mensaje_id := old.mensaje_id;
  return new;
end
$$;
create trigger remesas_proteger before update on public.remesas for each row execute function interno.remesas_proteger();

create function interno.remesas_viva() returns trigger language plpgsql security definer set search_path = '' as $$
begin
  update public.remesa_gastos set viva = (new.estado <> 'anulada')
   where remesa_id = new.id and viva is distinct from (new.estado <> 'anulada');
  return null;
end
$$;
create trigger remesas_viva after update of estado on public.remesas
  for each row when (old.estado is distinct from new.estado)
  execute function interno.remesas_viva();

do $$
declare
  tabla text;
begin
  foreach tabla in array array['remesas', 'remesa_gastos'] loop
    execute format('alter table public.%I enable row level security', tabla);
    execute format('create policy %1$s_select on public.%1$I for select to authenticated
      using ((select interno.es_admin()))', tabla);
    execute format('revoke all on public.%I from public, anon, authenticated', tabla);
    execute format('grant select on public.%I to authenticated', tabla);
    execute format('grant all on public.%I to service_role', tabla);
  end loop;
end
$$;
select interno.tabla_con_historial('remesas');
select interno.tabla_con_historial('remesa_gastos', false); -- sin versión: no se edita

-- La lista de remesas (security_invoker: solo la ven los administradores), sin el fichero.
create view public.remesas_vista with (security_invoker = true) as
select r.id, r.folio, r.cuenta_id, r.fecha_ejecucion, r.estado, r.mensaje_id, r.num_transferencias,
       r.importe_total, r.xml is not null as xml_guardado, r.creado_por_id, r.confirmada_por_id, r.confirmada_en,
       r.referencia, r.anulada_por_id, r.anulada_en, r.motivo_anulacion, r.creado_en, r.actualizado_en, r.version,
       c.nombre as cuenta_nombre, c.iban as cuenta_iban,
       (select count(*)::integer from public.remesa_gastos rg where rg.remesa_id = r.id) as num_gastos,
       interno.nombre_completo(u.nombre, u.apellidos) as creado_por_nombre
  from public.remesas r
  join public.cuentas_empresa c on c.id = r.cuenta_id
  left join public.usuarios u on u.id = r.creado_por_id;
revoke all on public.remesas_vista from public, anon, authenticated;
grant select on public.remesas_vista to authenticated, service_role;

-- Por qué el estado de un gasto no puede cambiar ahora por estar en una remesa viva; null si no está
-- en ninguna o es la que se está confirmando (oficina.remesa_en_curso = su id, solo dentro de
-- confirmar_remesa). El disparador gastos_en_remesa lo impide y la ficha lo explica sin ofrecer
-- «Marcar como pagado» ni «Revertir aprobación» (public.motivos_gasto).
create function interno.motivo_remesa(p_gasto_id uuid) returns text language sql stable security definer
set search_path = '' as $$
  select case when r.estado = 'confirmada'
           then 'El gasto se pagó con la remesa ' || r.folio || '.'
           else 'El gasto está en la remesa ' || r.folio || ': se marca como pagado al confirmar la remesa. '
             || 'Para pagarlo o cambiarlo aparte, anule antes la remesa.' end
    from public.remesa_gastos rg join public.remesas r on r.id = rg.remesa_id
   where rg.gasto_id = p_gasto_id and rg.viva
     and r.id::text is distinct from nullif(current_setting('oficina.remesa_en_curso', true), '')
$$;

create function interno.gastos_en_remesa() returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_motivo text := interno.motivo_remesa(new.id);
begin
  if v_motivo is not null then
    raise exception using errcode = 'OFINV', detail = 'remesa', message = v_motivo;
  end if;
  return new;
end
$$;
create trigger gastos_en_remesa before update of estado on public.gastos
  for each row when (old.estado is distinct from new.estado)
  execute function interno.gastos_en_remesa();

-- ---------------------------------------------------------------------------------------------
-- A quién se paga cada gasto y por qué no puede ir en una remesa: interno.remesa_lineas
-- (20261226000001_datos_por_necesidad, junto a la tabla aparte del IBAN de los proveedores, que
-- lee).
-- ---------------------------------------------------------------------------------------------


-- p_prefijo y las partes que quepan enteras en p_max caracteres, y «y N más» por las que no: el
-- concepto de una transferencia (140 en SEPA) no corta un folio por la mitad ni calla que faltan.
create function interno.lista_que_cabe(p_prefijo text, p_partes text[], p_max integer) returns text
language plpgsql immutable set search_path = '' as $$
declare
  v_n integer := coalesce(array_length(p_partes, 1), 0);
  v_texto text;
begin
  for v_k in reverse v_n..1 loop
    v_texto := p_prefijo || array_to_string(p_partes[1:v_k], ', ')
      || case when v_k = v_n then '' else format(' y %s más', v_n - v_k) end;
    if char_length(v_texto) <= p_max then
      return v_texto;
    end if;
  end loop;
  return left(p_prefijo || array_to_string(p_partes, ', '), p_max);
end
$$;

-- Los datos de una remesa para construir su fichero: la cuenta y el ordenante, y una
-- transferencia por beneficiario con su importe (suma exacta de sus gastos), su EndToEndId y el
-- concepto; para su página, también cuenta_reciente. Importes como texto (exactos en JSON y en
-- JavaScript).
create function interno.remesa_json(p_id uuid) returns jsonb language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'id', r.id, 'folio', r.folio, 'estado', r.estado, 'version', r.version, 'mensaje_id', r.mensaje_id,
    'creado_en', r.creado_en, 'fecha_ejecucion', r.fecha_ejecucion,
    'num_transferencias', r.num_transferencias, 'num_gastos',
    (select count(*) from public.remesa_gastos rg where rg.remesa_id = r.id),
    'importe_total', r.importe_total::text, 'xml_guardado', r.xml is not null,
    'creado_por_id', r.creado_por_id, 'confirmada_en', r.confirmada_en, 'referencia', r.referencia,
    'anulada_en', r.anulada_en, 'motivo_anulacion', r.motivo_anulacion,
    -- Quién generó, confirmó o anuló: lo primero que pregunta quien revisa un pago a cuatro ojos.
    'creado_por', interno.autor_del_cambio(r.creado_por_id),
    'confirmada_por', interno.autor_del_cambio(r.confirmada_por_id),
    'anulada_por', interno.autor_del_cambio(r.anulada_por_id),
    'cuenta', jsonb_build_object('id', c.id, 'nombre', c.nombre, 'iban', c.iban, 'bic', c.bic,
                                 'sufijo', c.sufijo, 'formato', c.formato),
    'ordenante', jsonb_build_object('nombre', e.razon_social, 'nif', e.nif, 'pais', e.pais,
                                    'identificador', e.nif || c.sufijo),
    'transferencias', coalesce((
      select jsonb_agg(t.transferencia order by t.end_to_end_id)
        from (select rg.end_to_end_id, jsonb_build_object(
                'end_to_end_id', rg.end_to_end_id,
                'beneficiario', min(rg.beneficiario),
                'beneficiario_id', min(rg.beneficiario_id::text),
                'nombre', min(rg.nombre),
                'iban', min(rg.iban),
                'importe', sum(rg.importe)::text,
                -- Como en remesa_candidatos, respecto al momento de generarla; todas las líneas de una
                -- transferencia (un beneficiario y su cuenta) guardaron lo mismo.
                'cuenta_reciente', case when max(rg.cuenta_indicada_en) > r.creado_en - interval '30 days'
                  then jsonb_build_object('en', max(rg.cuenta_indicada_en), 'por_id', min(rg.cuenta_indicada_por::text),
                                          'por', interno.autor_del_cambio(min(rg.cuenta_indicada_por::text)::uuid)) end,
                'concepto', case min(rg.beneficiario)
                  when 'solicitante' then interno.lista_que_cabe('Reembolso de gastos ', array_agg(g.folio order by g.folio), 140)
                  -- A un proveedor, sus números de factura («Pago de facturas A-1, A-2»); un gasto sin
                  -- número, por su folio, y entonces cada factura se nombra como tal.
                  else case
                    when count(g.numero_factura) = count(*) then interno.lista_que_cabe(
                      case when count(*) = 1 then 'Pago de factura ' else 'Pago de facturas ' end,
                      array_agg(g.numero_factura order by g.folio), 140)
                    else interno.lista_que_cabe('Pago de ',
                      array_agg(coalesce('factura ' || g.numero_factura, g.folio) order by g.folio), 140)
                    end
                  end,
                'gastos', jsonb_agg(jsonb_build_object('id', g.id, 'folio', g.folio, 'descripcion', g.descripcion,
                  'numero_factura', g.numero_factura, 'importe', rg.importe::text) order by g.folio)) as transferencia
                from public.remesa_gastos rg join public.gastos g on g.id = rg.gasto_id
               where rg.remesa_id = r.id
               group by rg.end_to_end_id) t), '[]'::jsonb))
  from public.remesas r
  join public.cuentas_empresa c on c.id = r.cuenta_id
  cross join (select * from public.empresa limit 1) e
  where r.id = p_id
$$;

create function interno.exigir_admin_remesas() returns void language sql stable security definer set search_path = '' as $$
  select interno.exigir_admin('Solo un administrador puede preparar y gestionar remesas de pago.') $$;

-- La remesa p_id, bloqueada, para cambiarla: existe, sigue generada y (con p_version) no ha
-- cambiado desde que se consultó.
create function interno.remesa_para(p_id uuid, p_version integer, p_comprobar_version boolean default true)
returns public.remesas language plpgsql security definer set search_path = '' as $$
declare
  r public.remesas;
begin
  perform interno.exigir_admin_remesas();
  select * into r from public.remesas where id = p_id for update;
  if not found then
    raise exception using errcode = 'OFNTF', detail = '', message = 'La remesa no existe.';
  end if;
  if r.estado <> 'generada' then
    raise exception using errcode = 'OFCNF', detail = 'estado',
      message = 'La remesa ya está ' || r.estado || ': otra persona la ha cambiado.';
  end if;
  if p_comprobar_version and (p_version is null or r.version <> p_version) then
    raise exception using errcode = 'OFCNF', detail = 'version',
      message = 'Otra persona modificó esta remesa mientras la consultaba. Revise los datos actuales y vuelva a intentarlo.';
  end if;
  return r;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Funciones públicas (solo administradores)
-- ---------------------------------------------------------------------------------------------

-- Antes de generar: cada gasto elegido, con su beneficiario y su IBAN o el motivo por el que no
-- puede ir (los excluidos se enseñan, nunca se quitan sin decirlo).
-- {"gastos": [{"gasto_id", "folio", "descripcion", "fecha_gasto", "importe", "metodo_pago",
--              "beneficiario", "beneficiario_id", "nombre", "iban", "motivo", "cuenta_reciente"}, …],
--  "incluidos", "excluidos", "transferencias", "importe_total"}   (importes como texto)
-- huella: la de a quién y a qué cuenta va cada gasto incluido (interno.huella_remesa); la
-- propuesta la envía con «Generar remesa» y crear_remesa la compara.
-- cuenta_reciente ({"en", "por_id", "por"}): la cuenta se escribió en los últimos 30 días; quien prepara la
-- remesa la comprueba antes de pagar a ella (un cambio de cuenta reciente es la señal del fraude).
-- por_id null: se escribió sin sesión (una carga, el editor SQL), y se dice igual.
-- Una cuenta o un beneficiario que cambia entre la propuesta y «Generar remesa» no debe pasar sin
-- que quien la genera lo vea: su huella (md5 de «gasto:beneficiario:id:iban» de cada línea, en
-- orden de gasto) lo delata. Una línea de interno.remesa_lineas a la vez, agregada por quien llama.
create function interno.linea_de_huella(p_gasto uuid, p_beneficiario text, p_beneficiario_id uuid, p_iban text)
returns text language sql immutable set search_path = '' as $$
  select p_gasto::text || ':' || coalesce(p_beneficiario, '') || ':' || coalesce(p_beneficiario_id::text, '')
         || ':' || coalesce(p_iban, '')
$$;

create function public.remesa_candidatos(p_gasto_ids uuid[]) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  perform interno.exigir_admin_remesas();
  return (
    select jsonb_build_object(
      'gastos', coalesce(jsonb_agg(jsonb_build_object(
        'gasto_id', l.gasto_id, 'folio', l.folio, 'descripcion', l.descripcion, 'fecha_gasto', l.fecha_gasto,
        'importe', l.importe::text, 'metodo_pago', l.metodo_pago, 'beneficiario', l.beneficiario,
        'beneficiario_id', l.beneficiario_id, 'nombre', l.nombre, 'iban', l.iban, 'motivo', l.motivo,
        'cuenta_reciente', case when l.cuenta_indicada_en > now() - interval '30 days'
          then jsonb_build_object('en', l.cuenta_indicada_en, 'por_id', l.cuenta_indicada_por,
                                  'por', interno.autor_del_cambio(l.cuenta_indicada_por)) end)
        order by l.orden), '[]'::jsonb),
      'incluidos', count(*) filter (where l.motivo is null),
      'excluidos', count(*) filter (where l.motivo is not null),
      'transferencias', count(distinct (l.beneficiario, l.beneficiario_id, l.iban)) filter (where l.motivo is null),
      'importe_total', coalesce(sum(l.importe) filter (where l.motivo is null), 0)::numeric(14, 2)::text,
      'huella', md5(coalesce(string_agg(interno.linea_de_huella(l.gasto_id, l.beneficiario, l.beneficiario_id, l.iban),
                                        ',' order by l.gasto_id) filter (where l.motivo is null), '')))
    from interno.remesa_lineas(
      (select array_agg(d.id order by d.primero) from (
         select u.id, min(u.orden) as primero from unnest(p_gasto_ids) with ordinality as u (id, orden)
          where u.id is not null group by u.id) d)) l);
end
$$;

-- Genera la remesa de p_gasto_ids desde la cuenta p_cuenta_id para p_fecha_ejecucion (de hoy a
-- un año después; hoy es el día de la oficina, interno.hoy, 20270102000001_el_dia_de_la_oficina). Todos
-- los gastos deben poder ir (remesa_candidatos): si alguno no, no se genera nada y el mensaje dice
-- cuáles y por qué. p_importe_total, si se da, es la suma que vio quien la
-- genera, y p_huella la de su propuesta (remesa_candidatos): si ya no son esas, no se genera. Bloquea los gastos (en orden de id, como un solo
-- candado para dos administradores a la vez): de dos remesas con el mismo gasto, la segunda ve la
-- primera y se rechaza; el índice único de remesa_gastos lo garantiza en cualquier caso.
-- Devuelve interno.remesa_json: lo necesario para construir el fichero.
create function public.crear_remesa(p_gasto_ids uuid[], p_cuenta_id uuid, p_fecha_ejecucion date,
  p_importe_total numeric default null, p_huella text default null)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_ids uuid[];
  v_cuenta public.cuentas_empresa;
  v_empresa public.empresa;
  v_excluidos text;
  v_n_excluidos integer;
  v_ya text;
  v_total numeric(14, 2);
  v_transferencias integer;
  v_huella text;
  v_id uuid;
  v_folio text;
begin
  perform interno.exigir_admin_remesas();
  select array_agg(distinct u.id order by u.id) into v_ids from unnest(p_gasto_ids) as u (id) where u.id is not null;
  if v_ids is null then
    raise exception using errcode = 'OFINV', detail = 'gastos', message = 'Elija al menos un gasto para la remesa.';
  end if;
  select * into v_cuenta from public.cuentas_empresa c where c.id = p_cuenta_id;
  if not found or not v_cuenta.activa then
    raise exception using errcode = 'OFINV', detail = 'cuenta_id',
      message = 'Elija una cuenta activa de la empresa desde la que pagar.';
  end if;
  if p_fecha_ejecucion is null then
    raise exception using errcode = 'OFINV', detail = 'fecha_ejecucion', message = 'Indique la fecha de ejecución.';
  end if;
  if p_fecha_ejecucion < interno.hoy() then
    raise exception using errcode = 'OFINV', detail = 'fecha_ejecucion',
      message = 'La fecha de ejecución no puede ser anterior a hoy.';
  end if;
  -- Será la fecha de pago de sus gastos: los mismos límites que pagar_gasto.
  if p_fecha_ejecucion > (interno.hoy() + interval '1 year')::date then
    raise exception using errcode = 'OFINV', detail = 'fecha_ejecucion',
      message = 'La fecha de ejecución puede ser futura, pero como mucho dentro de un año.';
  end if;
  select * into v_empresa from public.empresa limit 1;
  if v_empresa.razon_social is null or v_empresa.nif is null then
    raise exception using errcode = 'OFINV', detail = 'empresa',
      message = 'Complete la razón social y el NIF de la empresa antes de generar una remesa: el banco identifica con ellos a quien paga.';
  end if;

  perform 1 from public.gastos g where g.id = any (v_ids) order by g.id for update;

  select string_agg(coalesce(l.folio, l.gasto_id::text) || ': ' || l.motivo, ' ' order by l.folio, l.gasto_id)
           filter (where l.motivo is not null),
         count(*) filter (where l.motivo is not null),
         sum(l.importe),
         count(distinct (l.beneficiario, l.beneficiario_id, l.iban)),
         -- Todos en una misma remesa: esta ya se generó (otra pestaña, un segundo envío).
         case when count(*) = count(*) filter (where l.motivo like 'Ya está en la remesa %')
                   and count(distinct l.motivo) = 1 then min(l.motivo) end,
         md5(string_agg(interno.linea_de_huella(l.gasto_id, l.beneficiario, l.beneficiario_id, l.iban),
                        ',' order by l.gasto_id))
    into v_excluidos, v_n_excluidos, v_total, v_transferencias, v_ya, v_huella
    from interno.remesa_lineas(v_ids) l;
  -- Se dice una vez, con su folio.
  if v_ya is not null then
    raise exception using errcode = 'OFINV', detail = 'gastos',
      message = 'Estos gastos ya están en la remesa ' || substr(v_ya, 22, char_length(v_ya) - 22)
        || ': se generó antes (quizá desde otra pestaña). Ábrala en la lista de remesas.';
  end if;
  if v_n_excluidos > 0 then
    raise exception using errcode = 'OFINV', detail = 'gastos',
      message = case when v_n_excluidos = 1 then 'Un gasto no puede ir en la remesa: quítelo o resuelva el motivo. '
        else v_n_excluidos || ' gastos no pueden ir en la remesa: quítelos o resuelva los motivos. ' end || v_excluidos;
  end if;
  -- Una suma que no es un importe (infinita, sin número, más de dos decimales) no se compara.
  if p_importe_total is not null and (abs(p_importe_total) >= 1e12 or p_importe_total <> round(p_importe_total, 2)) then
    raise exception using errcode = 'OFINV', detail = 'importe_total',
      message = 'La suma de la remesa no es un importe en euros: vuelva a la lista y genérela de nuevo.';
  end if;
  if p_huella is not null and p_huella <> v_huella then
    raise exception using errcode = 'OFCNF', detail = 'huella',
      message = 'La cuenta o el beneficiario de algún gasto ha cambiado desde que consultó la propuesta: '
        || 'revísela (las cuentas indicadas hace poco lo dicen) y vuelva a generar la remesa.';
  end if;
  if p_importe_total is not null and p_importe_total <> v_total then
    raise exception using errcode = 'OFCNF', detail = 'importe_total',
      message = 'Los gastos han cambiado desde que los consultó: la remesa sumaría ' || interno.euros(v_total)
        || ' € y no ' || interno.euros(p_importe_total) || ' €. Revíselos y vuelva a intentarlo.';
  end if;

  insert into public.remesas (cuenta_id, fecha_ejecucion, num_transferencias, importe_total, creado_por_id)
  values (v_cuenta.id, p_fecha_ejecucion, v_transferencias, v_total, (select auth.uid()))
  returning id, folio into v_id, v_folio;

  begin
    insert into public.remesa_gastos (remesa_id, gasto_id, beneficiario, beneficiario_id, nombre, iban, importe,
                                      end_to_end_id, cuenta_indicada_en, cuenta_indicada_por)
    select v_id, l.gasto_id, l.beneficiario, l.beneficiario_id, l.nombre, l.iban, l.importe,
           v_folio || '-' || lpad(t.n::text, greatest(3, length(t.n::text)), '0'),
           l.cuenta_indicada_en, l.cuenta_indicada_por
      from interno.remesa_lineas(v_ids) l
      join (select k.beneficiario, k.beneficiario_id, k.iban,
                   row_number() over (order by k.nombre, k.beneficiario, k.beneficiario_id, k.iban) as n
              from (select distinct l2.beneficiario, l2.beneficiario_id, l2.iban, l2.nombre
                      from interno.remesa_lineas(v_ids) l2) k) t
        on (t.beneficiario, t.beneficiario_id, t.iban) = (l.beneficiario, l.beneficiario_id, l.iban);
  exception when unique_violation then
    raise exception using errcode = 'OFCNF', detail = 'gastos',
      message = 'Otro administrador acaba de incluir alguno de estos gastos en otra remesa. Revise la selección y vuelva a intentarlo.';
  end;
  return interno.remesa_json(v_id);
end
$$;

-- Los datos de la remesa para (re)construir su fichero, como los devuelve crear_remesa.
create function public.remesa_datos(p_id uuid) returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v jsonb;
begin
  perform interno.exigir_admin_remesas();
  v := interno.remesa_json(p_id);
  if v is null then
    raise exception using errcode = 'OFNTF', detail = '', message = 'La remesa no existe.';
  end if;
  return v;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Privilegios
-- ---------------------------------------------------------------------------------------------
revoke all on function
  interno.normalizar_iban(text), interno.iban_valido(text), interno.validar_iban(),
  interno.normalizar_cuenta_empresa(), interno.remesas_asignar_folio(),
  interno.remesas_proteger(), interno.remesas_viva(), interno.gastos_en_remesa(), interno.motivo_remesa(uuid),
  interno.remesa_json(uuid), interno.linea_de_huella(uuid, text, uuid, text),
  interno.lista_que_cabe(text, text[], integer), interno.exigir_admin_remesas(), interno.remesa_para(uuid, integer, boolean)
  from public, anon, authenticated;
-- Las restricciones de las tablas la evalúan con el usuario que escribe.
grant execute on function interno.normalizar_iban(text), interno.iban_valido(text) to authenticated, service_role;

revoke all on function
  public.remesa_candidatos(uuid[]), public.crear_remesa(uuid[], uuid, date, numeric, text), public.remesa_datos(uuid)
  from public, anon, authenticated;
grant execute on function
  public.remesa_candidatos(uuid[]), public.crear_remesa(uuid[], uuid, date, numeric, text), public.remesa_datos(uuid)
  to authenticated, service_role;
