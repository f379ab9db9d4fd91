-- Oficina: el panel (`/`, docs/producto.md «Panel») en una sola llamada.
--
-- public.panel(p_hoy) devuelve en un jsonb todas las secciones del panel del usuario actual
-- (auth.uid()). SECURITY INVOKER: cada consulta pasa por la seguridad a nivel de fila de quien
-- llama, así que nadie obtiene aquí nada que no vería en la lista de gastos. Las secciones que no
-- son para su rol van a null. Los importes van como texto decimal exacto ("1234.50"): nunca se
-- convierten en float por el camino.
--
--   p_hoy  el día de la oficina (Europe/Madrid), que calcula la aplicación; de él salen el mes en
--          curso, los últimos 12 meses y los últimos 90 días.
--
-- {
--   "rol": "aprobador",
--   "hoy": "2026-11-22", "mes": {"desde": "2026-11-01", "hasta": "2026-11-30"},
--   "propios": [{"estado", "cuenta", "importe"}, …]      los cinco estados, en el orden del flujo
--   "este_mes": {"cuenta", "importe"}                    los propios con fecha de este mes
--   "ultimos": [{"id", "folio", "fecha_gasto", "descripcion", "importe", "estado"}, …]   5
--   "pendientes": null | {"cuenta", "importe", "mas_antiguos": [{…, "solicitante_nombre"}, …]}
--                 (aprobador y administrador: los que puede aprobar, los más antiguos primero)
--   "presupuestos": null | [{"id", "nombre", "presupuesto", "aprobado", "cuenta", "excedido"}, …]
--   "meses": null | [{"mes": "2026-11", "cuenta", "importe"}, …]      12, el más antiguo primero
--   "noventa_dias": null | {"desde", "hasta"}
--   "categorias": null | [{"categoria", "cuenta", "importe"}, …]      las 8 con más importe
--   "proveedores": null | [{"id", "nombre", "cuenta", "importe"}, …]  los 8 con más importe
--                 ("nombre": interno.nombre_proveedor, el mismo que en las listas)
-- }
-- «Aprobado» es aprobado + pagado (como el aviso de presupuesto de aprobar_gasto), por fecha_gasto.
-- El presupuesto de cada departamento se lee de su tabla aparte (departamentos_presupuesto,
-- 20261226000001_datos_por_necesidad) con la RLS de quien llama; la sección es de administradores.
-- Con la zona de la oficina (Madrid), sea cual sea la de la sesión (interno.hoy,
-- 20270102000001_el_dia_de_la_oficina).
--
-- Cada sección se lee por índice, sin recorrer gastos (mediciones: ADR 0016, «Moved from comments»).

-- ---------------------------------------------------------------------------------------------
-- Totales de lo aprobado, mantenidos por disparador
-- ---------------------------------------------------------------------------------------------
-- Los gráficos del administrador suman lo aprobado de los últimos 12 meses: con 1 000 000 de
-- gastos son más de medio millón de filas, demasiadas para cada carga de la página aunque se lean
-- solo de un índice. Esta tabla guarda esas sumas ya hechas, con la granularidad que necesita el
-- panel, y la mantienen los disparadores de gastos en la misma transacción que cada cambio:
--   tipo 'departamento': fecha = primer día del mes de fecha_gasto, clave = departamento_id
--   tipo 'categoria':    fecha = fecha_gasto,                     clave = categoria
--   tipo 'proveedor':    fecha = fecha_gasto,                     clave = proveedor_id (si hay)
-- Solo la lee un administrador (que ve todos los gastos, así que las sumas son las mismas que las
-- de sus gastos visibles); nadie la escribe salvo los disparadores (propietario).
-- interno.gastos_aprobados_recalcular() la rehace desde gastos (p. ej. tras una carga hecha con
-- los disparadores desactivados).

create table interno.gastos_aprobados_totales (
  tipo text not null
    constraint gastos_aprobados_totales_tipo_check check (tipo in ('departamento', 'categoria', 'proveedor')),
  fecha date not null,
  clave text not null,
  cuenta bigint not null,
  importe numeric not null,
  constraint gastos_aprobados_totales_pkey primary key (tipo, fecha, clave)
);

alter table interno.gastos_aprobados_totales enable row level security;
revoke all on interno.gastos_aprobados_totales from public, anon, authenticated;
grant select on interno.gastos_aprobados_totales to authenticated, service_role;
create policy gastos_aprobados_totales_select on interno.gastos_aprobados_totales
  for select to authenticated
  using ((select interno.es_admin()));

-- Aplica a los totales un lote de filas de gastos aprobados o pagados: signo 1 las que llegan,
-- -1 las que se van. Las claves se actualizan en orden, así dos transacciones que aprueban a la
-- vez no se interbloquean. Una clave que vuelve a cero se queda (con cuenta 0): quien lee filtra.
create function interno.gastos_aprobados_aplicar(
  p_fechas date[], p_departamentos uuid[], p_categorias text[], p_proveedores uuid[],
  p_importes numeric[], p_signos integer[]
) returns void language plpgsql security definer set search_path = '' as $$
begin
  if coalesce(cardinality(p_fechas), 0) = 0 then
    return;
  end if;
  with filas as (
    select * from unnest(p_fechas, p_departamentos, p_categorias, p_proveedores, p_importes, p_signos)
      as f (fecha_gasto, departamento_id, categoria, proveedor_id, importe, signo)
  ), delta as (
    select k.tipo, k.fecha, k.clave, sum(f.signo) as cuenta, sum(f.signo * f.importe) as importe
      from filas f
     cross join lateral (values
       ('departamento', date_trunc('month', f.fecha_gasto)::date, f.departamento_id::text),
       ('categoria', f.fecha_gasto, f.categoria),
       ('proveedor', f.fecha_gasto, f.proveedor_id::text)) as k (tipo, fecha, clave)
     where k.clave is not null
     group by k.tipo, k.fecha, k.clave
    having sum(f.signo) <> 0 or sum(f.signo * f.importe) <> 0
  )
  insert into interno.gastos_aprobados_totales as t (tipo, fecha, clave, cuenta, importe)
  select d.tipo, d.fecha, d.clave, d.cuenta, d.importe from delta d
   order by d.tipo, d.fecha, d.clave
  on conflict (tipo, fecha, clave) do update
    set cuenta = t.cuenta + excluded.cuenta, importe = t.importe + excluded.importe;
end
$$;

-- Disparadores por sentencia con tablas de transición: una carga masiva de miles de gastos hace
-- una sola actualización agregada de los totales, no una por fila.
create function interno.gastos_aprobados_disparador() returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'INSERT' then
    perform interno.gastos_aprobados_aplicar(
      array_agg(n.fecha_gasto), array_agg(n.departamento_id), array_agg(n.categoria),
      array_agg(n.proveedor_id), array_agg(n.importe), array_agg(1))
      from nuevos n
     where n.estado in ('aprobado', 'pagado');
  elsif tg_op = 'UPDATE' then
    perform interno.gastos_aprobados_aplicar(
      array_agg(d.fecha_gasto), array_agg(d.departamento_id), array_agg(d.categoria),
      array_agg(d.proveedor_id), array_agg(d.importe), array_agg(d.signo))
      from (
        select n.fecha_gasto, n.departamento_id, n.categoria, n.proveedor_id, n.importe, 1 as signo
          from nuevos n where n.estado in ('aprobado', 'pagado')
        union all
        select v.fecha_gasto, v.departamento_id, v.categoria, v.proveedor_id, v.importe, -1
          from viejos v where v.estado in ('aprobado', 'pagado')
      ) d;
  elsif tg_op = 'DELETE' then
    perform interno.gastos_aprobados_aplicar(
      array_agg(v.fecha_gasto), array_agg(v.departamento_id), array_agg(v.categoria),
      array_agg(v.proveedor_id), array_agg(v.importe), array_agg(-1))
      from viejos v
     where v.estado in ('aprobado', 'pagado');
  elsif tg_op = 'TRUNCATE' then
    delete from interno.gastos_aprobados_totales;
  end if;
  return null;
end
$$;

create trigger gastos_aprobados_alta after insert on public.gastos
  referencing new table as nuevos
  for each statement execute function interno.gastos_aprobados_disparador();
create trigger gastos_aprobados_cambio after update on public.gastos
  referencing old table as viejos new table as nuevos
  for each statement execute function interno.gastos_aprobados_disparador();
create trigger gastos_aprobados_baja after delete on public.gastos
  referencing old table as viejos
  for each statement execute function interno.gastos_aprobados_disparador();
create trigger gastos_aprobados_vaciado after truncate on public.gastos
  for each statement execute function interno.gastos_aprobados_disparador();

-- Rehace los totales desde gastos (p. ej. tras una carga con los disparadores desactivados).
create function interno.gastos_aprobados_recalcular() returns void language plpgsql security definer set search_path = '' as $$
begin
  lock table interno.gastos_aprobados_totales in exclusive mode;
  delete from interno.gastos_aprobados_totales;
  insert into interno.gastos_aprobados_totales (tipo, fecha, clave, cuenta, importe)
  select k.tipo, k.fecha, k.clave, count(*), sum(g.importe)
    from public.gastos g
   cross join lateral (values
     ('departamento', date_trunc('month', g.fecha_gasto)::date, g.departamento_id::text),
     ('categoria', g.fecha_gasto, g.categoria),
     ('proveedor', g.fecha_gasto, g.proveedor_id::text)) as k (tipo, fecha, clave)
   where g.estado in ('aprobado', 'pagado') and k.clave is not null
   group by k.tipo, k.fecha, k.clave;
end
$$;


-- ---------------------------------------------------------------------------------------------
-- Índices del panel
-- ---------------------------------------------------------------------------------------------
-- - Los gastos propios (por estado, este mes, los cinco últimos): lo que leen el panel y la
--   política gastos_select, para que baste con el índice (index-only scan).
create index gastos_solicitante_panel_idx on public.gastos (solicitante_id, fecha_gasto desc, creado_en desc)
  include (estado, importe, aprobador_id, departamento_id);
-- - Los pendientes, del más antiguo al más reciente («Pendientes de aprobar»; también la vista
--   «Mis pendientes de aprobar» de la lista ordenada por fecha), con lo que suma el panel y la
--   autoría, para filtrar desde el índice lo que cada uno puede aprobar.
create index gastos_pendientes_fecha_idx on public.gastos (fecha_gasto, creado_en)
  include (importe, departamento_id, solicitante_id, aprobador_id, creado_por_id, editado_por_id)
  where estado = 'pendiente';

-- ---------------------------------------------------------------------------------------------
-- El panel
-- ---------------------------------------------------------------------------------------------

-- Las ocho claves de un tipo (categorías o proveedores) con más importe aprobado entre dos fechas,
-- con lo que suman. Con los permisos de quien llama: la política de la tabla sigue valiendo.
create function interno.gastos_aprobados_primeros(p_tipo text, p_desde date, p_hasta date)
returns table (clave text, cuenta bigint, importe numeric)
language sql stable security invoker set search_path = '' as $$
  select t.clave, sum(t.cuenta), sum(t.importe)
    from interno.gastos_aprobados_totales t
   where t.tipo = p_tipo and t.fecha >= p_desde and t.fecha <= p_hasta
   group by t.clave
  having sum(t.cuenta) > 0
   order by sum(t.importe) desc, t.clave
   limit 8
$$;

create function public.panel(p_hoy date) returns jsonb
language plpgsql stable security invoker set search_path = '' set timezone to 'Europe/Madrid' as $$
declare
  v_uid uuid := (select auth.uid());
  v_rol text := (select interno.rol_actual());
  v_hoy date := coalesce(p_hoy, current_date);
  v_mes date;
  v_siguiente date;
  v_inicio_12 date;
  v_inicio_90 date;
  v_solicitantes uuid[];
  v_resultado jsonb;
  v_seccion jsonb;
begin
  if v_rol is null then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Su usuario no está activo o la sesión no es válida.';
  end if;
  v_mes := date_trunc('month', v_hoy)::date;
  v_siguiente := (v_mes + interval '1 month')::date;
  v_inicio_12 := (v_mes - interval '11 months')::date;
  v_inicio_90 := v_hoy - 89;

  v_resultado := jsonb_build_object(
    'rol', v_rol,
    'hoy', v_hoy,
    'mes', jsonb_build_object('desde', v_mes, 'hasta', v_siguiente - 1));

  -- Para todos: los propios por estado, los de este mes y los cinco últimos.
  select coalesce(jsonb_agg(jsonb_build_object(
           'estado', e.estado,
           'cuenta', coalesce(t.cuenta, 0),
           'importe', coalesce(t.importe, 0.00)::text) order by e.orden), '[]'::jsonb)
    into v_seccion
    from unnest(array['borrador', 'pendiente', 'aprobado', 'rechazado', 'pagado']) with ordinality as e (estado, orden)
    left join (
      select g.estado, count(*) as cuenta, sum(g.importe) as importe
        from public.gastos g
       where g.solicitante_id = v_uid
       group by g.estado
    ) t on t.estado = e.estado;
  v_resultado := v_resultado || jsonb_build_object('propios', v_seccion);

  select jsonb_build_object('cuenta', count(*), 'importe', coalesce(sum(g.importe), 0.00)::text)
    into v_seccion
    from public.gastos g
   where g.solicitante_id = v_uid
     and g.fecha_gasto >= v_mes and g.fecha_gasto < v_siguiente;
  v_resultado := v_resultado || jsonb_build_object('este_mes', v_seccion);

  select coalesce(jsonb_agg(jsonb_build_object(
           'id', u.id, 'folio', u.folio, 'fecha_gasto', u.fecha_gasto, 'descripcion', u.descripcion,
           'importe', u.importe::text, 'estado', u.estado) order by u.fecha_gasto desc, u.creado_en desc, u.id), '[]'::jsonb)
    into v_seccion
    from (
      select g.id, g.folio, g.fecha_gasto, g.descripcion, g.importe, g.estado, g.creado_en
        from public.gastos g
       where g.solicitante_id = v_uid
       order by g.fecha_gasto desc, g.creado_en desc, g.id
       limit 5
    ) u;
  v_resultado := v_resultado || jsonb_build_object('ultimos', v_seccion);

  -- Aprobador y administrador: lo que puede aprobar (interno.motivo_no_aprueba, escrito para que
  -- use el índice de pendientes); la política gastos_select se aplica además, como a toda consulta.
  if v_rol in ('aprobador', 'administrador') then
    v_solicitantes := (select interno.solicitantes_a_cargo());
    select jsonb_build_object('cuenta', count(*), 'importe', coalesce(sum(g.importe), 0.00)::text)
      into v_seccion
      from public.gastos g
     where g.estado = 'pendiente'
       and g.solicitante_id <> v_uid
       and g.creado_por_id is distinct from v_uid and g.editado_por_id is distinct from v_uid
       and (v_rol = 'administrador' or g.aprobador_id = v_uid or g.solicitante_id = any (v_solicitantes));
    v_seccion := v_seccion || jsonb_build_object('mas_antiguos', (
      select coalesce(jsonb_agg(jsonb_build_object(
               'id', a.id, 'folio', a.folio, 'fecha_gasto', a.fecha_gasto,
               'descripcion', a.descripcion, 'importe', a.importe::text,
               'solicitante_nombre', interno.nombre_completo(s.nombre, s.apellidos))
               order by a.fecha_gasto, a.creado_en, a.id), '[]'::jsonb)
        from (
          select g.id, g.folio, g.fecha_gasto, g.creado_en, g.descripcion, g.importe, g.solicitante_id
            from public.gastos g
           where g.estado = 'pendiente'
             and g.solicitante_id <> v_uid
             and g.creado_por_id is distinct from v_uid and g.editado_por_id is distinct from v_uid
             and (v_rol = 'administrador' or g.aprobador_id = v_uid or g.solicitante_id = any (v_solicitantes))
           order by g.fecha_gasto, g.creado_en, g.id
           limit 10
        ) a
        left join public.usuarios s on s.id = a.solicitante_id));
    v_resultado := v_resultado || jsonb_build_object('pendientes', v_seccion);
  else
    v_resultado := v_resultado || jsonb_build_object('pendientes', null);
  end if;

  -- Administrador: lo aprobado (aprobado + pagado) del mes por departamento frente a su
  -- presupuesto, los últimos 12 meses y las categorías y proveedores de los últimos 90 días, de
  -- interno.gastos_aprobados_totales (su política: solo administradores).
  if v_rol <> 'administrador' then
    return v_resultado || jsonb_build_object(
      'presupuestos', null, 'meses', null, 'noventa_dias', null, 'categorias', null, 'proveedores', null);
  end if;

  select coalesce(jsonb_agg(jsonb_build_object(
           'id', d.id, 'nombre', d.nombre,
           'presupuesto', dp.presupuesto_mensual::text,
           'aprobado', coalesce(t.importe, 0.00)::text,
           'cuenta', coalesce(t.cuenta, 0),
           'excedido', coalesce(t.importe > dp.presupuesto_mensual, false))
           order by d.nombre, d.id), '[]'::jsonb)
    into v_seccion
    from public.departamentos d
    left join public.departamentos_presupuesto dp on dp.id = d.id
    left join interno.gastos_aprobados_totales t
      on t.tipo = 'departamento' and t.fecha = v_mes and t.clave = d.id::text and t.cuenta > 0
   where d.activo or t.cuenta is not null;
  v_resultado := v_resultado || jsonb_build_object('presupuestos', v_seccion);

  select jsonb_agg(jsonb_build_object(
           'mes', to_char(m.mes, 'YYYY-MM'),
           'cuenta', coalesce(t.cuenta, 0),
           'importe', coalesce(t.importe, 0.00)::text) order by m.mes)
    into v_seccion
    from (select (v_inicio_12 + make_interval(months => n))::date as mes from generate_series(0, 11) as n) m
    left join (
      select t.fecha, sum(t.cuenta) as cuenta, sum(t.importe) as importe
        from interno.gastos_aprobados_totales t
       where t.tipo = 'departamento' and t.fecha >= v_inicio_12 and t.fecha <= v_mes
       group by t.fecha
    ) t on t.fecha = m.mes;
  v_resultado := v_resultado || jsonb_build_object('meses', v_seccion);

  v_resultado := v_resultado || jsonb_build_object(
    'noventa_dias', jsonb_build_object('desde', v_inicio_90, 'hasta', v_hoy));

  select coalesce(jsonb_agg(jsonb_build_object(
           'categoria', c.clave, 'cuenta', c.cuenta, 'importe', c.importe::text)
           order by c.importe desc, c.clave), '[]'::jsonb)
    into v_seccion
    from interno.gastos_aprobados_primeros('categoria', v_inicio_90, v_hoy) c;
  v_resultado := v_resultado || jsonb_build_object('categorias', v_seccion);

  select coalesce(jsonb_agg(jsonb_build_object(
           'id', p.id,
           'nombre', interno.nombre_proveedor(p.razon_social, p.nombre_comercial),
           'cuenta', c.cuenta, 'importe', c.importe::text)
           order by c.importe desc, c.clave), '[]'::jsonb)
    into v_seccion
    from interno.gastos_aprobados_primeros('proveedor', v_inicio_90, v_hoy) c
    join public.proveedores p on p.id = c.clave::uuid;
  v_resultado := v_resultado || jsonb_build_object('proveedores', v_seccion);

  return v_resultado;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Privilegios: el panel, para authenticated; lo interno, para nadie (solo los disparadores).
-- ---------------------------------------------------------------------------------------------

revoke execute on function
  interno.gastos_aprobados_aplicar(date[], uuid[], text[], uuid[], numeric[], integer[]),
  interno.gastos_aprobados_disparador(),
  interno.gastos_aprobados_recalcular()
  from public, anon, authenticated;
revoke execute on function public.panel(date), interno.gastos_aprobados_primeros(text, date, date)
  from public, anon;
grant execute on function interno.gastos_aprobados_primeros(text, date, date) to authenticated, service_role;
grant execute on function public.panel(date) to authenticated, service_role;
